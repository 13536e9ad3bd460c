package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/internal/apitest"
)

// resourceFixtures make, for an operation whose organisation comes from a resource, that
// resource in team A and return the request values naming it. Features add theirs as they
// are built; TestTenantIsolation fails for a built resource operation without one.
var resourceFixtures = map[string]func(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string{
	"createUpload": creationFixture, "getUploadOffset": uploadFixture, "appendUploadChunk": uploadFixture,
	"deleteUpload": uploadFixture, "getUpload": uploadFixture, "downloadFile": fileFixture,
	// Its team comes from the query; the fixture gives the fuzz test a number to release.
	"deletePhoneNumber":   phoneNumberFixture,
	"updateKnowledgeBase": knowledgeBaseFixture, "createKnowledgeFile": knowledgeBaseFixture,
	"createKnowledgeFaq": knowledgeBaseFixture, "updateKnowledgeFaq": knowledgeFAQFixture,
	// Their team comes from the query or body; the fixtures give the fuzz test real rows.
	"deleteKnowledgeBase": knowledgeBaseFixture, "listKnowledgeFiles": knowledgeBaseFixture,
	"getKnowledgeFile": knowledgeFAQFixture, "deleteKnowledgeFile": knowledgeFAQFixture,
	"activateKnowledgeBase": knowledgeBaseFixture, "deactivateKnowledgeBase": knowledgeBaseFixture,
	"updatePaymentIntentStatus": paymentIntentFixture,
}

// Generated from the contract and the policy: for every team operation, a member (and an API
// key) of team B using team A's ids is refused with 404, and nothing of team A is answered.
func TestTenantIsolation(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		ops, err := httpapi.LoadOperations()
		if err != nil {
			t.Fatal(err)
		}
		ownerA := env.SignUp(t, "owner-a@example.com")
		orgA := env.Team(t, ownerA, "Team A")
		ownerB := env.SignUp(t, "owner-b@example.com")
		orgB := env.Team(t, ownerB, "Team B")
		keyB := env.APIKey(t, orgB, "developer")
		checked := 0
		for _, op := range ops.All() {
			rule := auth.Policy[op.ID]
			if rule.Access != auth.Team || rule.Org == auth.FromKey {
				continue
			}
			values := map[string]string{"organizationId": orgA, "teamId": orgA}
			if rule.Org == auth.FromPathID || rule.Org == auth.FromBodyID {
				values["id"] = orgA
			}
			if rule.Org == auth.FromResource {
				fixture, ok := resourceFixtures[op.ID]
				if !ok {
					// Not built yet (501) needs no fixture; a built one must have one.
					req := apitest.SampleRequestWith(op, map[string]string{"organizationId": orgB})
					req.Token = ownerB.Access
					if res := env.Do(req); res.Status != http.StatusNotImplemented {
						t.Errorf("%s is built but has no isolation fixture in resourceFixtures", op.ID)
					}
					continue
				}
				for k, v := range fixture(t, env, ownerA, orgA) {
					values[k] = v
				}
			}
			for who, token := range map[string]string{"member of B": ownerB.Access, "API key of B": keyB} {
				if rule.UsersOnly && who == "API key of B" {
					continue
				}
				req := apitest.SampleRequestWith(op, values)
				req.Token = token
				res := env.Do(req)
				if res.Status != http.StatusNotFound {
					t.Errorf("%s by the %s with team A's ids: %d %s", op.ID, who, res.Status, res.Body)
				}
				// A resource whose ids are unique only in their container (a node in its
				// workflow), asked with team A's container named too.
				if c := rule.Resource.Container; c.In == auth.InQuery && values[c.Name] != "" {
					sep := "?"
					if strings.Contains(req.Path, "?") {
						sep = "&"
					}
					req.Path += sep + url.Values{c.Name: {values[c.Name]}}.Encode()
					if res := env.Do(req); res.Status != http.StatusNotFound {
						t.Errorf("%s by the %s with team A's ids and %s: %d %s", op.ID, who, c, res.Status, res.Body)
					}
				}
			}
			checked++
		}
		t.Logf("%d team operations checked", checked)
	})
}
