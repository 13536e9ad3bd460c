package calls_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/calls"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/testserver"
)

// simulate-inbound --follow against the real server (sim carrier): refused with the reason
// while no inbound workflow answers the number; once one does, the conversation is printed
// turn by turn until the call ends.
func TestSimulateInboundAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := env.DB.AddCredits(ctx, team, 100, store.LedgerGrant, nil, nil); err != nil {
		t.Fatal(err)
	}
	number := env.PhoneNumber(t, team, "+14155550177")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	args := []string{"--to", "+14155550177", "--persona", "A customer whose parcel is late", "--follow"}

	f, _ := clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(calls.NewCmdSimulateInbound(f, nil), args...); err == nil || !strings.Contains(err.Error(), "no inbound workflow answers") {
		t.Fatalf("without an inbound workflow: %v", err)
	}

	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Reception", AgentID: ag.Id, Type: client.WorkflowTypeInbound})
	if err != nil {
		t.Fatal(err)
	}
	hello, help, says := "Greet the caller and ask how you can help.", "Help with what they asked.", "Says what they need"
	g := betty.Graph{Nodes: []client.WorkflowNode{
		{Id: "start-" + w.Id, Type: client.NodeKindStart},
		{Id: "hello-" + w.Id, Type: client.NodeKindAgent, Data: client.WorkflowNodeData{Instruction: &hello}},
		{Id: "wait-" + w.Id, Type: client.NodeKindCustomerResponse, Data: client.WorkflowNodeData{Description: &says}},
		{Id: "help-" + w.Id, Type: client.NodeKindAgent, Data: client.WorkflowNodeData{Instruction: &help}},
		{Id: "end-" + w.Id, Type: client.NodeKindEndCall},
	}, Edges: []client.WorkflowEdge{
		{Id: "e1-" + w.Id, Source: "start-" + w.Id, Target: "hello-" + w.Id, Type: client.AddStep},
		{Id: "e2-" + w.Id, Source: "hello-" + w.Id, Target: "wait-" + w.Id, Type: client.AddStep},
		{Id: "e3-" + w.Id, Source: "wait-" + w.Id, Target: "help-" + w.Id, Type: client.AddStep},
		{Id: "e4-" + w.Id, Source: "help-" + w.Id, Target: "end-" + w.Id, Type: client.AddStep},
	}}
	if _, err := c.SaveWorkflow(ctx, w.Id, g, 0); err != nil {
		t.Fatal(err)
	}
	if err := betty.NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SetWorkflowPhoneNumber(ctx, client.SetWorkflowPhoneNumberRequest{WorkflowId: w.Id, PhoneNumberId: &number})
	}); err != nil {
		t.Fatal(err)
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(calls.NewCmdSimulateInbound(f, nil), args...); err != nil {
		t.Fatalf("simulate-inbound --follow: %v\n%s", err, s.ErrOut)
	}
	out := s.Out.String()
	if !strings.Contains(out, "] Agent: ") || !strings.Contains(out, "] Customer: ") || !strings.Contains(s.ErrOut.String(), "ended completed") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, s.ErrOut)
	}
}
