package runs_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
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
	"github.com/bettyhq/betty/server/workflow"
)

// personas records the persona each number is dialled with.
type personas struct {
	*sim.Calls
	mu sync.Mutex
	by map[string]string
}

func (p *personas) Dial(ctx context.Context, req phones.DialRequest) (phones.Call, error) {
	p.mu.Lock()
	if req.Simulation != nil {
		p.by[req.To] = req.Simulation.Persona
	}
	p.mu.Unlock()
	return p.Calls.Dial(ctx, req)
}

// On the simulator, a job's contacts play the personas drawn from the flow (Personas), so
// that a job's calls take the flow's branches; on a real carrier nothing is sent.
func TestJobContactsPlayTheFlowsPersonasOnTheSimulator(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		addContacts(t, db, tm, []string{"+14155550041", "+14155550042", "+14155550043"}, nil)
		carrier := sim.NewCalls(sim.CallOptions{Seed: 5, Answer: 1})
		defer carrier.Close()
		heard := &personas{Calls: carrier, by: map[string]string{}}
		q := jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{})
		svc := runs.New(db, q, runs.Deps{Calls: heard, Conversation: conversation.New(conversation.Deps{Agents: conversation.StoreAgents{DB: db}}),
			CallLogs:     &fakeLogs{opened: map[string]runs.CallOpened{}, closed: map[string]runs.CallClosed{}},
			Suppressions: &fakeDNC{numbers: map[string]string{}}, Events: &nopEvents{}, Billing: billing.New(db),
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
			runs.Config{CPSPerNumber: 100000, CPSAccount: 100000, Slice: 300 * time.Millisecond, Carrier: "sim"})
		must(t, q.Open())
		carrier.SetHandler(svc)
		j, err := svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		waitFor(t, "the job's calls", func() bool {
			_, done, err := svc.Dispatch(ctx, j.ID)
			must(t, err)
			return done
		})
		g, err := workflow.Parse([]byte(tm.workflow.Graph))
		must(t, err)
		want := conversation.Personas(g)
		heard.mu.Lock()
		defer heard.mu.Unlock()
		if len(heard.by) != 3 {
			t.Fatalf("personas of %d contacts: %q", len(heard.by), heard.by)
		}
		for to, p := range heard.by {
			if p != conversation.JobPersona(want, to) || !strings.Contains(p, "@example.com") || !strings.Contains(p, to) {
				t.Fatalf("a contact played %q, not one of the flow's personas %q", p, want)
			}
		}
	})
}
