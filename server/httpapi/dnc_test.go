package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/internal/apitest"
)

type dncJSON struct {
	ID, OrganizationID, PhoneNumber, AddedBy, Source string
	Reason                                           *string
}

func TestDoNotCallListAddImportRemove(t *testing.T) {
	callsEnv(t, func(t *testing.T, env *apitest.Env, svc *calls.Service) {
		api := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		ctx := context.Background()

		var one struct{ Data dncJSON }
		api.want(http.StatusCreated, owner.Access, "POST", "/v1/do-not-call",
			map[string]any{"organizationId": org, "phoneNumber": "(415) 555-0123", "reason": "Asked on the phone"}, &one)
		first := one.Data
		if first.PhoneNumber != "+14155550123" || first.AddedBy != "owner@example.com" || first.Source != "manual" || *first.Reason != "Asked on the phone" {
			t.Fatalf("added: %+v", first)
		}
		api.want(http.StatusOK, owner.Access, "POST", "/v1/do-not-call", map[string]any{"organizationId": org, "phoneNumber": "+1 415 555 0123"}, &one)
		if one.Data.ID != first.ID {
			t.Fatalf("added twice: %+v", one.Data)
		}
		key := env.APIKey(t, org, "developer")
		api.want(http.StatusCreated, key, "POST", "/v1/do-not-call",
			map[string]any{"organizationId": org, "phoneNumber": "020 7183 8750", "defaultRegion": "GB"}, &one)
		if one.Data.PhoneNumber != "+442071838750" || !strings.HasPrefix(one.Data.AddedBy, "test key ") || one.Data.Reason != nil {
			t.Fatalf("added by an API key: %+v", one.Data)
		}
		if p := api.problem(http.StatusBadRequest, owner.Access, "POST", "/v1/do-not-call", map[string]any{"organizationId": org, "phoneNumber": "12345"}); p.Errors[0].Field != "body.phoneNumber" {
			t.Fatalf("an invalid number: %+v", p)
		}

		csv := "Name,Phone Number,Reason\n" +
			"Ann,+1 (202) 555-0101,Moved away\n" +
			"Bob,not a number,\n" +
			"Cid,,\n" +
			"Dee,4155550123,\n" + // listed already
			"Eve,202-555-0102,\n" +
			"Eve again,+12025550102,\n" // repeated in the file
		res := api.env.Do(apitest.Request{Method: "POST", Path: "/v1/do-not-call/import?organizationId=" + org + "&reason=From%20the%20CRM",
			Body: csv, Header: http.Header{"Content-Type": {"text/csv"}}, Token: owner.Access})
		if res.Status != http.StatusOK {
			t.Fatalf("import: %d %s", res.Status, res.Body)
		}
		var imp struct {
			Data struct {
				Added, AlreadyListed int
				Rejected             []struct {
					Row           int
					Value, Reason string
				}
			}
		}
		res.JSON(t, &imp)
		if d := imp.Data; d.Added != 2 || d.AlreadyListed != 2 || len(d.Rejected) != 2 || d.Rejected[0].Row != 2 || d.Rejected[0].Value != "not a number" || d.Rejected[1].Row != 3 {
			t.Fatalf("import: %+v", d)
		}
		noPhone := api.env.Do(apitest.Request{Method: "POST", Path: "/v1/do-not-call/import?organizationId=" + org,
			Body: "name\nAnn\n", Header: http.Header{"Content-Type": {"text/csv"}}, Token: owner.Access})
		if noPhone.Status != http.StatusUnprocessableEntity {
			t.Fatalf("an import without a phone column: %d %s", noPhone.Status, noPhone.Body)
		}

		huge := "phone\n" + strings.Repeat("+14155550123\n", (calls.ImportLimit/13)+1)
		tooBig := api.env.Do(apitest.Request{Method: "POST", Path: "/v1/do-not-call/import?organizationId=" + org,
			Body: huge, Header: http.Header{"Content-Type": {"text/csv"}}, Token: owner.Access})
		if tooBig.Status != http.StatusRequestEntityTooLarge {
			t.Fatalf("an import over 2 MiB: %d %.200s", tooBig.Status, tooBig.Body)
		}
		almost := "phone\n" + strings.Repeat("+14155550123\n", (calls.ImportLimit-100)/13)
		if res := api.env.Do(apitest.Request{Method: "POST", Path: "/v1/do-not-call/import?organizationId=" + org,
			Body: almost, Header: http.Header{"Content-Type": {"text/csv"}}, Token: owner.Access}); res.Status != http.StatusOK {
			t.Fatalf("an import just under 2 MiB: %d %.200s", res.Status, res.Body)
		}

		var list struct {
			Data []dncJSON
			Meta struct{ TotalSize int }
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/do-not-call?organizationId="+org, nil, &list)
		if list.Meta.TotalSize != 4 {
			t.Fatalf("list: %+v", list)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/do-not-call?organizationId="+org+"&search=moved", nil, &list)
		if list.Meta.TotalSize != 1 || list.Data[0].PhoneNumber != "+12025550101" || list.Data[0].Source != "import" {
			t.Fatalf("search by reason: %+v", list)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/do-not-call?organizationId="+org+"&search=555-0102", nil, &list)
		if list.Meta.TotalSize != 1 || *list.Data[0].Reason != "From the CRM" {
			t.Fatalf("search by digits: %+v", list)
		}

		// The dialer's view, and a number a person refused during a call.
		if err := svc.AddFromCall(ctx, org, "+14155550199", "", "Said never to call again"); err != nil {
			t.Fatal(err)
		}
		listed, err := svc.Suppressed(ctx, org, []string{"+14155550123", "+14155550199", "+14155550100"})
		if err != nil || len(listed) != 2 || !listed["+14155550199"] {
			t.Fatalf("suppressed: %v %v", listed, err)
		}

		other := env.SignUp(t, "other@example.com")
		orgB := env.Team(t, other, "Other")
		api.problem(http.StatusNotFound, other.Access, "DELETE", "/v1/do-not-call/"+first.ID+"?organizationId="+orgB, nil)
		api.want(http.StatusOK, owner.Access, "DELETE", "/v1/do-not-call/"+first.ID+"?organizationId="+org, nil, nil)
		api.problem(http.StatusNotFound, owner.Access, "DELETE", "/v1/do-not-call/"+first.ID+"?organizationId="+org, nil)
		if listed, err := svc.Suppressed(ctx, org, []string{"+14155550123"}); err != nil || listed["+14155550123"] {
			t.Fatalf("a removed number: %v %v", listed, err)
		}
	})
}
