package telnyxtest

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The fake's Call Control v2: POST /calls places a call (idempotent on command_id),
// POST /calls/{call_control_id}/actions/{answer, speak, transcription_start,
// transcription_stop, transfer, hangup, record_start, record_stop} command it (each idempotent on its
// command_id), and GET /calls/{call_control_id} answers its status as Telnyx's "Retrieve a
// call status" does: {"data": {"record_type": "call", "call_control_id", "call_leg_id",
// "call_session_id", "client_state", "is_alive", "call_duration" (seconds), "start_time",
// "end_time" (once ended)}}, kept ForgetAfter (Telnyx: 10 minutes) after the call ended, then
// 404 like a call it never had. What happens on a call comes back as webhooks signed like
// Telnyx's (telnyx-signature-ed25519: base64 Ed25519 of "<telnyx-timestamp>|<raw body>"), sent
// to the webhook URLs, each retried with backoff until one answers 2xx.
//
// A call's outcome is drawn from the seeded distribution by the seed, the number called and
// how many calls that number got before: the same run of the same seed answers the same.

// CallsConfig tells the fake how calls go.
type CallsConfig struct {
	// WebhookURLs receive the events, tried in turn (a retry goes to the next one); none keeps
	// the events in Events only.
	WebhookURLs []string
	// Key signs the webhooks (PublicKey tells the other half).
	Key ed25519.PrivateKey
	// Seed draws the outcomes.
	Seed int64
	// The share of calls answered by a person, busy, not answered and reaching voicemail;
	// what is left fails (call_rejected).
	Answer, Busy, NoAnswer, Voicemail float64
	// Ring is how long a call rings before it is answered, busy or not answered (no-answer
	// waits min(Ring×4, timeout_secs)).
	Ring time.Duration
	// IdleHangup: an answered call that gets no command for this long is hung up by the person
	// (default 20 s), so calls end even when nobody commands them any more.
	IdleHangup time.Duration
	// Utterance is what the person says when listened to (default "Yes, that works for me.").
	Utterance string
	// LoseAnswers is the share of dials the fake places but answers with a 503, as if the
	// answer were lost on the way: the client must ask again with the same command_id, and the
	// fake answers the call it placed (no second call).
	LoseAnswers float64
	// Workers bounds concurrent webhook deliveries (default 16).
	Workers int
	// DropHangups loses every call.hangup webhook (made, never delivered): the application
	// never hears that a call ended, as with a lost webhook or a carrier outage; only GET
	// /calls/{id} tells.
	DropHangups bool
	// ForgetAfter is how long an ended call's status is kept (default 10 minutes, Telnyx's);
	// then GET /calls/{id} answers 404.
	ForgetAfter time.Duration
	// Client sends the webhooks (default: 5 s timeout).
	Client *http.Client
}

// PublicKey is the base64 public key of a signing key, as --telnyx-public-key.
func PublicKey(k ed25519.PrivateKey) string {
	return base64.StdEncoding.EncodeToString(k.Public().(ed25519.PublicKey))
}

// KeyFromSeed is a signing key derived from a seed (the same seed, the same key).
func KeyFromSeed(seed int64) ed25519.PrivateKey {
	h := sha256.Sum256([]byte("faketelnyx:" + strconv.FormatInt(seed, 10)))
	return ed25519.NewKeyFromSeed(h[:])
}

// Stats is what the fake counts, as GET /_fake/stats answers it.
type Stats struct {
	// Dials are the calls placed per number called; DialRequests the POST /calls received
	// per number, duplicates (same command_id) included.
	Dials        map[string]int `json:"dials"`
	DialRequests map[string]int `json:"dialRequests"`
	TotalDials   int            `json:"totalDials"`
	// Outcomes counts calls per outcome drawn (answer, busy, no-answer, voicemail, failed).
	Outcomes map[string]int `json:"outcomes"`
	// Ended counts calls over (hung up, by whoever).
	Ended int `json:"ended"`
	// Events are the webhooks made; EventsSent the deliveries tried (retries included);
	// EventsAcked the events acknowledged with 2xx; EventsPending those still to acknowledge.
	Events        int `json:"events"`
	EventsSent    int `json:"eventsSent"`
	EventsAcked   int `json:"eventsAcked"`
	EventsPending int `json:"eventsPending"`
	// Commands counts the commands carried out (duplicates not) per action.
	Commands map[string]int `json:"commands"`
	// LostAnswers counts the dials placed but answered 503 (LoseAnswers).
	LostAnswers int `json:"lostAnswers"`
	// DroppedHangups counts the call.hangup webhooks lost (DropHangups); StatusRequests the
	// GET /calls/{id} received.
	DroppedHangups int `json:"droppedHangups"`
	StatusRequests int `json:"statusRequests"`
}

// Event is a webhook the fake made.
type Event struct {
	ID, Type, CallControlID string
	Body                    []byte // the JSON sent, without the meta of a delivery
	Acked                   bool
}

type fakeCall struct {
	id, session, leg     string
	from, to, state      string // state: the client_state as sent (base64)
	outcome              string
	answered, ended, amd bool
	inbound              bool // someone called one of the account's numbers
	record               bool
	timeout              time.Duration
	commands             map[string]bool
	idle                 *time.Timer
	started, endedAt     time.Time
}

type callSim struct {
	cfg     CallsConfig
	baseURL string

	mu        sync.Mutex
	calls     map[string]*fakeCall
	byCommand map[string]string // dial command_id → call_control_id
	placed    map[string]int    // number → calls placed
	requested map[string]int    // number → POST /calls
	outcomes  map[string]int
	commands  map[string]int
	ended     int
	lost      int
	dropped   int
	statuses  int
	events    []*Event
	sent      int
	acked     int

	sem    chan struct{}
	done   chan struct{}
	closed bool
	wg     sync.WaitGroup
}

func newCallSim(cfg CallsConfig) *callSim {
	c := &callSim{done: make(chan struct{})}
	c.configure(cfg)
	return c
}

func (c *callSim) configure(cfg CallsConfig) {
	if cfg.Ring <= 0 {
		cfg.Ring = 20 * time.Millisecond
	}
	if cfg.IdleHangup <= 0 {
		cfg.IdleHangup = 20 * time.Second
	}
	if cfg.Utterance == "" {
		cfg.Utterance = "Yes, that works for me."
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 16
	}
	if cfg.ForgetAfter <= 0 {
		cfg.ForgetAfter = 10 * time.Minute
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 5 * time.Second}
	}
	if cfg.Key == nil {
		cfg.Key = KeyFromSeed(cfg.Seed)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cfg = cfg
	c.sem = make(chan struct{}, cfg.Workers)
	c.calls, c.byCommand = map[string]*fakeCall{}, map[string]string{}
	c.placed, c.requested, c.outcomes, c.commands = map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
}

// EnableCalls sets how the fake's calls go (before any call).
func (s *Server) EnableCalls(cfg CallsConfig) { s.calls.configure(cfg) }

// PublicKey is the base64 key the fake's webhooks verify with.
func (s *Server) PublicKey() string { return PublicKey(s.calls.cfg.Key) }

// Sign signs a webhook body as the fake does at time at: the telnyx-timestamp and
// telnyx-signature-ed25519 headers.
func (s *Server) Sign(body []byte, at time.Time) (timestamp, signature string) {
	return sign(s.calls.cfg.Key, body, at)
}

func sign(key ed25519.PrivateKey, body []byte, at time.Time) (string, string) {
	ts := strconv.FormatInt(at.Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(ts+"|"), body...))
	return ts, base64.StdEncoding.EncodeToString(sig)
}

// Stats is what the fake counted.
func (s *Server) Stats() Stats { return s.calls.stats() }

// Events lists the webhooks made, oldest first.
func (s *Server) Events() []Event {
	c := s.calls
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Event, len(c.events))
	for i, e := range c.events {
		out[i] = *e
	}
	return out
}

// HangUp makes the person on a call hang up (normal_clearing).
func (s *Server) HangUp(callControlID string) {
	c := s.calls
	c.mu.Lock()
	defer c.mu.Unlock()
	if call := c.calls[callControlID]; call != nil {
		c.end(call, "normal_clearing", "callee")
	}
}

func (c *callSim) stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := Stats{Dials: map[string]int{}, DialRequests: map[string]int{}, Outcomes: map[string]int{}, Commands: map[string]int{},
		Ended: c.ended, Events: len(c.events), EventsSent: c.sent, EventsAcked: c.acked, LostAnswers: c.lost,
		DroppedHangups: c.dropped, StatusRequests: c.statuses}
	for n, v := range c.placed {
		st.Dials[n] = v
		st.TotalDials += v
	}
	for n, v := range c.requested {
		st.DialRequests[n] = v
	}
	for k, v := range c.outcomes {
		st.Outcomes[k] = v
	}
	for k, v := range c.commands {
		st.Commands[k] = v
	}
	st.EventsPending = len(c.events) - c.acked
	return st
}

func (c *callSim) close() {
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		close(c.done)
	}
	c.mu.Unlock()
}

// serveFake answers the fake's own endpoints: GET /_fake/stats.
func (c *callSim) serveFake(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/_fake/stats":
		writeJSON(w, http.StatusOK, c.stats())
	case r.Method == http.MethodPost && r.URL.Path == "/_fake/inbound":
		var body struct{ From, To string }
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || !e164(body.From) || !e164(body.To) {
			invalid(w, "/to", "from and to must be E.164 numbers.")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]string{"call_control_id": c.inbound(body.From, body.To)}})
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/_fake/recordings/"):
		w.Header().Set("Content-Type", "audio/mpeg")
		_, _ = w.Write(silentMP3(50))
	default:
		notFound(w, "No such fake endpoint.")
	}
}

func (c *callSim) serve(w http.ResponseWriter, method, path string, body map[string]any) {
	if id, ok := strings.CutPrefix(path, "/calls/"); ok && method == http.MethodGet && id != "" && !strings.Contains(id, "/") {
		c.status(w, id)
		return
	}
	if method != http.MethodPost {
		notFound(w, "The requested resource or URL could not be found.")
		return
	}
	if path == "/calls" {
		c.dial(w, body)
		return
	}
	rest := strings.TrimPrefix(path, "/calls/")
	id, action, ok := strings.Cut(rest, "/actions/")
	if !ok || id == "" || action == "" {
		notFound(w, "The requested resource or URL could not be found.")
		return
	}
	c.command(w, id, action, body)
}

func str(body map[string]any, k string) string {
	v, _ := body[k].(string)
	return v
}

func (c *callSim) dial(w http.ResponseWriter, body map[string]any) {
	to, from, conn, cmd := str(body, "to"), str(body, "from"), str(body, "connection_id"), str(body, "command_id")
	switch {
	case conn == "":
		invalid(w, "/connection_id", "The connection_id parameter is required.")
		return
	case !e164(to):
		invalid(w, "/to", "The 'to' parameter must be a valid E.164 phone number.")
		return
	case !e164(from):
		invalid(w, "/from", "The 'from' parameter must be a valid E.164 phone number.")
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requested[to]++
	if id, ok := c.byCommand[cmd]; ok && cmd != "" {
		writeJSON(w, http.StatusOK, map[string]any{"data": c.callData(c.calls[id])})
		return
	}
	timeout := 30 * time.Second
	if f, ok := body["timeout_secs"].(float64); ok && f > 0 {
		timeout = time.Duration(f) * time.Second
	}
	call := &fakeCall{id: "v3:" + newUUID(), session: newUUID(), leg: newUUID(), from: from, to: to,
		state: str(body, "client_state"), timeout: timeout, commands: map[string]bool{}, started: time.Now().UTC(),
		amd:    str(body, "answering_machine_detection") != "" && str(body, "answering_machine_detection") != "disabled",
		record: str(body, "record") != ""}
	call.outcome = c.draw(to, c.placed[to])
	c.placed[to]++
	c.outcomes[call.outcome]++
	c.calls[call.id] = call
	if cmd != "" {
		c.byCommand[cmd] = call.id
	}
	c.emit(call, "call.initiated", map[string]any{"direction": "outgoing", "state": "bridging"})
	c.after(c.cfg.Ring, func() { c.progress(call) })
	if cmd != "" && c.cfg.LoseAnswers > 0 && unit(c.cfg.Seed, "lose|"+cmd) < c.cfg.LoseAnswers {
		c.lost++
		writeErrors(w, http.StatusServiceUnavailable, ErrorObject{Code: "10007", Title: "Unexpected error",
			Detail: "An unexpected error occurred."})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": c.callData(call)})
}

// Inbound places a call from a caller to one of the account's numbers: call.initiated with
// direction incoming (and no client_state) goes to the webhooks; the application answers it
// (actions/answer) or hangs it up. It answers the call_control_id. POST /_fake/inbound
// {"from","to"} does the same for the fake running as a process.
func (s *Server) Inbound(from, to string) string { return s.calls.inbound(from, to) }

func (c *callSim) inbound(from, to string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	call := &fakeCall{id: "v3:" + newUUID(), session: newUUID(), leg: newUUID(), from: from, to: to, inbound: true,
		outcome: "answer", timeout: 30 * time.Second, commands: map[string]bool{}, started: time.Now().UTC()}
	c.calls[call.id] = call
	c.emit(call, "call.initiated", map[string]any{"direction": "incoming", "state": "parked"})
	return call.id
}

func (c *callSim) callData(call *fakeCall) map[string]any {
	return map[string]any{"record_type": "call", "call_control_id": call.id, "call_leg_id": call.leg,
		"call_session_id": call.session, "is_alive": !call.ended, "client_state": call.state}
}

// status answers GET /calls/{call_control_id}: the call's data while the fake keeps it, 404
// once ForgetAfter has passed since it ended, or for a call it never had.
func (c *callSim) status(w http.ResponseWriter, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.statuses++
	call := c.calls[id]
	if call == nil || (call.ended && time.Since(call.endedAt) > c.cfg.ForgetAfter) {
		writeErrors(w, http.StatusNotFound, ErrorObject{Code: "90015", Title: "Call not found",
			Detail: "The call_control_id was not found."})
		return
	}
	data := c.callData(call)
	until := time.Now().UTC()
	if call.ended {
		until = call.endedAt
		data["end_time"] = call.endedAt.Format(time.RFC3339Nano)
	}
	data["start_time"] = call.started.Format(time.RFC3339Nano)
	data["call_duration"] = int(until.Sub(call.started).Seconds())
	writeJSON(w, http.StatusOK, map[string]any{"data": data})
}

// Forget makes the fake forget a call at once, as Telnyx does 10 minutes after it ended (or
// a carrier that lost it): GET /calls/{id} answers 404, commands 404.
func (s *Server) Forget(callControlID string) {
	c := s.calls
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.calls, callControlID)
}

// unit is a number in [0, 1) drawn from the seed and a name.
func unit(seed int64, name string) float64 {
	h := sha256.Sum256([]byte(strconv.FormatInt(seed, 10) + "|" + name))
	return float64(binary.BigEndian.Uint64(h[:8])>>11) / float64(1<<53)
}

// draw is the outcome of the n-th call to a number.
func (c *callSim) draw(to string, n int) string {
	u := unit(c.cfg.Seed, to+"|"+strconv.Itoa(n))
	for _, o := range []struct {
		p    float64
		name string
	}{{c.cfg.Answer, "answer"}, {c.cfg.Busy, "busy"}, {c.cfg.NoAnswer, "no-answer"}, {c.cfg.Voicemail, "voicemail"}} {
		if u < o.p {
			return o.name
		}
		u -= o.p
	}
	return "failed"
}

// progress plays the call's outcome once it has rung.
func (c *callSim) progress(call *fakeCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if call.ended {
		return
	}
	switch call.outcome {
	case "busy":
		c.end(call, "user_busy", "callee")
	case "failed":
		c.end(call, "call_rejected", "callee")
	case "no-answer":
		wait := min(c.cfg.Ring*4, call.timeout)
		c.after(wait, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.end(call, "timeout", "caller")
		})
	default:
		call.answered = true
		c.emit(call, "call.answered", map[string]any{"state": "answered"})
		if call.amd {
			result := "human"
			if call.outcome == "voicemail" {
				result = "machine"
			}
			c.emit(call, "call.machine.detection.ended", map[string]any{"result": result})
		}
		c.touch(call)
	}
}

// touch restarts an answered call's idle timer.
func (c *callSim) touch(call *fakeCall) {
	if call.idle != nil {
		call.idle.Stop()
	}
	call.idle = time.AfterFunc(c.cfg.IdleHangup, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.end(call, "normal_clearing", "callee")
	})
}

// end hangs a call up (c.mu held).
func (c *callSim) end(call *fakeCall, cause, source string) {
	if call.ended {
		return
	}
	call.ended, call.endedAt = true, time.Now().UTC()
	c.ended++
	if call.idle != nil {
		call.idle.Stop()
	}
	c.emit(call, "call.hangup", map[string]any{"hangup_cause": cause, "hangup_source": source, "state": "hangup"})
	if call.record && call.answered {
		c.emit(call, "call.recording.saved", map[string]any{"channels": "single", "recording_urls": map[string]string{
			"mp3": c.baseURL + "/_fake/recordings/" + call.leg + ".mp3"}})
	}
}

func (c *callSim) command(w http.ResponseWriter, id, action string, body map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	call := c.calls[id]
	if call == nil {
		writeErrors(w, http.StatusNotFound, ErrorObject{Code: "90015", Title: "Call not found",
			Detail: "The call_control_id was not found."})
		return
	}
	cmd := str(body, "command_id")
	if cmd != "" && call.commands[cmd] {
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]string{"result": "ok"}})
		return
	}
	if call.ended {
		writeErrors(w, http.StatusUnprocessableEntity, ErrorObject{Code: "90018", Title: "Call has already ended",
			Detail: "This call is no longer active and can't receive commands."})
		return
	}
	if action == "answer" {
		if !call.inbound || call.answered {
			writeErrors(w, http.StatusUnprocessableEntity, ErrorObject{Code: "90041", Title: "Invalid call state",
				Detail: "Only an incoming call that rings can be answered."})
			return
		}
		call.answered, call.state, call.record = true, str(body, "client_state"), str(body, "record") != ""
		c.emit(call, "call.answered", map[string]any{"state": "answered"})
		c.commands[action]++
		if cmd != "" {
			call.commands[cmd] = true
		}
		c.touch(call)
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]string{"result": "ok"}})
		return
	}
	if action != "hangup" && !call.answered {
		writeErrors(w, http.StatusUnprocessableEntity, ErrorObject{Code: "90034", Title: "Call not answered yet",
			Detail: "This command can only be sent to an answered call."})
		return
	}
	switch action {
	case "speak":
		if str(body, "payload") == "" || str(body, "voice") == "" {
			invalid(w, "/payload", "payload and voice are required.")
			return
		}
		c.emit(call, "call.speak.started", nil)
		c.after(c.cfg.Ring, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if !call.ended {
				c.emit(call, "call.speak.ended", map[string]any{"status": "completed"})
			}
		})
	case "transcription_start":
		c.after(c.cfg.Ring, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if !call.ended {
				c.emit(call, "call.transcription", map[string]any{"transcription_data": map[string]any{
					"transcript": c.cfg.Utterance, "is_final": true, "confidence": 0.97}})
			}
		})
	case "transcription_stop", "record_start", "record_stop":
		if action == "record_start" {
			call.record = true
		}
	case "transfer":
		if !e164(str(body, "to")) {
			invalid(w, "/to", "The 'to' parameter must be a valid E.164 phone number.")
			return
		}
		c.emit(call, "call.bridged", map[string]any{"to": str(body, "to")})
		c.after(c.cfg.Ring, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.end(call, "normal_clearing", "caller")
		})
	case "hangup":
		c.end(call, "normal_clearing", "caller")
	default:
		notFound(w, "Unknown command "+action+".")
		return
	}
	if cmd != "" {
		call.commands[cmd] = true
	}
	c.commands[action]++
	if !call.ended {
		c.touch(call)
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]string{"result": "ok"}})
}

func (c *callSim) after(d time.Duration, fn func()) {
	time.AfterFunc(d, func() {
		select {
		case <-c.done:
		default:
			fn()
		}
	})
}

// emit makes an event of a call and delivers it (c.mu held).
func (c *callSim) emit(call *fakeCall, kind string, extra map[string]any) {
	if kind == "call.hangup" && c.cfg.DropHangups {
		c.dropped++
		return
	}
	payload := map[string]any{"call_control_id": call.id, "call_leg_id": call.leg, "call_session_id": call.session,
		"connection_id": "fake", "from": call.from, "to": call.to, "client_state": nilIfEmpty(call.state)}
	for k, v := range extra {
		payload[k] = v
	}
	e := &Event{ID: newUUID(), Type: kind, CallControlID: call.id}
	e.Body, _ = json.Marshal(map[string]any{"record_type": "event", "event_type": kind, "id": e.ID,
		"occurred_at": time.Now().UTC().Format(time.RFC3339Nano), "payload": payload})
	c.events = append(c.events, e)
	if len(c.cfg.WebhookURLs) == 0 || c.closed {
		return
	}
	c.wg.Add(1)
	go c.deliver(e)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func e164(n string) bool {
	if !strings.HasPrefix(n, "+") || len(n) < 8 || len(n) > 16 {
		return false
	}
	for _, r := range n[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// SortedNumbers lists the numbers of a count map, sorted (for stable reports).
func SortedNumbers(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
