package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
)

// Migration 19 keys nodes, contacts sources and contacts by (workflow, node) and keeps every
// row: the fixture team's contacts (loaded after 18) belong to their source's workflow, the
// upload their source uses is marked with the workflow, and a second workflow of the team
// then takes the same node ids with its own source and contacts (the fixture loaded after 19).
func TestMigration19KeepsContactsKeyedByWorkflow(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			db := testdb.Open(t, d, false)
			for {
				r, err := db.MigrateUpByOne(ctx)
				if err != nil {
					t.Fatalf("migrate: %v", err)
				}
				fixture := filepath.Join("..", "..", "testdata", "migrations", migrationName.FindStringSubmatch(filepath.Base(r.Name))[1]+".sql")
				if sql, err := os.ReadFile(fixture); err == nil {
					if err := db.ExecRaw(ctx, string(sql)); err != nil {
						t.Fatalf("fixture %s: %v", fixture, err)
					}
				}
				if r.Version == 19 {
					break
				}
			}
			for wf, want := range map[string][]string{"fixture-workflow-1": {"+14155550123", "nope"}, "fixture-workflow-2": {"+14155550124"}} {
				src, err := db.ContactSourceByNode(ctx, "fixture-org-1", wf, "fixture-node-contacts")
				if err != nil {
					t.Fatalf("%s's source: %v", wf, err)
				}
				rows, total, err := db.ListContacts(ctx, "fixture-org-1", "fixture-node-contacts", src.ImportID, 10, 0)
				if err != nil || total != len(want) {
					t.Fatalf("%s's contacts: %d %v", wf, total, err)
				}
				for i, c := range rows {
					if c.WorkflowID != wf || c.Phone != want[i] {
						t.Fatalf("%s's contact %d: %+v", wf, i, c)
					}
				}
			}
			if refs, err := db.UploadRefs(ctx, "fixture-upload-4"); err != nil || len(refs) != 1 || refs[0] != "contacts:fixture-workflow-1:fixture-node-contacts" {
				t.Fatalf("the source's file use: %v %v", refs, err)
			}
			owners, err := db.WorkflowNodeOwners(ctx, []string{"fixture-org-1"}, "fixture-node-start", "")
			if err != nil || len(owners) != 2 {
				t.Fatalf("a node id in two workflows: %+v %v", owners, err)
			}
			// Deleting a workflow takes its source and contacts, and only its own.
			if err := db.DeleteWorkflow(ctx, "fixture-org-1", "fixture-workflow-2"); err != nil {
				t.Fatal(err)
			}
			src, err := db.ContactSourceByNode(ctx, "fixture-org-1", "fixture-workflow-1", "fixture-node-contacts")
			if _, total, _ := db.ListContacts(ctx, "fixture-org-1", "fixture-node-contacts", src.ImportID, 10, 0); err != nil || total != 2 {
				t.Fatalf("the other workflow's contacts after a delete: %d %v", total, err)
			}
			if _, err := db.ContactByID(ctx, "fixture-org-1", "fixture-contact-3"); err == nil {
				t.Fatal("the deleted workflow's contact is still there")
			}
		})
	}
}
