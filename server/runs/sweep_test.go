package runs_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// clock is the dialer's clock in these tests: the real time moved on by what the test says,
// so minutes of silence pass in no time.
type clock struct{ ahead atomic.Int64 }

func (c *clock) now() time.Time { return time.Now().UTC().Add(time.Duration(c.ahead.Load())) }

func (c *clock) advance(d time.Duration) { c.ahead.Add(int64(d)) }

// sweepHarness is a dialer on carrier calls with the test's clock.
func sweepHarness(t testing.TB, db *store.DB, calls phones.CallControl, conv runs.Conversation, clk *clock) (*runs.Service, *fakeLogs) {
	t.Helper()
	q := jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{})
	logs := &fakeLogs{opened: map[string]runs.CallOpened{}, closed: map[string]runs.CallClosed{}}
	svc := runs.New(db, q, runs.Deps{Calls: calls, Conversation: conv, CallLogs: logs, Suppressions: &fakeDNC{numbers: map[string]string{}},
		Events: &nopEvents{}, Billing: billing.New(db), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clk.now},
		runs.Config{CPSPerNumber: 100000, CPSAccount: 100000, Slice: 300 * time.Millisecond, DoubtAfter: 50 * time.Millisecond})
	must(t, q.Open())
	return svc, logs
}

// attempts answers a job's attempts.
func attempts(t testing.TB, db *store.DB, jobID string) []store.Attempt {
	t.Helper()
	as, err := db.AttemptsOfJob(context.Background(), jobID)
	must(t, err)
	return as
}

// sameTime compares times as the databases keep them (PostgreSQL: to the microsecond).
func sameTime(a, b time.Time) bool {
	return a.UTC().Truncate(time.Microsecond).Equal(b.UTC().Truncate(time.Microsecond))
}

// waitFor polls cond until it holds (the simulator delivers events on its own workers).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited in vain for %s", what)
		}
	}
}

// A carrier that drops every hang-up (the simulator's DropHangups): two answered calls end on
// the carrier's side and Betty never hears it. They hold both of the team's lines, so a later
// run dials nothing. The sweep asks the carrier about them once they are silent for long,
// ends them as lost (the attempt completed, the call log closed with the reason and the
// carrier's end, charged what the carrier billed), the run they belong to ends, and the
// later run dials.
func TestSweepEndsCallsWhoseHangUpNeverCame(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		must(t, db.SetDialerLimit(ctx, tm.org.ID, 2, tm.owner.ID))
		addContacts(t, db, tm, []string{"+14155550001", "+14155550002"}, nil)
		carrier := sim.NewCalls(sim.CallOptions{Seed: 7, Answer: 1, DropHangups: true})
		defer carrier.Close()
		clk := &clock{}
		svc, logs := sweepHarness(t, db, carrier, fakeConversation{}, clk)
		carrier.SetHandler(svc)

		j, err := svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		_, done, err := svc.Dispatch(ctx, j.ID)
		must(t, err)
		if done {
			t.Fatal("the run ended with its calls on the line")
		}
		// Each call is answered, greeted, hung up by the agent; the carrier ends it and loses
		// the hang-up: the attempts stay in a call.
		waitFor(t, "both calls to end on the carrier's side", func() bool {
			as := attempts(t, db, j.ID)
			for _, a := range as {
				if a.State != store.AttemptInCall || a.CallControlID == nil {
					return false
				}
				st, err := carrier.Status(ctx, *a.CallControlID)
				if err != nil || st.Alive {
					return false
				}
			}
			return len(as) == 2
		})

		// A later run (one contact) finds no free line.
		later, err := svc.StartSingle(ctx, runs.SingleInput{OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID, Phone: "+14155550003", TriggeredBy: "test"})
		must(t, err)
		_, _, err = svc.Dispatch(ctx, later.ID)
		must(t, err)
		if a := attempts(t, db, later.ID)[0]; a.State != store.AttemptScheduled {
			t.Fatalf("the later run dialled with every line held: %s", a.State)
		}
		// Not silent for long yet: nothing is asked.
		if sw, err := svc.SweepCalls(ctx); err != nil || sw != (runs.Swept{}) {
			t.Fatalf("a sweep before the silence: %+v %v", sw, err)
		}

		clk.advance(3 * time.Minute)
		sw, err := svc.SweepCalls(ctx)
		must(t, err)
		if sw.Asked != 2 || sw.Lost != 2 || sw.TimeUp != 0 {
			t.Fatalf("sweep: %+v", sw)
		}
		_, rate, _, err := billing.New(db).CallFunds(ctx, tm.org.ID)
		must(t, err)
		for _, a := range attempts(t, db, j.ID) {
			if a.State != store.AttemptCompleted || a.EndedAt == nil || a.AnsweredAt == nil || a.Retried {
				t.Fatalf("swept attempt: %+v", a)
			}
			carrierEnd, err := carrier.Status(ctx, *a.CallControlID)
			must(t, err)
			// The end is the carrier's (it still tells it), never the sweep's time.
			if !sameTime(*a.EndedAt, carrierEnd.EndedAt) {
				t.Fatalf("ended at %s, the carrier ended it at %s", a.EndedAt, carrierEnd.EndedAt)
			}
			minutes := int(math.Ceil(a.EndedAt.Sub(*a.AnsweredAt).Seconds() / 60))
			c := logs.closed["log-"+a.ID]
			if c.Reason != runs.ReasonLost || c.Status != "completed" || !sameTime(c.EndedAt, *a.EndedAt) || c.BilledMinutes != minutes ||
				a.BilledMinutes != minutes || math.Abs(c.Cost-float64(minutes)*rate) > 1e-9 || minutes < 1 || minutes > 2 {
				t.Fatalf("call log of %s: %+v (attempt %+v)", a.ID, c, a)
			}
		}
		// The lines are free: the first run ends, the later one dials.
		_, done, err = svc.Dispatch(ctx, j.ID)
		must(t, err)
		if st, _ := db.WorkflowJobStatus(ctx, j.ID); !done || st != store.JobSuccess {
			t.Fatalf("the first run: done %v, %s", done, st)
		}
		_, _, err = svc.Dispatch(ctx, later.ID)
		must(t, err)
		if a := attempts(t, db, later.ID)[0]; a.State == store.AttemptScheduled || a.DialledAt == nil {
			t.Fatalf("the later run did not dial once the lines were free: %+v", a)
		}
		// Its call is lost too: the next sweep ends it alone, the calls swept before stay as
		// they were closed.
		waitFor(t, "the later call to end on the carrier's side", func() bool {
			a := attempts(t, db, later.ID)[0]
			if a.CallControlID == nil || a.State != store.AttemptInCall {
				return false
			}
			st, err := carrier.Status(ctx, *a.CallControlID)
			return err == nil && !st.Alive
		})
		if sw, err := svc.SweepCalls(ctx); err != nil || sw != (runs.Swept{Asked: 1, Lost: 1}) {
			t.Fatalf("the next sweep: %+v %v", sw, err)
		}
		logs.mu.Lock()
		closed, closes := len(logs.closed), logs.closes
		logs.mu.Unlock()
		if closed != 3 || closes != 3 {
			t.Fatalf("%d call logs closed, %d closes", closed, closes)
		}
	})
}

// A lost call whose carrier no longer tells when it ended (Telnyx forgets after 10 minutes)
// is billed up to the last event the carrier sent, never for the silence after: an hour of
// silence changes nothing.
func TestSweptCallIsBilledUpToItsLastEvent(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		addContacts(t, db, tm, []string{"+14155550011"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		calls.dropHangups = true
		clk := &clock{}
		svc, logs := sweepHarness(t, db, calls, fakeConversation{}, clk)
		calls.h = svc
		j, err := svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		_, _, err = svc.Dispatch(ctx, j.ID)
		must(t, err)
		a := attempts(t, db, j.ID)[0]
		if a.State != store.AttemptInCall || a.LastEventAt == nil || a.AnsweredAt == nil || a.EndsBy == nil {
			t.Fatalf("the call: %+v", a)
		}
		// The fake carrier answered 90 s before its last event; 30 minutes from the answer is
		// the default maximum.
		if !a.EndsBy.Equal(a.AnsweredAt.Add(30 * time.Minute)) {
			t.Fatalf("ends by %s, answered %s", a.EndsBy, a.AnsweredAt)
		}
		last := *a.LastEventAt
		clk.advance(time.Hour)
		sw, err := svc.SweepCalls(ctx)
		must(t, err)
		if sw.Lost != 1 {
			t.Fatalf("sweep: %+v", sw)
		}
		a = attempts(t, db, j.ID)[0]
		c := logs.closed["log-"+a.ID]
		if a.State != store.AttemptCompleted || !sameTime(*a.EndedAt, last) || a.BilledMinutes != 2 || c.BilledMinutes != 2 || !sameTime(c.EndedAt, last) ||
			c.Reason != runs.ReasonLost || a.Cause == nil || *a.Cause != "the carrier lost the call; Betty ended it" {
			t.Fatalf("attempt %+v, call log %+v", a, c)
		}
		bal, rate, _, err := billing.New(db).CallFunds(ctx, tm.org.ID)
		must(t, err)
		if math.Abs(bal-(1000-2*rate)) > 1e-9 {
			t.Fatalf("balance %f after a 2-minute call at %f", bal, rate)
		}
	})
}

// chatty talks for ever: every answer gets another question.
type chatty struct{ fakeConversation }

func (chatty) Start(_ context.Context, s conversation.Setup) (conversation.State, []conversation.Action, error) {
	b, _ := json.Marshal(fakeState{Turns: []conversation.Turn{{Speaker: "agent", Text: "Tell me everything."}}})
	return b, []conversation.Action{{Kind: conversation.Say, Text: "Tell me everything."}, {Kind: conversation.Listen}}, nil
}

func (chatty) Heard(_ context.Context, _ conversation.Setup, raw conversation.State, text string, at time.Duration) (conversation.State, []conversation.Action, error) {
	var st fakeState
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, nil, err
	}
	if len(st.Turns) < 40 { // the transcript stays small; the talk goes on
		st.Turns = append(st.Turns, conversation.Turn{Speaker: "customer", Text: text, Offset: at}, conversation.Turn{Speaker: "agent", Text: "And then?"})
	}
	b, _ := json.Marshal(st)
	return b, []conversation.Action{{Kind: conversation.Say, Text: "And then?"}, {Kind: conversation.Listen}}, nil
}

type talker struct{}

func (talker) Reply(context.Context, string, []phones.SpokenTurn) (phones.CustomerReply, error) {
	return phones.CustomerReply{Text: "Well, let me tell you."}, nil
}

// A call that talks for ever (the flow never ends it, the person never stops) is hung up once
// it reaches its campaign's maximum duration: through the carrier, its hang-up closing the
// call log with the reason, the run ending as after any call.
func TestMaximumDurationHangsUpACallThatTalksForEver(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, strings.Replace(alwaysOpen, `"recordCalls":true`, `"recordCalls":true,"maxCallDurationMinutes":5`, 1))
		addContacts(t, db, tm, []string{"+14155550021"}, nil)
		carrier := sim.NewCalls(sim.CallOptions{Seed: 3, Answer: 1})
		defer carrier.Close()
		carrier.SetCustomer(talker{})
		clk := &clock{}
		svc, logs := sweepHarness(t, db, carrier, chatty{}, clk)
		carrier.SetHandler(svc)
		j, err := svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		_, _, err = svc.Dispatch(ctx, j.ID)
		must(t, err)
		waitFor(t, "the call to go on for a few turns", func() bool {
			a := attempts(t, db, j.ID)[0]
			return a.State == store.AttemptInCall && a.Commands >= 10
		})
		a := attempts(t, db, j.ID)[0]
		if a.EndsBy == nil || !a.EndsBy.Equal(a.AnsweredAt.Add(5*time.Minute)) {
			t.Fatalf("ends by %v, answered %v: the campaign's 5 minutes", a.EndsBy, a.AnsweredAt)
		}
		// Four minutes in, the call goes on.
		clk.advance(4 * time.Minute)
		if sw, err := svc.SweepCalls(ctx); err != nil || sw.TimeUp != 0 {
			t.Fatalf("a sweep within the maximum: %+v %v", sw, err)
		}
		clk.advance(90 * time.Second)
		var sw runs.Swept
		waitFor(t, "the sweep to hang up", func() bool { // an event may move the call while it tries
			s, err := svc.SweepCalls(ctx)
			must(t, err)
			sw.TimeUp += s.TimeUp
			return sw.TimeUp > 0
		})
		waitFor(t, "the hang-up", func() bool { return attempts(t, db, j.ID)[0].State.Final() })
		a = attempts(t, db, j.ID)[0]
		c := logs.closed["log-"+a.ID]
		if a.State != store.AttemptCompleted || c.Reason != "The call reached its maximum duration of 5 minutes; it was hung up by Betty." ||
			c.Status != "completed" || c.BilledMinutes < 1 || len(c.Turns) < 3 {
			t.Fatalf("attempt %+v, call log %+v", a, c)
		}
		_, done, err := svc.Dispatch(ctx, j.ID)
		must(t, err)
		if st, _ := db.WorkflowJobStatus(ctx, j.ID); !done || st != store.JobSuccess {
			t.Fatalf("the run: done %v, %s", done, st)
		}
	})
}

// A call the carrier says is alive is left alone while within its maximum duration and asked
// about again only after another silence; past the maximum it is hung up, even one whose
// answer never came (still ringing for Betty).
func TestSweepLeavesLiveCallsAndHangsUpPastTheMaximum(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		addContacts(t, db, tm, []string{"+14155550031"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		calls.silent = true // the call is placed; the carrier never says more
		clk := &clock{}
		svc, logs := sweepHarness(t, db, calls, fakeConversation{}, clk)
		calls.h = svc
		j, err := svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		_, _, err = svc.Dispatch(ctx, j.ID)
		must(t, err)
		if a := attempts(t, db, j.ID)[0]; a.State != store.AttemptRinging {
			t.Fatalf("the call: %+v", a)
		}
		clk.advance(3 * time.Minute)
		if sw, err := svc.SweepCalls(ctx); err != nil || sw != (runs.Swept{Asked: 1}) {
			t.Fatalf("the first sweep: %+v %v", sw, err)
		}
		if sw, err := svc.SweepCalls(ctx); err != nil || sw != (runs.Swept{}) {
			t.Fatalf("asked again at once: %+v %v", sw, err)
		}
		if a := attempts(t, db, j.ID)[0]; a.State != store.AttemptRinging || len(calls.hangups) != 0 {
			t.Fatalf("a live call was touched: %+v %v", a, calls.hangups)
		}
		clk.advance(28 * time.Minute) // 31 minutes after the dial
		sw, err := svc.SweepCalls(ctx)
		must(t, err)
		if sw != (runs.Swept{Asked: 1, TimeUp: 1}) || len(calls.hangups) != 1 {
			t.Fatalf("past the maximum: %+v, hang-ups %v", sw, calls.hangups)
		}
		a := attempts(t, db, j.ID)[0]
		c := logs.closed["log-"+a.ID]
		// The hang-up comes back as the carrier's (normal, before an answer Betty heard of).
		if !a.State.Final() || !strings.Contains(c.Reason, "maximum duration of 30 minutes") {
			t.Fatalf("attempt %+v, call log %+v", a, c)
		}
	})
}

// Without a carrier nothing is swept; the sweep of a dialer with no calls on the line does
// nothing.
func TestSweepWithNothingOnTheLine(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		svc, _ := sweepHarness(t, db, newFakeCalls(nil), fakeConversation{}, &clock{})
		if sw, err := svc.SweepCalls(context.Background()); err != nil || sw != (runs.Swept{}) {
			t.Fatalf("%+v %v", sw, err)
		}
	})
}
