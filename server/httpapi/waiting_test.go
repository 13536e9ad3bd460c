package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// asleepZone is an IANA zone where it is now outside the default calling window (08:00–21:00).
func asleepZone(t *testing.T) string {
	t.Helper()
	for off := -12; off <= 14; off++ {
		name := fmt.Sprintf("Etc/GMT%+d", -off) // Etc/GMT+5 is UTC-5
		loc, err := time.LoadLocation(name)
		if err != nil {
			continue
		}
		if h := time.Now().In(loc).Hour(); h >= 1 && h < 6 {
			return name
		}
	}
	t.Fatal("no zone is asleep now")
	return ""
}

type waitingJSON struct {
	Reason, Message string
	Contacts        int
	Until           *time.Time
	TimeZone        *string
}

// Contacts outside their calling window: the preview warns before the run, and the running
// job's status says why they wait and until when.
func TestRunPreviewAndWaitingAPI(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		wf, _, _ := runnable(t, env, ada, org, 3)
		zone := asleepZone(t)
		env.Exec(t, `UPDATE workflow_contacts SET time_zone = ? WHERE organization_id = ?`, zone, org)

		var pv struct {
			Data struct {
				Contacts, DialableNow int
				FirstCallAt           *time.Time
				Message               *string
				Waiting               []waitingJSON
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/run-preview/"+wf, nil, &pv)
		p := pv.Data
		if p.Contacts != 3 || p.DialableNow != 0 || p.FirstCallAt == nil || !p.FirstCallAt.After(time.Now()) || p.Message == nil ||
			!strings.HasPrefix(*p.Message, "It is ") || !strings.Contains(*p.Message, "in "+zone+": calls wait for the calling window, every day 08:00–21:00. The first call would be placed") {
			t.Fatalf("preview: %+v %v", p, deref(p.Message))
		}
		if len(p.Waiting) != 1 || p.Waiting[0].Reason != "calling-window" || p.Waiting[0].Contacts != 3 || deref(p.Waiting[0].TimeZone) != zone {
			t.Fatalf("preview waiting: %+v", p.Waiting)
		}
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/run-preview/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11", nil)

		var started struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &started)
		var st struct {
			Data []struct {
				Status  string
				Waiting []waitingJSON
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v2/jobs/status?ids="+started.Data.ID, nil, &st)
		ws := st.Data[0].Waiting
		if len(ws) != 1 || ws[0].Reason != "calling-window" || ws[0].Contacts != 3 || ws[0].Until == nil ||
			!strings.HasPrefix(ws[0].Message, "3 contacts wait for their calling window; the next opens ") {
			t.Fatalf("job waiting: %+v", ws)
		}
		// Once the run is ended nobody waits.
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/end-job/"+wf, nil, nil)
		a.want(http.StatusOK, ada.Access, "GET", "/v2/jobs/status?ids="+started.Data.ID, nil, &st)
		if st.Data[0].Status != "cancelled" || len(st.Data[0].Waiting) != 0 {
			t.Fatalf("ended: %+v", st.Data[0])
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
