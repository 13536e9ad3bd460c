package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// The guard authorizes an operation on a resource before its handler runs: a resource of a
// team the caller is not in, or one whose organisation is not the organizationId the request
// also names, is answered like one that does not exist.
func TestGuardChecksTheOrganizationARequestNames(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		acme := env.Team(t, ada, "Acme")
		other := env.Team(t, ada, "Other")
		kb := createKB(t, a, ada, acme, map[string]any{"name": "Prices"})
		path := "/v1/campaigns/knowledge-base/update/" + kb.ID
		if p := a.problem(http.StatusNotFound, ada.Access, "PUT", path, map[string]any{"organizationId": other, "name": "X"}); p.Detail != "Knowledge base not found." {
			t.Errorf("another of her teams named: %s", p.Detail)
		}
		a.want(http.StatusOK, ada.Access, "PUT", path, map[string]any{"organizationId": acme, "name": "Renamed"}, nil)
		a.want(http.StatusOK, ada.Access, "PUT", path, map[string]any{"name": "Renamed again"}, nil)
		faq := map[string]any{"knowledgeBaseId": kb.ID, "organizationId": other, "name": "FAQ", "faq": "Q? A."}
		if p := a.problem(http.StatusNotFound, ada.Access, "POST", "/v1/campaigns/knowledge-base/faq", faq); p.Detail != "Knowledge base not found." {
			t.Errorf("a FAQ for another of her teams: %s", p.Detail)
		}
	})
}

// A list of job ids is authorized id by id: each team the caller stands in among the jobs'
// owners is granted, the others' jobs are left out, and none at all is a 404.
func TestGuardGrantsEachTeamOfAJobList(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		acme := env.Team(t, ada, "Acme")
		globex := env.Team(t, ada, "Globex")
		bob := env.SignUp(t, "bob@example.com")
		a.join(ada, globex, bob, "readonly")
		bobKey := env.APIKey(t, globex, "readonly")
		cy := env.SignUp(t, "cy@example.com")
		_, acmeJob, _ := runnable(t, env, ada, acme, 1)
		_, globexJob, _ := runnable(t, env, ada, globex, 1)
		ids := "/v2/jobs/status?ids=" + acmeJob + "," + globexJob
		for who, token := range map[string]string{"Ada, in both teams": ada.Access, "Bob, in one": bob.Access, "Globex's key": bobKey} {
			var st struct{ Data []jobJSON }
			a.want(http.StatusOK, token, "GET", ids, nil, &st)
			want := []string{globexJob}
			if token == ada.Access {
				want = []string{acmeJob, globexJob}
			}
			if len(st.Data) != len(want) {
				t.Fatalf("%s: %+v", who, st.Data)
			}
			for i, j := range st.Data {
				if j.ID != want[i] {
					t.Errorf("%s: job %d is %s, want %s", who, i, j.ID, want[i])
				}
			}
		}
		if p := a.problem(http.StatusNotFound, cy.Access, "GET", ids, nil); p.Detail != "Job not found." {
			t.Errorf("a caller in neither team: %s", p.Detail)
		}
	})
}

// An operation refusing API keys refuses them before any resource is looked up: an API key
// learns nothing of which payment intents exist.
func TestGuardRefusesKeysBeforeLookingUpResources(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		acme := env.Team(t, ada, "Acme")
		key := env.APIKey(t, acme, "admin")
		theirs := paymentIntentFixture(t, env, ada, acme)["dbPaymentIntentId"]
		for _, id := range []string{theirs, "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"} {
			p := a.problem(http.StatusForbidden, key, "PATCH", "/v1/payment/intent/status", map[string]any{"dbPaymentIntentId": id, "status": "succeeded"})
			if p.Detail != "This operation needs a signed-in user; API keys cannot use it." {
				t.Errorf("intent %s: %s", id, p.Detail)
			}
		}
	})
}
