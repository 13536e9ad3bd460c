package workflows

import (
	"testing"

	"github.com/bettyhq/betty/server/store"
)

func TestContactFromRow(t *testing.T) {
	cols := []column{colPhone, colFirstName, colStage, colExtra}
	names := []string{"Phone", "First", "Stage", "Plan"}
	c := ContactFromRow([]string{" (415) 555-0123 ", "Ada", "Marketing_Lead", "gold"}, cols, names, "US")
	if c.Phone != "+14155550123" || c.Status != store.ContactPending || *c.Region != "US" || c.TimeZone == nil ||
		*c.TimeZone != "America/Los_Angeles" || *c.LifecycleStage != "marketing lead" || *c.Extra != `{"Plan":"gold"}` {
		t.Errorf("%+v", c)
	}
	c = ContactFromRow([]string{"020 7183 8750", "", "whale", ""}, cols, names, "GB")
	if c.Phone != "+442071838750" || *c.Region != "GB" || *c.LifecycleStage != "other" || c.FirstName != nil || c.Extra != nil {
		t.Errorf("%+v", c)
	}
	c = ContactFromRow([]string{"12345"}, cols, names, "US")
	if c.Status != store.ContactFailed || c.Phone != "12345" || *c.LastError != "Invalid phone number" {
		t.Errorf("%+v", c)
	}
	c = ContactFromRow([]string{""}, cols, names, "US")
	if c.Status != store.ContactFailed || *c.LastError != "No phone number" {
		t.Errorf("%+v", c)
	}
}
