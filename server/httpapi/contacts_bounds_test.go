package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// A 10 MB contacts file of a million columns (one contact with a million extra fields, before)
// ends its import in error naming the limit, and the node lists no contact.
func TestContactsCSVColumnBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("phone")
	for range 1_000_000 {
		b.WriteString(",c")
	}
	b.WriteString("\n+14155550123")
	for range 1_000_000 {
		b.WriteString(",x")
	}
	b.WriteString("\n")
	file := []byte(b.String())
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		values := contactsFixture(t, env, ada, org)
		wf, node := values["workflowId"], values["nodeId"]
		_, link := finishedUpload(t, env, ada.Access, org, "contacts-csv", "wide.csv", file)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": node, "source": "csv", "fileUrl": link}, nil)
		var csv struct {
			Data struct {
				Status string
				Error  *string
			}
			Meta struct{ TotalSize int }
		}
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/"+node, nil, &csv)
			if csv.Data.Status != "parsing" || time.Now().After(deadline) {
				break
			}
		}
		if csv.Data.Status != "error" || csv.Data.Error == nil || !strings.Contains(*csv.Data.Error, "at most 200 columns") || csv.Meta.TotalSize != 0 {
			t.Fatalf("a million columns: %s %v, %d contacts", csv.Data.Status, csv.Data.Error, csv.Meta.TotalSize)
		}
	})
}
