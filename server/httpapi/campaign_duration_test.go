package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// A campaign's maxCallDurationMinutes: 30 by default, kept as set, 1 to 240 (out of range
// answers 400 naming the field, nothing changed), and campaigns stored before the setting
// existed read 30.
func TestCampaignMaxCallDuration(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		type settings struct{ MaxCallDurationMinutes, MaxConcurrentCalls int }
		type campaign struct {
			ID       string
			Settings settings
		}
		var created struct{ Data campaign }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/campaigns/create", map[string]any{"organizationId": org}, &created)
		c := created.Data
		if c.Settings.MaxCallDurationMinutes != 30 {
			t.Fatalf("default: %+v", c.Settings)
		}
		var updated struct{ Data campaign }
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"settings": map[string]any{"maxCallDurationMinutes": 90}}, &updated)
		if updated.Data.Settings.MaxCallDurationMinutes != 90 {
			t.Fatalf("updated: %+v", updated.Data.Settings)
		}
		for _, n := range []int{0, 241, -5} {
			p := a.problem(http.StatusBadRequest, ada.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"settings": map[string]any{"maxCallDurationMinutes": n}})
			if len(p.Errors) != 1 || p.Errors[0].Field != "body.settings.maxCallDurationMinutes" {
				t.Errorf("%d: %+v", n, p)
			}
		}
		var got struct{ Data campaign }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/"+c.ID, nil, &got)
		if got.Data.Settings.MaxCallDurationMinutes != 90 {
			t.Fatalf("after refused updates: %+v", got.Data.Settings)
		}
		// Settings written before the field existed.
		env.Exec(t, `UPDATE campaigns SET settings = ? WHERE id = ?`,
			`{"maxConcurrentCalls":7,"callWindow":{"start":"09:00","end":"17:00","days":["mon"]},"timezone":"UTC","retryAttempts":2,`+
				`"retryDelayMinutes":60,"voicemailAction":"hang-up","voicemailMessage":null,"recordCalls":true}`, c.ID)
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/"+c.ID, nil, &got)
		if got.Data.Settings != (settings{MaxCallDurationMinutes: 30, MaxConcurrentCalls: 7}) {
			t.Fatalf("an older row: %+v", got.Data.Settings)
		}
	})
}
