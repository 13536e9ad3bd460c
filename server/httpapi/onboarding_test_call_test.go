package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// "Make a test call" ticks once the team tries a workflow with a test run (issue 21: it never
// ticked, even after test runs).
func TestATestRunTicksMakeATestCall(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		wf, _, _ := runnable(t, env, ada, org, 1)
		var onboarding struct {
			Data struct {
				Items []struct {
					Key    string
					Done   bool
					DoneAt *time.Time
				}
			}
		}
		testCall := func() (bool, *time.Time) {
			a.want(http.StatusOK, ada.Access, "GET", "/v1/team/onboarding/"+org, nil, &onboarding)
			for _, it := range onboarding.Data.Items {
				if it.Key == "test-call-made" {
					return it.Done, it.DoneAt
				}
			}
			t.Fatal("no test-call-made step")
			return false, nil
		}
		if done, _ := testCall(); done {
			t.Fatal("ticked before any test run")
		}
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/test-run/"+wf, map[string]any{"organizationId": org, "workflowId": wf,
			"customerDescription": "A busy chef", "destinationPhoneNumber": "+14155550100", "isTestWorkflow": true,
			"nameOrEmail": "Ada", "triggeredBy": "ada@example.com"}, nil)
		if done, at := testCall(); !done || at == nil {
			t.Fatal("a test run did not tick Make a test call")
		}
	})
}
