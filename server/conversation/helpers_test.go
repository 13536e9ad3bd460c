package conversation_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// agents is a fixed set of profiles.
type agents map[string]conversation.Profile

func (a agents) Profile(_ context.Context, orgID, agentID string) (conversation.Profile, error) {
	p, ok := a[orgID+"/"+agentID]
	if !ok {
		return conversation.Profile{}, errs.NotFoundf("Agent profile " + agentID)
	}
	return p, nil
}

var linda = conversation.Profile{Name: "Linda", Greeting: "Hi {{firstName}}, this is Linda from Acme.", Voice: "espeak-en-us-linda",
	FAQ: map[string]string{"What are your opening hours?": "We are open from nine to five, Monday to Friday."}}

// knowledge answers passages containing a word of the question.
type knowledge struct {
	passages []string
	asked    []string
}

func (k *knowledge) SearchForAgent(_ context.Context, orgID, agentID, question string, limit int) ([]store.PassageHit, error) {
	k.asked = append(k.asked, question)
	var out []store.PassageHit
	for _, p := range k.passages {
		for _, w := range strings.Fields(strings.ToLower(strings.Trim(question, "?."))) {
			if len(w) > 4 && strings.Contains(strings.ToLower(p), w) {
				out = append(out, store.PassageHit{Content: p})
				break
			}
		}
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// crm records lifecycle stages.
type crm struct{ set []string }

func (c *crm) SetLifecycleStage(_ context.Context, orgID string, ct conversation.Contact, stage string) error {
	c.set = append(c.set, ct.Phone+"="+stage)
	return nil
}

// flow builds a graph from "id:kind" nodes (data given separately) and "a>b" edges; x
// positions follow the order of the nodes.
type flow struct {
	g workflow.Graph
}

func newFlow() *flow { return &flow{} }

func (f *flow) node(id string, kind workflow.Kind, data workflow.Data) *flow {
	if data == nil {
		data = workflow.Data{}
	}
	f.g.Nodes = append(f.g.Nodes, workflow.Node{ID: id, Type: kind, Data: data, Position: workflow.Position{X: float64(len(f.g.Nodes))}})
	return f
}

func (f *flow) edges(pairs ...string) *flow {
	for _, p := range pairs {
		a, b, _ := strings.Cut(p, ">")
		f.g.Edges = append(f.g.Edges, workflow.Edge{ID: p, Source: a, Target: b})
	}
	return f
}

// renewal is a realistic outbound flow: greet, ask, branch on yes / no / a human / anything
// else, with a webhook, a lifecycle stage, a forward and two ends.
func renewal() workflow.Graph {
	return newFlow().
		node("start", workflow.Start, nil).
		node("contacts", workflow.Contacts, workflow.Data{"contactsSource": "csv"}).
		node("ask", workflow.Agent, workflow.Data{"instruction": "Ask if they want to renew their subscription.", "say": "Do you want to renew your subscription?"}).
		node("cp", workflow.ConditionalPath, nil).
		node("yes", workflow.CustomerResponse, workflow.Data{"description": "Yes, wants to renew"}).
		node("no", workflow.CustomerResponse, workflow.Data{"description": "No, not interested"}).
		node("human", workflow.CustomerResponse, workflow.Data{"description": "Wants to speak to a human representative"}).
		node("other", workflow.CustomerResponse, workflow.Data{"description": "Anything else"}).
		node("stage", workflow.LifecycleStage, workflow.Data{"lifeCycleStage": "customer"}).
		node("thanks", workflow.Agent, workflow.Data{"instruction": "Tell them their subscription is renewed.", "say": "Your subscription is renewed."}).
		node("end-yes", workflow.EndCall, workflow.Data{"say": "Goodbye."}).
		node("bye", workflow.Agent, workflow.Data{"instruction": "Thank them for their time.", "say": "Thank you for your time."}).
		node("end-no", workflow.EndCall, workflow.Data{"say": "Goodbye."}).
		node("fwd", workflow.ForwardCall, workflow.Data{"destinationPhoneNumber": "+14155550123"}).
		node("again", workflow.Agent, workflow.Data{"instruction": "Say sorry, I did not understand.", "say": "Sorry, I did not understand."}).
		edges("start>ask", "ask>cp", "cp>yes", "cp>no", "cp>human", "cp>other", "yes>stage", "stage>thanks", "thanks>end-yes",
			"no>bye", "bye>end-no", "human>fwd", "other>again", "again>ask").g
}

func setup(g workflow.Graph) conversation.Setup {
	return conversation.Setup{OrganizationID: "org1", WorkflowID: "wf1", AgentID: "ag1", Graph: g,
		Contact: conversation.Contact{Phone: "+14155550100", FirstName: "Ann", LastName: "Lee", Email: "ann@example.com",
			Extra: map[string]string{"plan": "Gold"}}}
}

func engine(d conversation.Deps) *conversation.Engine {
	if d.Agents == nil {
		d.Agents = agents{"org1/ag1": linda}
	}
	return conversation.New(d)
}

// call runs a conversation: Start, then each reply Heard at the offset the timing model
// gives; it answers every action and the final state.
func call(t *testing.T, e *conversation.Engine, s conversation.Setup, replies ...string) ([]conversation.Action, conversation.State) {
	t.Helper()
	ctx := context.Background()
	st, acts, err := e.Start(ctx, s)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	all := append([]conversation.Action{}, acts...)
	for _, r := range replies {
		if len(acts) == 0 || acts[len(acts)-1].Kind != conversation.Listen {
			t.Fatalf("the engine did not listen before %q: %v", r, acts)
		}
		res, _ := e.Result(st)
		at := time.Duration(0)
		if n := len(res.Turns); n > 0 {
			last := res.Turns[n-1]
			at = last.Offset + time.Duration(len(last.Text))*75*time.Millisecond + 1200*time.Millisecond
		}
		st, acts, err = e.Heard(ctx, s, st, r, at)
		if err != nil {
			t.Fatalf("Heard(%q): %v", r, err)
		}
		all = append(all, acts...)
	}
	return all, st
}

func kinds(acts []conversation.Action) string {
	var out []string
	for _, a := range acts {
		s := string(a.Kind)
		if a.Kind == conversation.Transfer {
			s += ":" + a.To
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

func said(acts []conversation.Action) []string {
	var out []string
	for _, a := range acts {
		if a.Kind == conversation.Say {
			out = append(out, a.Text)
		}
	}
	return out
}

func stepsOf(t *testing.T, e *conversation.Engine, st conversation.State) []conversation.Step {
	t.Helper()
	r, err := e.Result(st)
	if err != nil {
		t.Fatal(err)
	}
	return r.Steps
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// refuseAll is an HTTP client that reaches nothing.
type refuseAll struct{}

func (refuseAll) Do(*http.Request) (*http.Response, error) { return nil, errors.New("offline") }
