package telnyx_test

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/telnyx"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
	"github.com/bettyhq/betty/server/speech"
)

// recorder is a CallEventHandler that keeps what it is given.
type recorder struct {
	mu     sync.Mutex
	events []phones.CallEvent
	fail   error
}

func (r *recorder) HandleCallEvent(_ context.Context, e phones.CallEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	r.events = append(r.events, e)
	return nil
}

func (r *recorder) got() []phones.CallEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]phones.CallEvent(nil), r.events...)
}

func newCalls(t *testing.T, fake *telnyxtest.Server, o telnyx.CallsOptions, mod ...func(*telnyx.Config)) *telnyx.Calls {
	t.Helper()
	if o.Backoff == 0 {
		o.Backoff = 10 * time.Millisecond
	}
	if o.PublicKey == "" {
		o.PublicKey = fake.PublicKey()
	}
	k, err := telnyx.NewCalls(newClient(t, fake, mod...), o)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func dialRequest(key string) phones.DialRequest {
	return phones.DialRequest{Key: key, AttemptID: "att-" + key, From: "+13125550199", To: "+13125550101",
		DetectMachine: true, RingTimeout: 25 * time.Second, Record: true}
}

// callRequests are the requests the fake got at path.
func callRequests(fake *telnyxtest.Server, path string) []telnyxtest.Request {
	var out []telnyxtest.Request
	for _, r := range fake.Requests() {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

func TestDialSendsTelnyxCallControl(t *testing.T) {
	fake := telnyxtest.Start(t, key)
	k := newCalls(t, fake, telnyx.CallsOptions{})
	call, err := k.Dial(context.Background(), dialRequest("k1"))
	if err != nil || !strings.HasPrefix(call.CallControlID, "v3:") {
		t.Fatalf("dial: %+v %v", call, err)
	}
	reqs := callRequests(fake, "/calls")
	if len(reqs) != 1 {
		t.Fatalf("%d dials", len(reqs))
	}
	b := reqs[0].Body
	state, _ := base64.StdEncoding.DecodeString(b["client_state"].(string))
	if b["connection_id"] != "1494404757140276705" || b["to"] != "+13125550101" || b["from"] != "+13125550199" ||
		b["command_id"] != "k1" || string(state) != "att-k1" || b["timeout_secs"] != float64(25) ||
		b["answering_machine_detection"] != "detect" || b["record"] != "record-from-answer" || b["record_format"] != "mp3" {
		t.Fatalf("sent %+v", b)
	}
	if id, ok := telnyx.DecodeClientState(b["client_state"].(string)); !ok || id != "att-k1" {
		t.Fatalf("client state reads back as %q", id)
	}
}

// A dial whose answer never came (the client gave up) is asked again with the same command_id:
// Telnyx places one call and answers its id.
func TestDialRetriedAfterATimeoutPlacesOneCall(t *testing.T) {
	fake := telnyxtest.Start(t, key)
	fake.AnswerLate(http.MethodPost, "/calls", 2*time.Second)
	k := newCalls(t, fake, telnyx.CallsOptions{}, func(c *telnyx.Config) { c.Timeout = 300 * time.Millisecond })
	call, err := k.Dial(context.Background(), dialRequest("k2"))
	if err != nil {
		t.Fatal(err)
	}
	st := fake.Stats()
	if st.TotalDials != 1 || st.DialRequests["+13125550101"] != 2 {
		t.Fatalf("stats %+v", st)
	}
	again, err := k.Dial(context.Background(), dialRequest("k2"))
	if err != nil || again != call || fake.Stats().TotalDials != 1 {
		t.Fatalf("asking again: %+v %v, %+v", again, err, fake.Stats())
	}
}

// A dial Telnyx placed but answered with a 503 is asked again with the same command_id: the
// call placed is answered, no second one.
func TestDialWhoseAnswerWasLost(t *testing.T) {
	fake := telnyxtest.Start(t, key)
	fake.EnableCalls(telnyxtest.CallsConfig{Answer: 1, LoseAnswers: 1})
	k := newCalls(t, fake, telnyx.CallsOptions{})
	call, err := k.Dial(context.Background(), dialRequest("k9"))
	if err != nil || call.CallControlID == "" {
		t.Fatalf("%+v %v", call, err)
	}
	if st := fake.Stats(); st.TotalDials != 1 || st.LostAnswers != 1 || st.DialRequests["+13125550101"] != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestDialRetries5xxAndGivesUp(t *testing.T) {
	fake := telnyxtest.Start(t, key)
	down := telnyxtest.ErrorObject{Code: "10007", Title: "Unexpected error", Detail: "An unexpected error occurred."}
	fake.Fail(http.MethodPost, "/calls", http.StatusServiceUnavailable, down)
	fake.Fail(http.MethodPost, "/calls", http.StatusTooManyRequests, telnyxtest.ErrorObject{Code: "10011", Title: "Too many requests"})
	k := newCalls(t, fake, telnyx.CallsOptions{Retries: 2})
	if _, err := k.Dial(context.Background(), dialRequest("k3")); err != nil {
		t.Fatalf("after a 503 and a 429: %v", err)
	}
	if n := len(callRequests(fake, "/calls")); n != 3 || fake.Stats().TotalDials != 1 {
		t.Fatalf("%d requests, %+v", n, fake.Stats())
	}
	for range 3 {
		fake.Fail(http.MethodPost, "/calls", http.StatusBadGateway, down)
	}
	_, err := k.Dial(context.Background(), dialRequest("k4"))
	var apiErr *telnyx.Error
	if !errors.Is(err, phones.ErrCarrierDown) || !errors.As(err, &apiErr) || apiErr.Status != 502 || apiErr.Errors[0].Code != "10007" {
		t.Fatalf("after three 502: %v", err)
	}
	if fake.Stats().TotalDials != 1 {
		t.Fatalf("a refused dial placed a call: %+v", fake.Stats())
	}
}

func TestDialErrorBodies(t *testing.T) {
	fake := telnyxtest.Start(t, key)
	k := newCalls(t, fake, telnyx.CallsOptions{})
	req := dialRequest("k5")
	req.To = "12"
	_, err := k.Dial(context.Background(), req)
	var apiErr *telnyx.Error
	if !errors.Is(err, phones.ErrRejected) || !errors.As(err, &apiErr) || apiErr.Status != 422 || apiErr.Errors[0].Source.Pointer != "/to" {
		t.Fatalf("invalid number: %v", err)
	}
	if n := len(callRequests(fake, "/calls")); n != 1 {
		t.Fatalf("a 4xx was retried: %d requests", n)
	}
	bad, err := telnyx.New(telnyx.Config{APIKey: "WRONG", BaseURL: fake.URL(), ConnectionID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	k2, _ := telnyx.NewCalls(bad, telnyx.CallsOptions{})
	if _, err := k2.Dial(context.Background(), dialRequest("k6")); !errors.Is(err, phones.ErrCarrierAuth) || !strings.Contains(err.Error(), "10009") {
		t.Fatalf("wrong key: %v", err)
	}
	if _, err := k.Dial(context.Background(), phones.DialRequest{To: "+13125550101", From: "+13125550199"}); err == nil {
		t.Fatal("a dial without a key was sent")
	}
	if _, err := telnyx.NewCalls(bad, telnyx.CallsOptions{PublicKey: "not a key"}); err == nil || !strings.Contains(err.Error(), "--telnyx-public-key") {
		t.Fatalf("bad public key: %v", err)
	}
}

type voices map[string]speech.Voice

func (v voices) Preset(_ context.Context, id string) (speech.Voice, error) {
	if p, ok := v[id]; ok {
		return p, nil
	}
	return speech.Voice{}, errors.New("no such voice")
}

func TestCommandsOnACall(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	h := &recorder{}
	k := newCalls(t, fake, telnyx.CallsOptions{Handler: h, Voices: voices{
		"espeak-en-gb-male": {ID: "espeak-en-gb-male", Gender: speech.Male, Language: "en-GB"},
		"espeak-sw-female":  {ID: "espeak-sw-female", Gender: speech.Female, Language: "sw"},
	}})
	call, err := k.Dial(ctx, dialRequest("k7"))
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return hasEvent(fake, call.CallControlID, "call.answered") })
	for i, tt := range []struct{ voice, want, lang string }{
		{"espeak-en-gb-male", "AWS.Polly.Brian-Neural", ""},
		{"espeak-sw-female", "female", "sw"},
		{"AWS.Polly.Joanna-Neural", "AWS.Polly.Joanna-Neural", ""},
		{"unknown", "AWS.Polly.Joanna-Neural", ""},
	} {
		if err := k.Speak(ctx, call.CallControlID, "Hello there", tt.voice, "s"+string(rune('0'+i))); err != nil {
			t.Fatal(err)
		}
		reqs := callRequests(fake, "/calls/"+call.CallControlID+"/actions/speak")
		b := reqs[len(reqs)-1].Body
		lang, _ := b["language"].(string)
		if b["voice"] != tt.want || lang != tt.lang || b["payload"] != "Hello there" || b["command_id"] == "" {
			t.Errorf("%s: sent %+v", tt.voice, b)
		}
	}
	if err := k.Transfer(ctx, call.CallControlID, "+13125550177", "t1"); err != nil {
		t.Fatal(err)
	}
	b := callRequests(fake, "/calls/"+call.CallControlID+"/actions/transfer")[0].Body
	if b["to"] != "+13125550177" || b["command_id"] != "t1" {
		t.Fatalf("transfer sent %+v", b)
	}
	waitUntil(t, func() bool { return hasEvent(fake, call.CallControlID, "call.hangup") })
	// The call is over: hanging up is done already; another command is refused.
	if err := k.Hangup(ctx, call.CallControlID, "h1"); err != nil {
		t.Fatalf("hangup of an ended call: %v", err)
	}
	if err := k.Speak(ctx, call.CallControlID, "Hello?", "unknown", "s9"); !errors.Is(err, phones.ErrRejected) {
		t.Fatalf("speak on an ended call: %v", err)
	}
	if err := k.Hangup(ctx, "v3:nope", "h2"); err != nil {
		t.Fatalf("hangup of an unknown call: %v", err)
	}
}

// Listening: the words come back through the webhook as an EventHeard, or an empty one when
// nothing is said before the timeout.
func TestListen(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	fake.EnableCalls(telnyxtest.CallsConfig{Answer: 1, Ring: 5 * time.Millisecond, Utterance: "Call me tomorrow."})
	h := &recorder{}
	k := newCalls(t, fake, telnyx.CallsOptions{Handler: h})
	call, err := k.Dial(ctx, dialRequest("k8"))
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return hasEvent(fake, call.CallControlID, "call.answered") })
	if err := k.Listen(ctx, call.CallControlID, 300*time.Millisecond, "l1"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return hasEvent(fake, call.CallControlID, "call.transcription") })
	deliver(t, fake, k, call.CallControlID, "call.transcription")
	time.Sleep(400 * time.Millisecond) // past the timeout: no silence follows words
	got := h.got()
	if len(got) != 1 || got[0].Kind != phones.EventHeard || got[0].Text != "Call me tomorrow." || got[0].AttemptID != "att-k8" {
		t.Fatalf("heard %+v", got)
	}
	if len(callRequests(fake, "/calls/"+call.CallControlID+"/actions/transcription_stop")) != 1 {
		t.Fatal("the transcription was not stopped")
	}
	// Nothing delivered this time: an empty EventHeard at the timeout.
	if err := k.Listen(ctx, call.CallControlID, 50*time.Millisecond, "l2"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return len(h.got()) == 2 })
	if e := h.got()[1]; e.Kind != phones.EventHeard || e.Text != "" || e.CallControlID != call.CallControlID || e.ID == "" {
		t.Fatalf("silence: %+v", e)
	}
}

func hasEvent(fake *telnyxtest.Server, callControlID, kind string) bool {
	for _, e := range fake.Events() {
		if e.CallControlID == callControlID && e.Type == kind {
			return true
		}
	}
	return false
}

// deliver hands the fake's newest event of a kind to Receive, signed as the fake signs it.
func deliver(t *testing.T, fake *telnyxtest.Server, k *telnyx.Calls, callControlID, kind string) {
	t.Helper()
	for _, e := range fake.Events() {
		if e.CallControlID == callControlID && e.Type == kind {
			body := []byte(`{"data":` + string(e.Body) + `,"meta":{"attempt":1}}`)
			ts, sig := fake.Sign(body, time.Now())
			if err := k.Receive(context.Background(), body, sig, ts); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no %s event", kind)
}

func waitUntil(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Status reads Telnyx's "Retrieve a call status" (GET /calls/{call_control_id}): is_alive,
// and an ended call's end_time; 404 (a call Telnyx forgot, 10 minutes after its end, or
// never had) is a call it no longer has; a failure to ask is an error, not an ended call.
func TestStatusAsksTelnyxAboutACall(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	fake.EnableCalls(telnyxtest.CallsConfig{Answer: 1, Ring: 5 * time.Millisecond, DropHangups: true})
	k := newCalls(t, fake, telnyx.CallsOptions{Retries: -1})
	call, err := k.Dial(ctx, dialRequest("k1"))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := k.Status(ctx, call.CallControlID); err != nil || !st.Alive || !st.EndedAt.IsZero() {
		t.Fatalf("a call on the line: %+v %v", st, err)
	}
	if reqs := fake.Requests(); reqs[len(reqs)-1].Method != http.MethodGet || reqs[len(reqs)-1].Path != "/calls/"+call.CallControlID {
		t.Fatalf("asked %+v", reqs[len(reqs)-1])
	}
	before := time.Now().UTC()
	if err := k.Hangup(ctx, call.CallControlID, "k1:1"); err != nil {
		t.Fatal(err)
	}
	st, err := k.Status(ctx, call.CallControlID)
	if err != nil || st.Alive || st.EndedAt.Before(before.Add(-time.Second)) || st.EndedAt.After(time.Now().Add(time.Second)) {
		t.Fatalf("a call hung up: %+v %v", st, err)
	}
	if got := fake.Stats(); got.DroppedHangups != 1 || got.StatusRequests != 2 {
		t.Fatalf("fake: %+v", got)
	}
	fake.Forget(call.CallControlID)
	if st, err := k.Status(ctx, call.CallControlID); err != nil || st.Alive || !st.EndedAt.IsZero() {
		t.Fatalf("a call Telnyx forgot: %+v %v", st, err)
	}
	if st, err := k.Status(ctx, "v3:never-placed"); err != nil || st.Alive {
		t.Fatalf("a call Telnyx never had: %+v %v", st, err)
	}
	for status, want := range map[int]error{http.StatusServiceUnavailable: phones.ErrCarrierDown, http.StatusUnauthorized: phones.ErrCarrierAuth} {
		fake.Fail(http.MethodGet, "/calls/", status, telnyxtest.ErrorObject{Code: "10007", Title: "Unexpected error"})
		if _, err := k.Status(ctx, call.CallControlID); !errors.Is(err, want) {
			t.Fatalf("%d: %v", status, err)
		}
	}
	// A 404 that is not Telnyx's (no errors list: a wrong API URL, a proxy) ends nothing.
	fake.Fail(http.MethodGet, "/calls/", http.StatusNotFound)
	if st, err := k.Status(ctx, "v3:never-placed"); err == nil {
		t.Fatalf("a bare 404: %+v, no error", st)
	}
}
