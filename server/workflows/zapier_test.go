package workflows

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// A pushed contact goes through the CSV rows' rules: E.164, the stage read the same way, extra
// fields kept as text, an unusable number kept failed.
func TestZapierRowFollowsTheCSVRules(t *testing.T) {
	p := newPhones(DefaultRegion)
	stage := "Sales Lead"
	c, err := zapierRow(ZapierContact{Phone: "(415) 555-0123", FirstName: ptr(" Ada "), LifecycleStage: &stage,
		Extra: map[string]any{"plan": "gold", "seats": float64(3), "vip": true, "empty": nil}}, 0, p)
	if err != nil || c.Phone != "+14155550123" || c.Status != store.ContactPending || *c.FirstName != "Ada" || *c.LifecycleStage != "sales lead" ||
		c.Region == nil || *c.Region != "US" || c.Extra == nil || *c.Extra != `{"plan":"gold","seats":"3","vip":"true"}` {
		t.Fatalf("row: %+v %v", c, err)
	}
	csv := ContactFromRow([]string{"(415) 555-0123", "Ada"}, []column{colPhone, colFirstName}, []string{"phone", "firstName"}, DefaultRegion)
	if csv.Phone != c.Phone || *csv.TimeZone != *c.TimeZone {
		t.Fatalf("the CSV import reads it otherwise: %+v", csv)
	}
	bad, err := zapierRow(ZapierContact{Phone: "call me"}, 0, p)
	if err != nil || bad.Status != store.ContactFailed || bad.Phone != "call me" || bad.LastError == nil {
		t.Fatalf("an unusable number: %+v %v", bad, err)
	}
	_, err = zapierRow(ZapierContact{Phone: "+14155550123", Extra: map[string]any{"nested": map[string]any{"a": 1}}}, 4, p)
	if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || e.Fields[0].Name != "body.contacts[4].nested" {
		t.Fatalf("a nested extra field: %v", err)
	}
	many := map[string]any{}
	for i := range MaxExtraFields + 1 {
		many[fmt.Sprint("f", i)] = "x"
	}
	if _, err := zapierRow(ZapierContact{Phone: "+14155550123", Extra: many}, 0, p); !errs.Is(err, errs.Invalid) {
		t.Fatalf("too many extra fields: %v", err)
	}
	// A CSV row's bounds: 1000 characters a field, 16 KiB in all (the 17th field, in name order, is one too many).
	long := map[string]any{"note": strings.Repeat("x", MaxExtraValue+1)}
	if _, err := zapierRow(ZapierContact{Phone: "+14155550123", Extra: long}, 0, p); !errs.Is(err, errs.Invalid) {
		t.Fatalf("a field too long: %v", err)
	}
	heavy := map[string]any{}
	for i := range 17 {
		heavy[fmt.Sprint("f", i)] = strings.Repeat("x", MaxExtraValue)
	}
	_, err = zapierRow(ZapierContact{Phone: "+14155550123", Extra: heavy}, 2, p)
	if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || e.Fields[0].Name != "body.contacts[2].f9" || !strings.Contains(e.Fields[0].Message, "16 KiB") {
		t.Fatalf("17 KiB of extra fields: %v", err)
	}
}

// A known number gets the fields sent; the others and its call state stay.
func TestMergeContact(t *testing.T) {
	known := store.Contact{ID: "c1", Phone: "+14155550123", FirstName: ptr("Ada"), Email: ptr("ada@example.com"), Status: store.ContactFailed,
		Attempts: 2, Extra: ptr(`{"plan":"gold","seats":"3"}`)}
	sent := store.Contact{Phone: "+14155550123", LastName: ptr("Lovelace"), Extra: ptr(`{"plan":"platinum"}`), Status: store.ContactPending}
	m := mergeContact(known, sent)
	var extra map[string]string
	_ = json.Unmarshal([]byte(*m.Extra), &extra)
	if m.ID != "c1" || *m.FirstName != "Ada" || *m.LastName != "Lovelace" || *m.Email != "ada@example.com" || m.Status != store.ContactFailed ||
		m.Attempts != 2 || extra["plan"] != "platinum" || extra["seats"] != "3" {
		t.Fatalf("merged: %+v %v", m, extra)
	}
}
