package runs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// team is a team ready to run a workflow: credits, an agent, a number, a campaign whose
// window is always open, and an outbound workflow with a Contacts node.
type team struct {
	org      store.Organization
	owner    store.User
	workflow store.Workflow
	campaign store.Campaign
	nodeID   string
	from     string
}

func (tm team) actor() auth.Actor {
	return auth.Actor{Principal: auth.Principal{UserID: tm.owner.ID, Email: tm.owner.Email},
		Grant: auth.Grant{OrganizationID: tm.org.ID, Role: auth.Owner}}
}

var fixtureSeq atomic.Int64

const alwaysOpen = `{"callWindow":{"start":"00:00","end":"24:00","days":[]},"timezone":"UTC","retryAttempts":2,"retryDelayMinutes":0,"maxConcurrentCalls":1000,"recordCalls":true,"voicemailAction":"hang-up"}`

func newTeam(t testing.TB, db *store.DB, credits float64, settings string) team {
	t.Helper()
	ctx := context.Background()
	n := fixtureSeq.Add(1)
	var tm team
	tm.owner = store.User{Email: fmt.Sprintf("owner%d@example.com", n)}
	must(t, db.CreateUser(ctx, &tm.owner))
	tm.org = store.Organization{Name: "Team", OwnerUserID: tm.owner.ID, PublicAPIKey: "pk_" + store.NewID()}
	must(t, db.CreateOrganization(ctx, &tm.org, tm.owner.Email))
	if credits > 0 {
		must(t, db.AddCredits(ctx, tm.org.ID, credits, store.LedgerGrant, nil, nil))
	}
	ag := store.Agent{OrganizationID: tm.org.ID, Name: "Ava", Status: "active", Language: "en", FAQ: "{}"}
	must(t, db.CreateAgent(ctx, &ag))
	tm.from = fmt.Sprintf("+1415666%04d", n%10000)
	num := store.PhoneNumber{OrganizationID: tm.org.ID, E164: tm.from, Status: "active", CountryCode: "US"}
	must(t, db.CreatePhoneNumber(ctx, &num))
	tm.campaign = store.Campaign{OrganizationID: tm.org.ID, Name: "Spring", Direction: store.Outbound, Status: store.CampaignActive,
		Priority: "medium", Purpose: "Other", Settings: settings, PhoneNumberID: &num.ID}
	must(t, db.CreateCampaign(ctx, &tm.campaign))
	tm.nodeID = fmt.Sprintf("contacts-%d-%d", n, time.Now().UnixNano())
	graph := fmt.Sprintf(`{"nodes":[
		{"id":%[1]q,"type":"contacts","position":{"x":0,"y":400},"data":{"contactsSource":"csv"},"flow_meta":{}},
		{"id":"start-%[1]s","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},
		{"id":"hello-%[1]s","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Hello","instruction":"Greet {{firstName}}."},"flow_meta":{}},
		{"id":"end-%[1]s","type":"end-call","position":{"x":0,"y":-800},"data":{},"flow_meta":{}}],
		"edges":[{"id":"e1-%[1]s","source":"start-%[1]s","target":"hello-%[1]s","type":"add-step"},
		{"id":"e2-%[1]s","source":"hello-%[1]s","target":"end-%[1]s","type":"add-step"}]}`, tm.nodeID)
	tm.workflow = store.Workflow{OrganizationID: tm.org.ID, CampaignID: &tm.campaign.ID, Name: "Calls", Type: store.Outbound,
		AgentID: &ag.ID, Graph: graph, PromptStatus: store.PromptSuccess}
	must(t, db.InTx(ctx, func(ctx context.Context) error {
		return db.CreateWorkflow(ctx, &tm.workflow, []store.WorkflowNode{{ID: tm.nodeID, Type: "contacts"}})
	}))
	return tm
}

// addContacts gives the team's workflow a CSV source with these numbers (time zones optional).
func addContacts(t testing.TB, db *store.DB, tm team, numbers []string, tz *string) {
	t.Helper()
	ctx := context.Background()
	src := store.ContactSource{NodeID: tm.nodeID, OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID, Source: "csv", Status: store.ContactsSuccess}
	must(t, db.InTx(ctx, func(ctx context.Context) error {
		if err := db.SetContactSource(ctx, &src); err != nil {
			return err
		}
		rows := make([]store.Contact, len(numbers))
		for i, p := range numbers {
			name := fmt.Sprintf("Ann%d", i)
			rows[i] = store.Contact{OrganizationID: tm.org.ID, NodeID: tm.nodeID, ImportID: src.ImportID, Seq: i + 1, Phone: p,
				FirstName: &name, TimeZone: tz, Status: store.ContactPending}
		}
		return db.InsertContacts(ctx, rows)
	}))
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fakeCalls is a carrier in the test: it places a call once per key, counts the calls placed
// per number, and answers with events through the handler, at once and in order.
type fakeCalls struct {
	mu      sync.Mutex
	h       phones.CallEventHandler
	outcome func(to string, n int) phones.Outcome
	calls   map[string]string // key → call id
	to      map[string]string // call id → number
	placed  map[string]int    // number → calls placed
	over    map[string]bool
	seq     int
	// lose: keys whose first Dial places the call but answers an error, and whose events are
	// held until the key is asked again.
	lose map[string]bool
	held map[string][]phones.CallEvent
	// silent: calls are placed and no event is sent (the test sends them).
	silent   bool
	qmu      sync.Mutex
	queue    []phones.CallEvent
	draining bool
	// reply is what the customer says.
	reply func(to string) string
	// answered and hangups are the keys of the Answer and Hangup commands received; speaks
	// those of Speak.
	answers, hangups, speaks []string
	// lost: commands are received and lost, as if the process died before sending them.
	lost bool
	// dropHangups: a Hangup ends the call but its event never comes (Status tells it ended,
	// not when).
	dropHangups bool
	// holdEnds: the EventSpeakEnded of each Speak waits in ends until the test sends it.
	holdEnds bool
	ends     []phones.CallEvent
	// log is every Speak, Listen and Hangup received, in order ("speak <key>"); spoke the
	// keys of the Speaks carried out.
	log   []string
	spoke map[string]bool
	// heard is the last EventHeard sent.
	heard phones.CallEvent
	// onSpeak, when set, is told of each Speak as it comes (f.mu not held).
	onSpeak func(key string)
}

func newFakeCalls(outcome func(to string, n int) phones.Outcome) *fakeCalls {
	return &fakeCalls{outcome: outcome, calls: map[string]string{}, to: map[string]string{}, placed: map[string]int{},
		over: map[string]bool{}, lose: map[string]bool{}, held: map[string][]phones.CallEvent{}, spoke: map[string]bool{},
		reply: func(string) string { return "yes please" }}
}

func (f *fakeCalls) event(kind phones.CallEventKind, call, attempt string) phones.CallEvent {
	f.seq++
	return phones.CallEvent{ID: fmt.Sprintf("ev-%d", f.seq), Kind: kind, CallControlID: call, AttemptID: attempt, At: time.Now().UTC()}
}

// emit delivers events in the order they were made, one at a time: events a handler causes
// (a command's answer) queue behind those already waiting, as a carrier's webhooks would.
func (f *fakeCalls) emit(evs []phones.CallEvent) error {
	f.qmu.Lock()
	f.queue = append(f.queue, evs...)
	if f.draining {
		f.qmu.Unlock()
		return nil
	}
	f.draining = true
	for len(f.queue) > 0 {
		e := f.queue[0]
		f.queue = f.queue[1:]
		f.qmu.Unlock()
		// Every event is delivered twice: the handler must not act twice.
		for i := 0; i < 2; i++ {
			if err := f.h.HandleCallEvent(context.Background(), e); err != nil {
				f.qmu.Lock()
				f.draining = false
				f.qmu.Unlock()
				return err
			}
		}
		f.qmu.Lock()
	}
	f.draining = false
	f.qmu.Unlock()
	return nil
}

func (f *fakeCalls) Dial(_ context.Context, req phones.DialRequest) (phones.Call, error) {
	f.mu.Lock()
	if id, ok := f.calls[req.Key]; ok {
		held := f.held[req.Key]
		delete(f.held, req.Key)
		f.mu.Unlock()
		return phones.Call{CallControlID: id}, f.emit(held)
	}
	f.placed[req.To]++
	id := fmt.Sprintf("call-%d-%s", len(f.calls), req.Key)
	f.calls[req.Key], f.to[id] = id, req.To
	evs := []phones.CallEvent{f.event(phones.EventInitiated, id, req.AttemptID)}
	switch f.outcome(req.To, f.placed[req.To]) {
	case phones.OutcomeAnswer:
		evs = append(evs, f.answered(id, req.AttemptID))
	case phones.OutcomeVoicemail:
		evs = append(evs, f.answered(id, req.AttemptID), f.event(phones.EventMachine, id, req.AttemptID))
	case phones.OutcomeBusy:
		e := f.event(phones.EventHangup, id, req.AttemptID)
		e.Cause = phones.HangupBusy
		evs = append(evs, e)
		f.over[id] = true
	case phones.OutcomeNoAnswer:
		e := f.event(phones.EventHangup, id, req.AttemptID)
		e.Cause = phones.HangupNoAnswer
		evs = append(evs, e)
		f.over[id] = true
	default:
		e := f.event(phones.EventHangup, id, req.AttemptID)
		e.Cause = phones.HangupFailed
		evs = append(evs, e)
		f.over[id] = true
	}
	if f.silent {
		f.mu.Unlock()
		return phones.Call{CallControlID: id}, nil
	}
	if f.lose[req.Key] {
		f.held[req.Key] = evs
		f.mu.Unlock()
		return phones.Call{}, errors.New("timeout waiting for the carrier")
	}
	f.mu.Unlock()
	return phones.Call{CallControlID: id}, f.emit(evs)
}

// answered is answered a minute and a half ago: a call hung up now bills 2 minutes.
func (f *fakeCalls) answered(id, attempt string) phones.CallEvent {
	e := f.event(phones.EventAnswered, id, attempt)
	e.At = e.At.Add(-90 * time.Second)
	return e
}

func (f *fakeCalls) attemptOf(call string) string {
	for k, v := range f.calls {
		if v == call {
			return k
		}
	}
	return ""
}

func (f *fakeCalls) Speak(_ context.Context, call, text, voice, key string) error {
	f.mu.Lock()
	f.speaks = append(f.speaks, key)
	f.log = append(f.log, "speak "+key)
	if cb := f.onSpeak; cb != nil {
		f.mu.Unlock()
		cb(key)
		f.mu.Lock()
	}
	if f.over[call] || f.lost || f.spoke[key] { // a key carried out already is not again
		f.mu.Unlock()
		return nil
	}
	if key != "" {
		f.spoke[key] = true
	}
	e := f.event(phones.EventSpeakEnded, call, f.attemptOf(call))
	if f.holdEnds {
		f.ends = append(f.ends, e)
		f.mu.Unlock()
		return nil
	}
	f.mu.Unlock()
	return f.emit([]phones.CallEvent{e})
}

func (f *fakeCalls) Listen(_ context.Context, call string, _ time.Duration, key string) error {
	f.mu.Lock()
	f.log = append(f.log, "listen "+key)
	if f.over[call] {
		f.mu.Unlock()
		return nil
	}
	e := f.event(phones.EventHeard, call, f.attemptOf(call))
	e.Text = f.reply(f.to[call])
	f.heard = e
	f.mu.Unlock()
	return f.emit([]phones.CallEvent{e})
}

func (f *fakeCalls) Transfer(ctx context.Context, call, to, key string) error {
	return f.Hangup(ctx, call, key)
}

// ring makes someone call number to from from: call.initiated of an inbound call.
func (f *fakeCalls) ring(from, to string) (string, error) {
	f.mu.Lock()
	f.seq++
	id := fmt.Sprintf("inbound-call-%d", f.seq)
	f.to[id] = from
	e := f.event(phones.EventInitiated, id, "")
	e.Inbound, e.From, e.To = true, from, to
	f.mu.Unlock()
	return id, f.emit([]phones.CallEvent{e})
}

func (f *fakeCalls) Answer(_ context.Context, call, attempt string, _ bool, key string) error {
	f.mu.Lock()
	f.answers = append(f.answers, key)
	if f.over[call] || f.calls[attempt] != "" || f.lost {
		f.mu.Unlock()
		return nil
	}
	f.calls[attempt] = call
	e := f.answered(call, attempt)
	f.mu.Unlock()
	return f.emit([]phones.CallEvent{e})
}

func (f *fakeCalls) Hangup(_ context.Context, call, key string) error {
	f.mu.Lock()
	f.hangups = append(f.hangups, key)
	f.log = append(f.log, "hangup "+key)
	if f.over[call] {
		f.mu.Unlock()
		return nil
	}
	f.over[call] = true
	if f.dropHangups {
		f.mu.Unlock()
		return nil
	}
	e := f.event(phones.EventHangup, call, f.attemptOf(call))
	e.Cause = phones.HangupNormal
	f.mu.Unlock()
	return f.emit([]phones.CallEvent{e})
}

// Status says a call placed and not over is alive; one over, or unknown, is not.
func (f *fakeCalls) Status(_ context.Context, call string) (phones.CallStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, known := f.to[call]
	return phones.CallStatus{Alive: known && !f.over[call]}, nil
}

func (f *fakeCalls) placedTo(number string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.placed[number]
}

// fakeConversation greets, listens once, thanks and hangs up; a customer saying "do not call"
// asks not to be called again.
type fakeConversation struct{}

type fakeState struct {
	Turns []conversation.Turn
	DNC   bool
	Done  bool
	Path  []string
}

func (fakeConversation) Start(_ context.Context, s conversation.Setup) (conversation.State, []conversation.Action, error) {
	st := fakeState{Turns: []conversation.Turn{{Speaker: "agent", Text: "Hello " + s.Contact.FirstName}}, Path: []string{"start", "hello"}}
	b, _ := json.Marshal(st)
	return b, []conversation.Action{{Kind: conversation.Say, Text: st.Turns[0].Text}, {Kind: conversation.Listen}}, nil
}

func (fakeConversation) Heard(_ context.Context, _ conversation.Setup, raw conversation.State, text string, at time.Duration) (conversation.State, []conversation.Action, error) {
	var st fakeState
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, nil, err
	}
	st.Turns = append(st.Turns, conversation.Turn{Speaker: "customer", Text: text, Offset: at},
		conversation.Turn{Speaker: "agent", Text: "Thank you, goodbye."})
	st.DNC, st.Done, st.Path = strings.Contains(text, "do not call"), true, append(st.Path, "end")
	b, _ := json.Marshal(st)
	return b, []conversation.Action{{Kind: conversation.Say, Text: "Thank you, goodbye."}, {Kind: conversation.Hangup}}, nil
}

func (fakeConversation) Result(raw conversation.State) (conversation.Result, error) {
	var st fakeState
	err := json.Unmarshal(raw, &st)
	r := conversation.Result{Turns: st.Turns, Ended: st.Done, DoNotCall: st.DNC, Path: st.Path}
	if !st.Done && len(st.Path) > 0 {
		r.Current = st.Path[len(st.Path)-1]
	}
	return r, err
}

func (fakeConversation) Summarize(_ context.Context, s conversation.Setup, r conversation.Result) (conversation.Summary, error) {
	return conversation.Summary{Title: "Call with " + s.Contact.FirstName, Summary: fmt.Sprintf("%d turns", len(r.Turns)), Outcome: "completed", Priority: 2}, nil
}

// fakeLogs keeps call logs in memory.
type fakeLogs struct {
	mu         sync.Mutex
	opened     map[string]runs.CallOpened
	closed     map[string]runs.CallClosed
	closes     int
	recordings map[string][]byte
	said       map[string][]runs.Turn // the live transcript of each call
	failSaid   int                    // how many Said calls fail (their transaction rolls back)
	walked     map[string][]string    // each call's nodes, as Walked recorded them: "current" or "path>…"
}

func (l *fakeLogs) Open(_ context.Context, c runs.CallOpened) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := "log-" + c.AttemptID
	l.opened[id] = c
	return id, nil
}

func (l *fakeLogs) Progress(context.Context, string, string, runs.CallProgress) error { return nil }

func (l *fakeLogs) Said(_ context.Context, _, id string, turns []runs.Turn) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failSaid > 0 {
		l.failSaid--
		return errors.New("the database went away")
	}
	if l.said == nil {
		l.said = map[string][]runs.Turn{}
	}
	if _, ok := l.closed[id]; !ok && len(turns) > len(l.said[id]) {
		l.said[id] = append(l.said[id], turns[len(l.said[id]):]...)
	}
	return nil
}

func (l *fakeLogs) Walked(_ context.Context, _, id, current string, path []string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.walked == nil {
		l.walked = map[string][]string{}
	}
	// Like the store, a call standing where it stood already changes nothing.
	if w := l.walked[id]; l.closed[id].Status == "" && (len(w) == 0 || w[len(w)-1] != current) {
		l.walked[id] = append(w, current)
	}
	return nil
}

// positions answers the nodes a call stood on, as Walked recorded them.
func (l *fakeLogs) positions(id string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.walked[id]...)
}

// transcript answers the live transcript of a call so far.
func (l *fakeLogs) transcript(id string) []runs.Turn {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]runs.Turn(nil), l.said[id]...)
}

func (l *fakeLogs) Close(_ context.Context, _, id string, c runs.CallClosed) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closes++
	if _, ok := l.closed[id]; !ok {
		l.closed[id] = c
	}
	return nil
}

func (l *fakeLogs) AttachRecording(_ context.Context, _, id string, mp3 []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.recordings == nil {
		l.recordings = map[string][]byte{}
	}
	if _, ok := l.recordings[id]; !ok {
		l.recordings[id] = mp3
	}
	return nil
}

// fakeDNC is a do-not-call list in memory.
type fakeDNC struct {
	mu      sync.Mutex
	numbers map[string]string // number → reason
}

func (d *fakeDNC) Suppressed(_ context.Context, _ string, numbers []string) (map[string]bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := map[string]bool{}
	for _, n := range numbers {
		if _, ok := d.numbers[n]; ok {
			out[n] = true
		}
	}
	return out, nil
}

func (d *fakeDNC) AddFromCall(_ context.Context, _, number, _, reason string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.numbers[number] = reason
	return nil
}

type nopEvents struct{ n atomic.Int64 }

func (e *nopEvents) Publish(context.Context, string, string, string) error { e.n.Add(1); return nil }

type harness struct {
	db    *store.DB
	svc   *runs.Service
	calls *fakeCalls
	logs  *fakeLogs
	dnc   *fakeDNC
}

func newHarness(t testing.TB, db *store.DB, calls *fakeCalls, cfg runs.Config) harness {
	t.Helper()
	return newHarnessWith(t, db, calls, cfg, fakeConversation{})
}

// newHarnessWith is newHarness with a carrier and a conversation engine of the test's (a
// carrier other than fakeCalls is given its handler by the test).
func newHarnessWith(t testing.TB, db *store.DB, carrier phones.CallControl, cfg runs.Config, conv runs.Conversation) harness {
	t.Helper()
	q := jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{})
	h := harness{db: db, logs: &fakeLogs{opened: map[string]runs.CallOpened{}, closed: map[string]runs.CallClosed{}},
		dnc: &fakeDNC{numbers: map[string]string{}}}
	if cfg.CPSPerNumber == 0 {
		cfg.CPSPerNumber, cfg.CPSAccount = 100000, 100000
	}
	h.svc = runs.New(db, q, runs.Deps{Calls: carrier, Conversation: conv, CallLogs: h.logs, Suppressions: h.dnc,
		Events: &nopEvents{}, Billing: billing.New(db), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, cfg)
	if calls, ok := carrier.(*fakeCalls); ok && calls != nil {
		h.calls, calls.h = calls, h.svc
	}
	must(t, q.Open())
	return h
}

// testCallAda starts a test call of the team's workflow to Ada at +14155559999.
func testCallAda(t testing.TB, h harness, tm team) runs.Job {
	t.Helper()
	j, err := h.svc.TestRun(context.Background(), tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+14155559999",
		NameOrEmail: "Ada", TriggeredBy: "tester@example.com", IsTest: true})
	must(t, err)
	return j
}

// drive works a job until it is done (or the test's patience ends).
func (h harness) drive(t testing.TB, jobID string, patience time.Duration) {
	t.Helper()
	end := time.Now().Add(patience)
	for time.Now().Before(end) {
		_, done, err := h.svc.Dispatch(context.Background(), jobID)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return
		}
	}
	if db := h.db; db != nil {
		as, _ := db.AttemptsOfJob(context.Background(), jobID)
		for _, a := range as {
			if !a.State.Final() {
				t.Logf("open: %s %s call %v", a.ID, a.State, a.CallControlID)
			}
		}
	}
	t.Fatalf("job %s not done after %s", jobID, patience)
}
