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
	"github.com/bettyhq/betty/server/testserver"
)

// Importing a CSV into a workflow's Contacts node against the real server: upload, parse,
// rejected rows kept with their reason, the contacts walked in file order.
func TestContactsAgainstTheRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Calls", AgentID: ag.Id, Type: client.WorkflowTypeOutbound})
	if err != nil {
		t.Fatal(err)
	}
	node := "contacts-" + w.Id
	if w, err = c.SaveWorkflow(ctx, w.Id, betty.Graph{Nodes: []client.WorkflowNode{{Id: node, Type: client.NodeKindContacts}, {Id: "start-" + w.Id, Type: client.NodeKindStart}}}, 0); err != nil {
		t.Fatal(err)
	}
	if betty.ContactsNode(w) != node {
		t.Fatalf("contacts node: %q", betty.ContactsNode(w))
	}
	var b strings.Builder
	b.WriteString("phone,firstName\n")
	for i := 0; i < 250; i++ {
		fmt.Fprintf(&b, "+1 415 555 %04d,Ann%d\n", i, i)
	}
	b.WriteString("not a number,Bad\n")
	path := filepath.Join(t.TempDir(), "list.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := c.ImportContacts(ctx, team, w.Id, node, path, betty.UploadOptions{}, betty.CSVOptions{})
	if err != nil || src.Status != client.ContactsImportStatusParsing || src.NodeFile == nil || src.NodeFile.FileName != "list.csv" {
		t.Fatalf("import: %+v %v", src, err)
	}
	csv, meta, err := c.WaitForContacts(ctx, w.Id, node, 20*time.Millisecond)
	if err != nil || csv.Status != client.ContactsImportStatusSuccess || meta.TotalSize != 251 || len(csv.Rows) != 100 {
		t.Fatalf("wait: %s %+v %v", csv.Status, meta, err)
	}
	n, failed := 0, 0
	for ct, err := range c.Contacts(ctx, w.Id, node) {
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 && ct.Phone != "+14155550000" {
			t.Errorf("first: %+v", ct)
		}
		if ct.BettyMetadata.Status == client.ContactCallStatusFailed {
			failed++
		}
		n++
	}
	if n != 251 || failed != 1 {
		t.Fatalf("walked %d, failed %d", n, failed)
	}
}
