package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/runs"
)

type inboxJSON struct {
	ID, OrganizationID, Title, Summary, Visibility string
	Priority                                       int
	Deleted                                        bool
	DeletedAt                                      *time.Time
	CallLogID, CallControlID                       *string
	UpdatedAt                                      time.Time
}

func TestInboxListSearchViewsUpdateAndDelete(t *testing.T) {
	callsEnv(t, func(t *testing.T, env *apitest.Env, svc *calls.Service) {
		api := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		// Every finished call files one item; a call still under way files none.
		placeCall(t, svc, org, "+14155550101", "v3:a", runs.CallClosed{Status: "completed", Title: "Customer asked to reschedule delivery",
			Summary: "Wants Tuesday.", Outcome: "completed", Priority: 5})
		placeCall(t, svc, org, "+14155550102", "v3:b", runs.CallClosed{Status: "completed", Title: "Voicemail",
			Summary: "Left a message about the delivery window.", Outcome: "voicemail", Priority: 1})
		placeCall(t, svc, org, "+14155550103", "v3:c", runs.CallClosed{Status: "no-answer"})
		placeCall(t, svc, org, "+14155550104", "v3:d", runs.CallClosed{})

		var list struct {
			Data []inboxJSON
			Meta struct{ TotalSize int }
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox?organizationId="+org, nil, &list)
		if list.Meta.TotalSize != 3 || list.Data[0].Title != "Call with +14155550103: no-answer" || list.Data[0].Visibility != "private" {
			t.Fatalf("inbox: %+v", list)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox?organizationId="+org+"&sortBy=priority&ascending=true&sizePerPage=2", nil, &list)
		if len(list.Data) != 2 || list.Data[0].Priority != 0 || list.Data[1].Priority != 1 || list.Meta.TotalSize != 3 {
			t.Fatalf("by priority: %+v", list)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox/search?organizationId="+org+"&query=DELIV", nil, &list)
		if list.Meta.TotalSize != 2 || list.Data[0].Title != "Voicemail" {
			t.Fatalf("search deliv: %+v", list)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox/search?organizationId="+org+"&query=deliv%20resched&sortBy=title", nil, &list)
		if list.Meta.TotalSize != 1 || list.Data[0].Priority != 5 {
			t.Fatalf("search deliv resched: %+v", list)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox/search?organizationId="+org+"&query=%22%27*", nil, &list)
		if list.Meta.TotalSize != 0 {
			t.Fatalf("search of punctuation: %+v", list)
		}
		api.problem(http.StatusBadRequest, owner.Access, "GET", "/v1/inbox?organizationId="+org+"&sortBy=summary", nil)

		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox/search?organizationId="+org+"&query=resched", nil, &list)
		item := list.Data[0]
		if item.CallLogID == nil || item.CallControlID == nil || *item.CallControlID != "v3:a" {
			t.Fatalf("the item's call: %+v", item)
		}
		var one struct{ Data inboxJSON }
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox/private/"+item.ID+"?organizationId="+org, nil, &one)
		public := "/v1/inbox/public/" + item.ID + "?organizationId=" + org
		api.problem(http.StatusNotFound, "", "GET", public, nil) // private

		// §5: an update with neither a priority nor a visibility is skipped.
		api.want(http.StatusOK, owner.Access, "POST", "/v1/inbox/item/"+item.ID, map[string]any{"organizationId": org, "priority": nil}, &one)
		if !one.Data.UpdatedAt.Equal(item.UpdatedAt) || one.Data.Priority != 5 {
			t.Fatalf("a skipped update: %+v", one.Data)
		}
		api.problem(http.StatusBadRequest, owner.Access, "POST", "/v1/inbox/item/"+item.ID, map[string]any{"organizationId": org, "priority": -1})
		api.problem(http.StatusBadRequest, owner.Access, "POST", "/v1/inbox/item/"+item.ID, map[string]any{"organizationId": org, "priority": 1.5})
		api.want(http.StatusOK, owner.Access, "POST", "/v1/inbox/item/"+item.ID, map[string]any{"organizationId": org, "visibility": "public", "priority": 9}, &one)
		if one.Data.Visibility != "public" || one.Data.Priority != 9 || !one.Data.UpdatedAt.After(item.UpdatedAt) {
			t.Fatalf("updated: %+v", one.Data)
		}
		api.want(http.StatusOK, "", "GET", public, nil, &one)
		if one.Data.ID != item.ID {
			t.Fatalf("public view: %+v", one.Data)
		}
		other := env.SignUp(t, "other@example.com")
		orgB := env.Team(t, other, "Other")
		api.problem(http.StatusNotFound, "", "GET", "/v1/inbox/public/"+item.ID+"?organizationId="+orgB, nil)
		api.problem(http.StatusNotFound, other.Access, "GET", "/v1/inbox/private/"+item.ID+"?organizationId="+orgB, nil)
		api.problem(http.StatusNotFound, other.Access, "POST", "/v1/inbox/item/"+item.ID, map[string]any{"organizationId": orgB, "priority": 1})
		api.problem(http.StatusNotFound, other.Access, "DELETE", "/v1/inbox/item/"+item.ID+"?organizationId="+orgB, nil)

		api.want(http.StatusOK, owner.Access, "DELETE", "/v1/inbox/item/"+item.ID+"?organizationId="+org, nil, nil)
		api.problem(http.StatusNotFound, owner.Access, "DELETE", "/v1/inbox/item/"+item.ID+"?organizationId="+org, nil)
		api.problem(http.StatusNotFound, "", "GET", public, nil)
		api.problem(http.StatusNotFound, owner.Access, "POST", "/v1/inbox/item/"+item.ID, map[string]any{"organizationId": org})
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox/private/"+item.ID+"?organizationId="+org, nil, &one)
		if !one.Data.Deleted || one.Data.DeletedAt == nil {
			t.Fatalf("deleted item: %+v", one.Data)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox?organizationId="+org, nil, &list)
		if list.Meta.TotalSize != 2 {
			t.Fatalf("inbox after the delete: %+v", list)
		}
	})
}
