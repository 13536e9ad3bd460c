package betty_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/testserver"
)

// WaitForJob against the real server: a run followed while it is ended answers it cancelled,
// from the event stream (the poll it keeps as a safety net comes every 30 s only).
func TestWaitForJobAgainstTheRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh), betty.WithHTTPClient(streamingClient(t)))
	if err != nil {
		t.Fatal(err)
	}
	wf := runnable(t, ctx, env, c, team, 5)
	if j, err := c.WorkflowProgress(ctx, wf); j != nil || err != nil {
		t.Fatalf("progress before any run: %+v %v", j, err)
	}
	job, err := c.RunWorkflow(ctx, team, wf, betty.RunOptions{TriggeredBy: "nightly"})
	if err != nil || job.Status != client.JobStatusInProgress || job.Progress.Total != 5 {
		t.Fatalf("run: %+v %v", job, err)
	}
	seen := make(chan client.Job, 100)
	done := make(chan error, 1)
	var final client.Job
	go func() {
		var err error
		final, err = c.WaitForJob(ctx, team, job.Id, func(j client.Job) { seen <- j })
		done <- err
	}()
	<-seen // the state at the start: now end it
	ended, err := c.EndWorkflowJob(ctx, wf)
	if err != nil || ended.Status != client.JobStatusCancelled {
		t.Fatalf("end: %+v %v", ended, err)
	}
	start := time.Now()
	select {
	case err := <-done:
		if err != nil || final.Status != client.JobStatusCancelled || final.Id != job.Id {
			t.Fatalf("wait: %+v %v", final, err)
		}
	case <-ctx.Done():
		t.Fatal("WaitForJob did not see the run end")
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Errorf("the end took %s to arrive: not from the event stream", waited)
	}
	var history []client.Job
	for j, err := range c.WorkflowHistory(ctx, wf) {
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, j)
	}
	if len(history) != 1 || history[0].Id != job.Id || history[0].TriggeredBy != "nightly" {
		t.Errorf("history: %+v", history)
	}
}

// runnable makes a workflow of team that may run, with n contacts, and answers its id.
func runnable(t *testing.T, ctx context.Context, env *testserver.Env, c *betty.Client, team string, n int) string {
	t.Helper()
	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Renewals", AgentID: ag.Id, Type: client.WorkflowTypeOutbound})
	if err != nil {
		t.Fatal(err)
	}
	node, hello := "contacts-"+w.Id, "Greet {{firstName}}."
	if _, err := c.SaveWorkflow(ctx, w.Id, betty.Graph{Nodes: []client.WorkflowNode{
		{Id: node, Type: client.NodeKindContacts}, {Id: "start-" + w.Id, Type: client.NodeKindStart},
		{Id: "hello-" + w.Id, Type: client.NodeKindAgent, Data: client.WorkflowNodeData{Instruction: &hello}}, {Id: "end-" + w.Id, Type: client.NodeKindEndCall},
	}, Edges: []client.WorkflowEdge{
		{Id: "e1-" + w.Id, Source: "start-" + w.Id, Target: "hello-" + w.Id, Type: client.AddStep},
		{Id: "e2-" + w.Id, Source: "hello-" + w.Id, Target: "end-" + w.Id, Type: client.AddStep},
	}}, 0); err != nil {
		t.Fatal(err)
	}
	number := env.PhoneNumber(t, team, "+14155550100")
	if err := betty.NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SetWorkflowPhoneNumber(ctx, client.SetWorkflowPhoneNumberRequest{WorkflowId: w.Id, PhoneNumberId: &number})
	}); err != nil {
		t.Fatal(err)
	}
	if err := env.DB.AddCredits(ctx, team, 100, store.LedgerGrant, nil, nil); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("phone,firstName\n")
	for i := range n {
		fmt.Fprintf(&b, "+1415555%04d,Ann%d\n", 1000+i, i)
	}
	path := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ImportContacts(ctx, team, w.Id, node, path, betty.UploadOptions{}, betty.CSVOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitForContacts(ctx, w.Id, node, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	return w.Id
}
