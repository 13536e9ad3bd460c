package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
)

func init() {
	for _, op := range []string{"setWorkflowContacts", "getWorkflowCsv", "deleteWorkflowCsv", "listWorkflowContacts", "deleteWorkflowContacts", "downloadRejectedContacts"} {
		resourceFixtures[op] = contactsFixture
	}
}

// contactsFixture makes an outbound workflow with a Contacts node whose source is a small
// CSV file.
func contactsFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	t.Helper()
	a := newTeamAPI(t, env)
	ag := createAgent(t, a, owner, org, map[string]any{})
	var w struct{ Data workflowJSON }
	a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
		map[string]any{"organizationId": org, "name": "Calls", "agentId": ag.ID, "workflowType": "outbound"}, &w)
	node := fmt.Sprintf("contacts-%d", time.Now().UnixNano())
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID,
		"nodes": []any{nodeJSON(node, "contacts", nil), nodeJSON("start-"+node, "start", nil)}, "edges": []any{}}, nil)
	_, link := finishedUpload(t, env, owner.Access, org, "contacts-csv", "list.csv", []byte("phone,firstName\n+14155550123,Ada\n"))
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": w.Data.ID,
		"nodeId": node, "source": "csv", "fileUrl": link}, nil)
	return map[string]string{"workflowId": w.Data.ID, "nodeId": node, "fileUrl": link, "id": w.Data.ID}
}

func nodeJSON(id, kind string, data map[string]any) map[string]any { return node(id, kind, data) }

type contactJSON struct {
	ID, Phone      string
	FirstName      *string
	LifecycleStage *string
	BettyMetadata  struct {
		Status    string
		LastError *string
	} `json:"betty_metadata"`
	Plan string `json:"plan"`
}

// A CSV of 1,000 contacts with 10 bad rows: 990 callable, 10 kept failed with their reason;
// numbers normalised to E.164, columns matched by name, extra columns kept, duplicates caught.
func TestWorkflowContactsCSV(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		values := contactsFixture(t, env, ada, org)
		wf, node := values["workflowId"], values["nodeId"]

		var b strings.Builder
		b.WriteString("\ufeffFirst Name,phone_number,Last_Name,Lifecycle Stage,Plan\n")
		for i := 0; i < 1000; i++ {
			switch {
			case i%100 == 7 && i < 500:
				fmt.Fprintf(&b, "Bad%d,12345,X,whale,=HYPERLINK(1)\n", i) // not a number; a formula-like cell
			case i%100 == 7:
				fmt.Fprintf(&b, "\n\"Dup, %d\",(415) 555-%04d,X\n", i, 0) // the number of row 1, after a blank line, a short row
			default:
				fmt.Fprintf(&b, "Ann%d,(415) 555-%04d,Lee,Sales Lead,gold\n", i, i)
			}
		}
		_, link := finishedUpload(t, env, ada.Access, org, "contacts-csv", "big.csv", []byte(b.String()))
		var set struct {
			Data struct {
				Status, Source string
				NodeFile       struct{ FileName string }
			}
		}
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": node, "source": "csv", "fileUrl": link}, &set)
		if set.Data.Status != "parsing" || set.Data.NodeFile.FileName != "big.csv" {
			t.Fatalf("set: %+v", set.Data)
		}
		var csv struct {
			Data struct {
				Status string
				Error  *string
				Rows   []contactJSON
			}
			Meta struct{ TotalSize, TotalPages int }
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/"+node, nil, &csv)
			if csv.Data.Status != "parsing" || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if csv.Data.Status != "success" || csv.Meta.TotalSize != 1000 || len(csv.Data.Rows) != 100 || csv.Meta.TotalPages != 10 {
			t.Fatalf("csv: %s %v %+v", csv.Data.Status, csv.Data.Error, csv.Meta)
		}
		first := csv.Data.Rows[0]
		if first.Phone != "+14155550000" || *first.FirstName != "Ann0" || *first.LifecycleStage != "sales lead" || first.Plan != "gold" || first.BettyMetadata.Status != "pending" {
			t.Errorf("first row: %+v", first)
		}
		failed, reasons := 0, map[string]int{}
		for page := 1; page <= 10; page++ {
			a.want(http.StatusOK, ada.Access, "GET", fmt.Sprintf("/v1/workflow/csv/%s?page=%d", node, page), nil, &csv)
			for _, r := range csv.Data.Rows {
				if r.BettyMetadata.Status == "failed" {
					failed++
					reasons[strings.SplitN(*r.BettyMetadata.LastError, ":", 2)[0]]++
				}
			}
		}
		if failed != 10 || reasons["Invalid phone number"] != 5 || reasons["Duplicate of row 1"] != 5 {
			t.Errorf("failed %d: %v", failed, reasons)
		}
		wantRejected(t, a, ada, node, csvRejected)

		var list struct {
			Data []contactJSON
			Meta struct{ TotalSize int }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/contacts/data?workflowId="+wf+"&nodeId="+node, nil, &list)
		if len(list.Data) != 10 || list.Meta.TotalSize != 1000 {
			t.Errorf("contacts: %d of %d", len(list.Data), list.Meta.TotalSize)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/contacts/data?workflowId="+wf+"&nodeId="+node+"&source=zapier", nil, &list)
		if len(list.Data) != 0 {
			t.Errorf("another source listed %d", len(list.Data))
		}
		var w struct{ Data workflowJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+wf, nil, &w)
		if !strings.Contains(fmt.Sprint(w.Data.Nodes), "contactsSource:csv") || w.Data.Version != 2 {
			t.Errorf("node source: v%d %v", w.Data.Version, w.Data.Nodes)
		}

		// A file without a phone column ends in error, with the reason.
		_, bad := finishedUpload(t, env, ada.Access, org, "contacts-csv", "bad.csv", []byte("name,email\nAda,a@b.example\n"))
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": node, "source": "csv", "fileUrl": bad}, nil)
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/"+node, nil, &csv)
			if csv.Data.Status != "parsing" || time.Now().After(deadline) {
				break
			}
		}
		if csv.Data.Status != "error" || csv.Data.Error == nil || !strings.Contains(*csv.Data.Error, "no phone column") || csv.Meta.TotalSize != 0 {
			t.Errorf("bad file: %s %v", csv.Data.Status, csv.Data.Error)
		}

		a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": node, "source": "csv"})
		a.problem(http.StatusNotFound, ada.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": "ghost", "source": "zapier"})
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": node, "source": "zapier"}, nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/csv/"+node, nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/csv/"+node+"/rejected", nil)
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/workflow/contacts/data?workflowId="+wf+"&nodeId="+node, nil, nil)
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+wf, nil, &w)
		if strings.Contains(fmt.Sprint(w.Data.Nodes), "contactsSource") {
			t.Errorf("source not cleared: %v", w.Data.Nodes)
		}
		// DELETE csv on a fresh CSV.
		_, small := finishedUpload(t, env, ada.Access, org, "contacts-csv", "s.csv", []byte("phone\n+442071838750\n"))
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": node, "source": "csv", "fileUrl": small}, nil)
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/workflow/csv/"+node, nil, nil)
		a.problem(http.StatusNotFound, ada.Access, "DELETE", "/v1/workflow/csv/"+node, nil)
	})
}

// A CSV of national numbers reads them in the region the request names; a region the
// phone-number library does not know is refused naming the field, and nothing changes.
func TestWorkflowContactsDefaultRegion(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		values := contactsFixture(t, env, ada, org)
		wf, node := values["workflowId"], values["nodeId"]
		_, link := finishedUpload(t, env, ada.Access, org, "contacts-csv", "uk.csv", []byte("phone\n020 7946 0123\n"))
		set := map[string]any{"organizationId": org, "workflowId": wf, "nodeId": node, "source": "csv", "fileUrl": link}

		set["defaultRegion"] = "ZZ"
		if p := a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/workflow/contacts", set); len(p.Errors) != 1 || p.Errors[0].Field != "body.defaultRegion" {
			t.Fatalf("unknown region: %+v", p)
		}
		set["defaultRegion"] = "GB"
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", set, nil)
		var csv struct {
			Data struct {
				Status string
				Rows   []contactJSON
			}
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/"+node, nil, &csv)
			if csv.Data.Status != "parsing" || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if csv.Data.Status != "success" || len(csv.Data.Rows) != 1 || csv.Data.Rows[0].Phone != "+442079460123" {
			t.Fatalf("GB import: %s %+v", csv.Data.Status, csv.Data.Rows)
		}

		// A save without the Contacts node removes its source and contacts; put back (undo),
		// the node has none.
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": wf,
			"nodes": []any{nodeJSON("start-"+node, "start", nil)}, "edges": []any{}}, nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/csv/"+node, nil)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": wf,
			"nodes": []any{nodeJSON(node, "contacts", map[string]any{"contactsSource": "csv"}), nodeJSON("start-"+node, "start", nil)}, "edges": []any{}}, nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/csv/"+node, nil)
		var w struct{ Data workflowJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+wf, nil, &w)
		if strings.Contains(fmt.Sprint(w.Data.Nodes), "contactsSource") {
			t.Errorf("a deleted node's source came back: %v", w.Data.Nodes)
		}
		var left int
		if err := env.DB.Writer().QueryRow(`SELECT COUNT(*) FROM workflow_contacts WHERE node_id = '` + node + `'`).Scan(&left); err != nil || left != 0 {
			t.Errorf("contacts left: %d %v", left, err)
		}
	})
}

// csvRejected is what the rejected rows of TestWorkflowContactsCSV's file download as: the file's
// header and rows, a reason last, a formula-like cell defused.
var csvRejected = func() string {
	var b strings.Builder
	b.WriteString("First Name,phone_number,Last_Name,Lifecycle Stage,Plan,reason\n")
	for i := 7; i < 1000; i += 100 {
		if i < 500 {
			fmt.Fprintf(&b, "Bad%d,12345,X,whale,'=HYPERLINK(1),Invalid phone number\n", i)
		} else {
			fmt.Fprintf(&b, "\"Dup, %d\",(415) 555-0000,X,,,Duplicate of row 1: each number is called once.\n", i)
		}
	}
	return b.String()
}()

// wantRejected downloads a node's rejected rows and compares them with want.
func wantRejected(t *testing.T, a teamAPI, c apitest.Caller, node, want string) {
	t.Helper()
	res := a.want(http.StatusOK, c.Access, "GET", "/v1/workflow/csv/"+node+"/rejected", nil, nil)
	if got := string(res.Body); got != want {
		t.Errorf("rejected rows:\n%s\nwant\n%s", got, want)
	}
	if ct, cd := res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"); ct != "text/csv" || cd != `attachment; filename="big-rejected.csv"` {
		t.Errorf("headers: %q %q", ct, cd)
	}
}

// A number written with letters is refused ("letters in the number") and listed in the
// rejected rows, unless the import turns letter conversion on: then it is read on a keypad.
func TestWorkflowContactsLettersInTheNumber(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		values := contactsFixture(t, env, ada, org)
		wf, node := values["workflowId"], values["nodeId"]
		_, link := finishedUpload(t, env, ada.Access, org, "contacts-csv", "vanity.csv", []byte("name,phone\nAda,+1 415 555 0123\nZed,+1-41A-555-ZZZZ\n"))
		set := map[string]any{"organizationId": org, "workflowId": wf, "nodeId": node, "source": "csv", "fileUrl": link}
		imported := func() []contactJSON {
			t.Helper()
			var csv struct {
				Data struct {
					Status string
					Rows   []contactJSON
				}
			}
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/"+node, nil, &csv)
				if csv.Data.Status != "parsing" || time.Now().After(deadline) {
					break
				}
			}
			if csv.Data.Status != "success" || len(csv.Data.Rows) != 2 {
				t.Fatalf("import: %s %+v", csv.Data.Status, csv.Data.Rows)
			}
			return csv.Data.Rows
		}

		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", set, nil)
		rows := imported()
		if r := rows[1]; r.Phone != "+1-41A-555-ZZZZ" || r.BettyMetadata.Status != "failed" || r.BettyMetadata.LastError == nil ||
			!strings.Contains(*r.BettyMetadata.LastError, "letters in the number") {
			t.Errorf("a number with letters: %+v", r)
		}
		res := a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/"+node+"/rejected", nil, nil)
		// The number is defused with a leading ': a spreadsheet would read it as a formula.
		if got := string(res.Body); !strings.HasPrefix(got, "name,phone,reason\nZed,'+1-41A-555-ZZZZ,") || !strings.Contains(got, "letters in the number") || strings.Contains(got, "Ada") {
			t.Errorf("rejected rows:\n%s", got)
		}

		set["convertLetters"] = true
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/contacts", set, nil)
		if r := imported()[1]; r.Phone != "+14125559999" || r.BettyMetadata.Status == "failed" {
			t.Errorf("with letter conversion: %+v", r)
		}
	})
}
