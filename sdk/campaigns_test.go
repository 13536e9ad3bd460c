package betty_test

import (
	"context"
	"errors"
	"testing"

	"github.com/oapi-codegen/nullable"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The campaign helpers against the real server: create, filter and page the list, read,
// assign a number and see the assignment, copy, delete.
func TestCampaignsAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}

	inbound, paused := client.CallDirectionInbound, client.CampaignSettableStatusPaused
	names := []string{"Acme renewals", "Spring sale", "ACME support"}
	created := map[string]client.Campaign{}
	for _, name := range names {
		req := client.CreateCampaignRequest{OrganizationId: team, Name: &name}
		if name == "ACME support" {
			req.Type, req.Status = &inbound, &paused
		}
		cp, err := c.CreateCampaign(ctx, req)
		if err != nil || cp.Name != name {
			t.Fatalf("create %s: %+v %v", name, cp, err)
		}
		created[name] = cp
	}
	if cp := created["Acme renewals"]; cp.Status != client.CampaignStatusDraft || cp.Type != client.CallDirectionOutbound || cp.WorkflowId != nil {
		t.Fatalf("defaults: %+v", cp)
	}
	if _, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{}); !errors.Is(err, betty.ErrValidation) {
		t.Fatalf("no team: %v", err)
	}

	var all []string
	for cp, err := range c.Campaigns(ctx, team, betty.CampaignFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, cp.Name)
	}
	if len(all) != 3 || all[0] != "ACME support" {
		t.Fatalf("all, newest first: %v", all)
	}
	var acme []string
	for cp, err := range c.Campaigns(ctx, team, betty.CampaignFilter{Name: "acme", Status: client.CampaignStatusFilterDraft}) {
		if err != nil {
			t.Fatal(err)
		}
		acme = append(acme, cp.Name)
	}
	if len(acme) != 1 || acme[0] != "Acme renewals" {
		t.Fatalf("draft acme: %v", acme)
	}
	p, err := c.CampaignsPage(ctx, team, betty.CampaignFilter{}, 2, 2)
	if err != nil || len(p.Items) != 1 || p.Meta.Page != 2 || p.Meta.TotalSize != 3 || p.Meta.HasNext {
		t.Fatalf("page 2 of 2: %+v %v", p, err)
	}
	if p, err := c.CampaignsPage(ctx, team, betty.CampaignFilter{}, 9, 2); err != nil || p.Meta.Page != 2 {
		t.Fatalf("a page past the last is clamped: %+v %v", p.Meta, err)
	}

	// A number assigned to the inbound campaign shows in its assignments.
	found, err := c.SearchPhoneNumbers(ctx, client.SearchAvailablePhoneNumbersParams{})
	if err != nil {
		t.Fatal(err)
	}
	bought, err := c.BuyPhoneNumber(ctx, team, found[0].PhoneNumber, "http://betty.test/dashboard")
	if err != nil {
		t.Fatal(err)
	}
	number := bought.PhoneNumber.Id
	support := created["ACME support"]
	renamed := "Support line"
	up, err := c.UpdateCampaign(ctx, support.Id, client.UpdateCampaignRequest{Name: &renamed, PhoneNumberId: nullable.NewNullableWithValue(number)})
	if err != nil || up.Name != renamed || up.PhoneNumberId == nil || *up.PhoneNumberId != number || up.Type != client.CallDirectionInbound {
		t.Fatalf("update: %+v %v", up, err)
	}
	if got, err := c.Campaign(ctx, support.Id); err != nil || got.Name != renamed {
		t.Fatalf("get: %+v %v", got, err)
	}
	a, err := c.CampaignsOfPhoneNumber(ctx, number, client.CallDirectionInbound, 2)
	if err != nil || len(a.Items) != 1 || a.Items[0].CampaignId != support.Id || a.Meta.TotalSize != 1 {
		t.Fatalf("assignments: %+v %v", a, err)
	}
	if a, err := c.CampaignsOfPhoneNumber(ctx, number, client.CallDirectionOutbound, 0); err != nil || len(a.Items) != 0 {
		t.Fatalf("outbound assignments: %+v %v", a, err)
	}
	active := client.CampaignSettableStatusActive
	var apiErr *betty.APIError
	if _, err := c.UpdateCampaign(ctx, support.Id, client.UpdateCampaignRequest{Status: &active}); !errors.As(err, &apiErr) || apiErr.StatusCode != 422 {
		t.Fatalf("active without a workflow: %v", err)
	}

	cp, err := c.DuplicateCampaign(ctx, support.Id)
	if err != nil || cp.Name != "Copy of Support line" || cp.Status != client.CampaignStatusDraft || cp.PhoneNumberId != nil {
		t.Fatalf("duplicate: %+v %v", cp, err)
	}
	if err := c.DeleteCampaign(ctx, cp.Id); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Campaign(ctx, cp.Id); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if err := c.DeleteCampaign(ctx, cp.Id); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("deleting twice: %v", err)
	}
}
