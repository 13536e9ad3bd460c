package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
)

func init() {
	for _, op := range []string{"getWorkflowProgress", "previewWorkflowRun", "getWorkflowRunActivity", "endWorkflowJob", "listWorkflowHistory", "listJobStatuses"} {
		resourceFixtures[op] = runFixture
	}
}

type activityJSON struct {
	Data struct {
		JobID      *string `json:"jobId"`
		InProgress bool
		IsTest     bool
		Steps      []struct {
			NodeID      string `json:"nodeId"`
			Now, Passed int
		}
		Calls []struct {
			CallLogID     string  `json:"callLogId"`
			CurrentNodeID *string `json:"currentNodeId"`
			Path          []string
		}
	}
}

type jobJSON struct {
	ID, Type, WorkflowID, OrganizationID, Status, TriggeredBy string
	IsTest                                                    bool
	FinishedAt                                                *time.Time
	Error                                                     *string
	Progress                                                  struct {
		Total, Completed, Failed, Pending, Percent, Queued, Dialling, InCall, Suppressed int
	}
}

// runnable makes, in org, an outbound workflow ready to run: an agent, a number, credits, a
// graph that validates, and a CSV of contacts read in full. It answers the workflow id and the
// contacts import's job id.
func runnable(t *testing.T, env *apitest.Env, owner apitest.Caller, org string, contacts int) (wf, importJob, phone string) {
	t.Helper()
	a := newTeamAPI(t, env)
	env.Exec(t, `UPDATE organizations SET credits_balance = 100 WHERE id = ?`, org)
	ag := createAgent(t, a, owner, org, map[string]any{})
	phone = env.PhoneNumber(t, org, fmt.Sprintf("+1415777%04d", time.Now().UnixNano()%10000))
	var w struct{ Data workflowJSON }
	a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
		map[string]any{"organizationId": org, "name": "Calls", "agentId": ag.ID, "workflowType": "outbound"}, &w)
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": w.Data.ID, "phoneNumberId": phone}, nil)
	s := fmt.Sprint(time.Now().UnixNano())
	nodeID := "contacts-" + s
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID,
		"nodes": []any{node(nodeID, "contacts", nil), node("start-"+s, "start", nil),
			node("hello-"+s, "agent", map[string]any{"instruction": "Greet {{firstName}}."}), node("end-"+s, "end-call", nil)},
		"edges": []any{edge("e1-"+s, "start-"+s, "hello-"+s), edge("e2-"+s, "hello-"+s, "end-"+s)}}, nil)
	var csv strings.Builder
	csv.WriteString("phone,firstName\n")
	for i := 0; i < contacts; i++ {
		fmt.Fprintf(&csv, "+1415555%04d,Ann%d\n", i, i)
	}
	_, link := finishedUpload(t, env, owner.Access, org, "contacts-csv", "list.csv", []byte(csv.String()))
	var src struct{ Data struct{ JobID *string } }
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": w.Data.ID,
		"nodeId": nodeID, "source": "csv", "fileUrl": link}, &src)
	if src.Data.JobID == nil {
		t.Fatal("a CSV source names no contacts-import job")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var st struct{ Data []jobJSON }
		a.want(http.StatusOK, owner.Access, "GET", "/v2/jobs/status?type=contacts-import&ids="+*src.Data.JobID, nil, &st)
		if len(st.Data) == 1 && st.Data[0].Status == "success" {
			if st.Data[0].Progress.Completed != contacts || st.Data[0].Type != "contacts-import" {
				t.Fatalf("import: %+v", st.Data[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the contacts import did not finish: %+v", st.Data)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return w.Data.ID, *src.Data.JobID, phone
}

// runFixture starts a run of a workflow of team A.
func runFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	t.Helper()
	wf, _, _ := runnable(t, env, owner, org, 2)
	var j struct{ Data jobJSON }
	newTeamAPI(t, env).want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &j)
	return map[string]string{"id": wf, "ids": j.Data.ID}
}

func TestRunWorkflowAPI(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		wf, importJob, phone := runnable(t, env, ada, org, 3)

		// Nothing ran yet: progress says so with data null; an unknown workflow is still 404.
		if res := a.do(ada.Access, "POST", "/v1/workflow/progress/"+wf, nil); res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"data":null`) {
			t.Fatalf("progress before any run: %d %s", res.Status, res.Body)
		}
		a.problem(http.StatusNotFound, ada.Access, "POST", "/v1/workflow/progress/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11", nil)
		var act activityJSON
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/run-activity/"+wf, nil, &act)
		if act.Data.JobID != nil || act.Data.InProgress || len(act.Data.Steps) != 0 || len(act.Data.Calls) != 0 {
			t.Fatalf("activity before any run: %+v", act.Data)
		}
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/run-activity/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11", nil)
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/workflow/end-job/"+wf, nil)

		var started struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org, "triggeredBy": "campaign bot"}, &started)
		j := started.Data
		if j.Type != "workflow-run" || j.Status != "in-progress" || j.Progress.Total != 3 || j.TriggeredBy != "campaign bot" || j.IsTest || j.WorkflowID != wf {
			t.Fatalf("started: %+v", j)
		}
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org})
		if !strings.Contains(p.Detail, "running already") {
			t.Fatalf("a second run: %+v", p)
		}
		// Deleting what the run uses is refused.
		for _, del := range []string{"/v1/workflow/" + wf, "/v1/phone/number/" + phone + "?organizationId=" + org} {
			if res := a.do(ada.Access, "DELETE", del, nil); res.Status != http.StatusConflict || !strings.Contains(string(res.Body), "run in progress") {
				t.Fatalf("DELETE %s during a run: %d %s", del, res.Status, res.Body)
			}
		}
		var prog struct{ Data jobJSON }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/progress/"+wf, nil, &prog)
		if prog.Data.ID != j.ID {
			t.Fatalf("progress: %+v", prog.Data)
		}
		var st struct{ Data []jobJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v2/jobs/status?ids="+url.QueryEscape(j.ID+",unknown,"+importJob+","+j.ID), nil, &st)
		if len(st.Data) != 2 || st.Data[0].ID != j.ID || st.Data[1].ID != importJob {
			t.Fatalf("statuses: %+v", st.Data)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v2/jobs/status?type=workflow-run&ids="+importJob+","+j.ID, nil, &st)
		if len(st.Data) != 1 || st.Data[0].ID != j.ID {
			t.Fatalf("statuses of one type: %+v", st.Data)
		}
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v2/jobs/status?ids=nothing-here", nil)

		var ended struct{ Data jobJSON }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/end-job/"+wf, nil, &ended)
		if ended.Data.Status != "cancelled" || ended.Data.FinishedAt == nil {
			t.Fatalf("ended: %+v", ended.Data)
		}
		var test struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/test-run/"+wf, map[string]any{"organizationId": org, "workflowId": wf,
			"customerDescription": "A busy chef", "destinationPhoneNumber": "+14155550100", "isTestWorkflow": true,
			"nameOrEmail": "Ada", "triggeredBy": "ada@example.com"}, &test)
		if !test.Data.IsTest || test.Data.Progress.Total != 1 {
			t.Fatalf("test run: %+v", test.Data)
		}
		// The simulator places the call, the engine holds the conversation, the call log and
		// its transcript are written: the whole chain as served.
		deadline := time.Now().Add(60 * time.Second)
		for {
			a.want(http.StatusOK, ada.Access, "GET", "/v2/jobs/status?ids="+test.Data.ID, nil, &st)
			if st.Data[0].Status != "in-progress" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the test run did not finish: %+v", st.Data[0])
			}
			time.Sleep(100 * time.Millisecond)
		}
		if st.Data[0].Status != "success" || st.Data[0].Progress.Completed != 1 {
			t.Fatalf("test run finished: %+v", st.Data[0])
		}
		var logs struct {
			Data []struct {
				ID, Status, To string
				HasTranscript  bool
				JobID          *string  `json:"jobId"`
				CurrentNodeID  *string  `json:"currentNodeId"`
				Path           []string `json:"path"`
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/logs?organizationId="+org, nil, &logs)
		found := false
		for _, l := range logs.Data {
			if l.To == "+14155550100" {
				found = true
				if l.Status != "completed" || !l.HasTranscript || l.JobID != nil {
					t.Fatalf("the test call's log: %+v", l)
				}
				// The path it took through the flow is kept; it ended, so it stands nowhere.
				if len(l.Path) != 3 || !strings.HasPrefix(l.Path[0], "start-") || !strings.HasPrefix(l.Path[1], "hello-") ||
					!strings.HasPrefix(l.Path[2], "end-") || l.CurrentNodeID != nil {
					t.Fatalf("the test call's path: %q, on %v", l.Path, l.CurrentNodeID)
				}
				// The run's activity counts it on every step it passed, none on the line; a test
				// run's call is listed to its end, with the path it took.
				a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/run-activity/"+wf, nil, &act)
				if act.Data.JobID == nil || *act.Data.JobID != test.Data.ID || !act.Data.IsTest || act.Data.InProgress ||
					len(act.Data.Calls) != 1 || act.Data.Calls[0].CallLogID != l.ID || !slices.Equal(act.Data.Calls[0].Path, l.Path) ||
					act.Data.Calls[0].CurrentNodeID != nil || len(act.Data.Steps) != 3 {
					t.Fatalf("the test run's activity: %+v", act.Data)
				}
				for _, c := range act.Data.Steps {
					if c.Now != 0 || c.Passed != 1 || !slices.Contains(l.Path, c.NodeID) {
						t.Fatalf("the test run's step counts: %+v", act.Data.Steps)
					}
				}
			}
		}
		if !found {
			t.Fatalf("no call log of the test call: %+v", logs.Data)
		}
		a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/workflow/test-run/"+wf, map[string]any{"organizationId": org, "workflowId": "other",
			"customerDescription": "x", "destinationPhoneNumber": "+14155550100", "isTestWorkflow": true, "nameOrEmail": "Ada", "triggeredBy": "ada"})

		var hist struct {
			Data []jobJSON
			Meta struct{ TotalSize int }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/history/"+wf, nil, &hist)
		if hist.Meta.TotalSize != 2 || hist.Data[0].ID != test.Data.ID || hist.Data[1].ID != j.ID {
			t.Fatalf("history: %+v", hist)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/history/"+wf+"?sortBy=status&sortOrder=asc&page=9", nil, &hist)
		if hist.Data[0].Status != "cancelled" {
			t.Fatalf("history by status: %+v", hist.Data)
		}
		// Credits: credits_test.go (free on the simulator, limit_reached through a real carrier).
	})
}

func TestDialerLimitByASiteAdmin(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		admin := env.SignUp(t, "root@example.com")
		if _, err := env.DB.SetSiteAdmin(context.Background(), admin.Email, true); err != nil {
			t.Fatal(err)
		}
		a.problem(http.StatusForbidden, ada.Access, "POST", "/v1/admin/organization/dialer-limit?maxConcurrentCalls=50&organizationId="+org, nil)
		a.want(http.StatusOK, admin.Access, "POST", "/v1/admin/organization/dialer-limit?maxConcurrentCalls=50&organizationId="+org, nil, nil)
		if n, err := env.DB.DialerLimit(context.Background(), org); err != nil || n != 50 {
			t.Fatalf("override: %d %v", n, err)
		}
		a.want(http.StatusOK, admin.Access, "POST", "/v1/admin/organization/dialer-limit?maxConcurrentCalls=0&organizationId="+org, nil, nil)
		if _, err := env.DB.DialerLimit(context.Background(), org); err == nil {
			t.Fatal("the override stayed after 0")
		}
		a.problem(http.StatusNotFound, admin.Access, "POST", "/v1/admin/organization/dialer-limit?maxConcurrentCalls=5&organizationId=nope", nil)
	})
}
