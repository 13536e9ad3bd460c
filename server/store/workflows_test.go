package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestWorkflows(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		c := store.Campaign{OrganizationID: org.ID, Name: "Spring", Direction: store.Outbound, Status: store.CampaignActive,
			Priority: "medium", Purpose: "Other", Settings: "{}"}
		if err := db.CreateCampaign(ctx, &c); err != nil {
			t.Fatal(err)
		}
		w := store.Workflow{OrganizationID: org.ID, CampaignID: &c.ID, Name: "Renewal Call", Type: store.Outbound,
			Graph: `{"nodes":[],"edges":[]}`, PromptStatus: store.PromptInProgress}
		if err := db.CreateWorkflow(ctx, &w, []store.WorkflowNode{{ID: "n-1", Type: "start"}}); err != nil {
			t.Fatal(err)
		}
		if w.Version != 1 {
			t.Fatalf("version %d", w.Version)
		}
		// Node ids are unique in their workflow only: another team's workflow, or another of the
		// same team, may use the same ids, and a node is found among the teams asked.
		dup := store.Workflow{OrganizationID: other.ID, Name: "Other", Type: store.Inbound, Graph: `{}`, PromptStatus: store.PromptInProgress}
		twin := store.Workflow{OrganizationID: org.ID, Name: "Twin", Type: store.Inbound, Graph: `{}`, PromptStatus: store.PromptInProgress}
		for _, w := range []*store.Workflow{&dup, &twin} {
			if err := db.InTx(ctx, func(ctx context.Context) error {
				return db.CreateWorkflow(ctx, w, []store.WorkflowNode{{ID: "n-1", Type: "start"}})
			}); err != nil {
				t.Fatalf("a node id another workflow uses: %v", err)
			}
		}
		err := db.InTx(ctx, func(ctx context.Context) error {
			return db.CreateWorkflow(ctx, &store.Workflow{OrganizationID: org.ID, Name: "Twice", Type: store.Inbound, Graph: `{}`,
				PromptStatus: store.PromptInProgress}, []store.WorkflowNode{{ID: "n-9", Type: "start"}, {ID: "n-9", Type: "end-call"}})
		})
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a node id twice in one workflow: %v", err)
		}
		owners, err := db.WorkflowNodeOwners(ctx, []string{org.ID}, "n-1", "")
		if err != nil || len(owners) != 2 || owners[0].OrganizationID != org.ID || owners[1].OrganizationID != org.ID {
			t.Fatalf("node owners in the team: %+v %v", owners, err)
		}
		owners, err = db.WorkflowNodeOwners(ctx, []string{org.ID, other.ID}, "n-1", w.ID)
		if err != nil || len(owners) != 1 || owners[0].WorkflowID != w.ID {
			t.Fatalf("node owners in one workflow: %+v %v", owners, err)
		}
		if owners, err := db.WorkflowNodeOwners(ctx, []string{other.ID}, "n-1", w.ID); err != nil || len(owners) != 0 {
			t.Fatalf("another team's workflow: %+v %v", owners, err)
		}
		// Another team's id finds nothing.
		if _, err := db.WorkflowByID(ctx, other.ID, w.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's workflow: %v", err)
		}
		// The version guard.
		var v int
		err = db.InTx(ctx, func(ctx context.Context) error {
			v, err = db.SaveWorkflowGraph(ctx, org.ID, w.ID, `{"nodes":[1],"edges":[]}`, []store.WorkflowNode{{ID: "n-2", Type: "agent"}}, 1)
			return err
		})
		if err != nil || v != 2 {
			t.Fatalf("save over 1: %d %v", v, err)
		}
		err = db.InTx(ctx, func(ctx context.Context) error {
			v, err = db.SaveWorkflowGraph(ctx, org.ID, w.ID, `{}`, nil, 1)
			return err
		})
		if !errors.Is(err, store.ErrStaleVersion) || v != 2 {
			t.Fatalf("stale save: %d %v", v, err)
		}
		if owners, err := db.WorkflowNodeOwners(ctx, []string{org.ID}, "n-1", w.ID); err != nil || len(owners) != 0 {
			t.Fatalf("replaced node still there: %+v %v", owners, err)
		}
		// A compilation of an old version, or of an older name or agent, is not recorded.
		text := "prompt"
		cur, err := db.WorkflowByID(ctx, org.ID, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		stale := cur
		stale.Version = 1
		renamed := cur
		renamed.Name = "Before the rename"
		otherAgent := cur
		otherAgent.AgentID = &c.ID
		for what, old := range map[string]store.Workflow{"version": stale, "name": renamed, "agent": otherAgent} {
			if ok, err := db.FinishWorkflowPrompt(ctx, old, store.PromptSuccess, &text); err != nil || ok {
				t.Fatalf("compiled from an old %s: %v %v", what, ok, err)
			}
		}
		if ok, err := db.FinishWorkflowPrompt(ctx, cur, store.PromptSuccess, &text); err != nil || !ok {
			t.Fatalf("current version compiled: %v %v", ok, err)
		}
		// Active, filters, and deleting the campaign's workflow pauses it.
		if err := db.SetCampaignWorkflow(ctx, org.ID, c.ID, w.ID); err != nil {
			t.Fatal(err)
		}
		yes := true
		list, total, err := db.ListWorkflows(ctx, org.ID, store.WorkflowFilter{CampaignID: c.ID, Name: "renewal", Active: &yes}, 10, 0)
		if err != nil || total != 1 || !list[0].Active || list[0].Version != 2 || *list[0].Prompt != "prompt" {
			t.Fatalf("list: %+v %d %v", list, total, err)
		}
		if list, total, _ := db.ListWorkflows(ctx, other.ID, store.WorkflowFilter{}, 10, 0); total != 1 || list[0].ID != dup.ID {
			t.Fatalf("another team lists %d", total)
		}
		if err := db.DeleteWorkflow(ctx, org.ID, w.ID); err != nil {
			t.Fatal(err)
		}
		got, err := db.CampaignByID(ctx, org.ID, c.ID)
		if err != nil || got.WorkflowID != nil || got.Status != store.CampaignPaused {
			t.Fatalf("campaign after delete: %+v %v", got, err)
		}
		// Templates are seeded, filtered by type, by name.
		tpls, total, err := db.ListWorkflowTemplates(ctx, store.Inbound, 6, 0)
		if err != nil || total != 3 || tpls[0].Name != "After-hours receptionist" || tpls[1].Name != "Answer calls" || tpls[2].Name != "Customer support" {
			t.Fatalf("inbound templates: %d %v", total, err)
		}
	})
}

// Contacts go with their workflow.
func TestWorkflowContactsCascade(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		w := store.Workflow{OrganizationID: org.ID, Name: "Calls", Type: store.Outbound, Graph: `{}`, PromptStatus: store.PromptSuccess}
		if err := db.CreateWorkflow(ctx, &w, nil); err != nil {
			t.Fatal(err)
		}
		src := store.ContactSource{NodeID: "node-1", OrganizationID: org.ID, WorkflowID: w.ID, Source: "csv", Status: store.ContactsParsing}
		if err := db.SetContactSource(ctx, &src); err != nil {
			t.Fatal(err)
		}
		rows := []store.Contact{{OrganizationID: org.ID, NodeID: "node-1", ImportID: src.ImportID, Seq: 1, Phone: "+14155550123", Status: store.ContactPending},
			{OrganizationID: org.ID, NodeID: "node-1", ImportID: src.ImportID, Seq: 2, Phone: "x", Status: store.ContactFailed}}
		if err := db.InTx(ctx, func(ctx context.Context) error { return db.InsertContacts(ctx, rows) }); err != nil {
			t.Fatal(err)
		}
		if got, total, err := db.ListContacts(ctx, org.ID, "node-1", src.ImportID, 10, 0); err != nil || total != 2 || got[1].Phone != "x" {
			t.Fatalf("list: %+v %d %v", got, total, err)
		}
		if err := db.DeleteWorkflow(ctx, org.ID, w.ID); err != nil {
			t.Fatal(err)
		}
		if _, left, err := db.ListContacts(ctx, org.ID, "node-1", src.ImportID, 10, 0); err != nil || left != 0 {
			t.Fatalf("contacts left: %d %v", left, err)
		}
	})
}
