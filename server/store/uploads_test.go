package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func newUpload(t *testing.T, db *store.DB, org string, size int64, expires time.Time) store.Upload {
	t.Helper()
	u := store.Upload{OrganizationID: org, Purpose: "knowledge-file", FileName: "a.pdf", FileType: "application/pdf",
		Metadata: "filename YS5wZGY=", Size: size, ExpiresAt: expires}
	if err := db.CreateUpload(context.Background(), &u); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestUploadLifecycle(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		day := time.Now().Add(24 * time.Hour)
		u := newUpload(t, db, org.ID, 10, day)

		if _, err := db.UploadByID(ctx, other.ID, u.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team reads the upload: %v", err)
		}
		if got, err := db.UploadOrganization(ctx, u.ID); err != nil || got != org.ID {
			t.Fatalf("organisation: %q %v", got, err)
		}

		// A chunk moves the offset only from where the upload is.
		p := store.UploadPart{UploadID: u.ID, Offset: 0, Size: 4, ObjectKey: u.ID + "/part-0-a"}
		if err := db.AddUploadPart(ctx, org.ID, &p, "application/pdf", true); err != nil {
			t.Fatal(err)
		}
		stale := store.UploadPart{UploadID: u.ID, Offset: 0, Size: 3, ObjectKey: u.ID + "/part-0-b"}
		if err := db.AddUploadPart(ctx, org.ID, &stale, "application/pdf", true); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a second chunk at the same offset: %v", err)
		}
		if err := db.AddUploadPart(ctx, other.ID, &store.UploadPart{UploadID: u.ID, Offset: 4, Size: 1, ObjectKey: "x"}, "", false); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's chunk: %v", err)
		}
		parts, err := db.UploadParts(ctx, u.ID)
		if err != nil || len(parts) != 1 || parts[0].ObjectKey != p.ObjectKey {
			t.Fatalf("parts: %+v %v", parts, err)
		}
		if got, _ := db.UploadByID(ctx, org.ID, u.ID); got.Received != 4 || !got.TypeChecked || got.CompletedAt != nil {
			t.Fatalf("after a chunk: %+v", got)
		}

		// Completing from a stale offset fails; from the right one it finishes the file.
		at := time.Now()
		if err := db.CompleteUpload(ctx, org.ID, u.ID, 0, u.ID+"/file-x", "application/pdf", at); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("complete from a stale offset: %v", err)
		}
		if err := db.CompleteUpload(ctx, org.ID, u.ID, 4, u.ID+"/file-x", "application/pdf", at); err != nil {
			t.Fatal(err)
		}
		got, _ := db.UploadByID(ctx, org.ID, u.ID)
		if got.Received != 10 || got.CompletedAt == nil || got.UnusedSince == nil || got.ObjectKey != u.ID+"/file-x" {
			t.Fatalf("after completing: %+v", got)
		}
		if parts, _ := db.UploadParts(ctx, u.ID); len(parts) != 0 {
			t.Fatalf("parts kept after completion: %+v", parts)
		}
		if err := db.AddUploadPart(ctx, org.ID, &store.UploadPart{UploadID: u.ID, Offset: 10, Size: 1, ObjectKey: "y"}, "", false); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a chunk after completion: %v", err)
		}
		if f, err := db.CompletedUpload(ctx, u.ID); err != nil || f.ID != u.ID {
			t.Fatalf("completed upload: %v", err)
		}

		// Uses keep it; another team cannot use it; releasing the last use marks it unused.
		if err := db.UseUpload(ctx, other.ID, u.ID, "agent:1"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team uses it: %v", err)
		}
		for range 2 {
			if err := db.UseUpload(ctx, org.ID, u.ID, "agent:1"); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.UseUpload(ctx, org.ID, u.ID, "voice:2"); err != nil {
			t.Fatal(err)
		}
		if refs, _ := db.UploadRefs(ctx, u.ID); len(refs) != 2 {
			t.Fatalf("refs: %v", refs)
		}
		if got, _ := db.UploadByID(ctx, org.ID, u.ID); got.UnusedSince != nil {
			t.Fatalf("used but unused since %v", got.UnusedSince)
		}
		if err := db.DeleteUpload(ctx, org.ID, u.ID); !errors.Is(err, store.ErrReference) {
			t.Fatalf("delete a used upload: %v", err)
		}
		if n, err := db.DeleteStaleUploads(ctx, time.Now().Add(48*time.Hour), time.Now().Add(48*time.Hour)); err != nil || n != 0 {
			t.Fatalf("a used upload was stale: %d %v", n, err)
		}
		_ = db.ReleaseUpload(ctx, org.ID, u.ID, "agent:1", time.Now())
		if got, _ := db.UploadByID(ctx, org.ID, u.ID); got.UnusedSince != nil {
			t.Fatal("unused while voice:2 still uses it")
		}
		if err := db.ReleaseUpload(ctx, org.ID, u.ID, "voice:2", time.Now()); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.UploadByID(ctx, org.ID, u.ID); got.UnusedSince == nil {
			t.Fatal("still used after the last release")
		}
		if err := db.ReleaseUpload(ctx, org.ID, "no-such-upload", "voice:2", time.Now()); err != nil {
			t.Fatalf("release of a missing upload: %v", err)
		}

		// Deleting records the bytes to remove.
		if err := db.DeleteUpload(ctx, other.ID, u.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team deletes it: %v", err)
		}
		if err := db.DeleteUpload(ctx, org.ID, u.ID); err != nil {
			t.Fatal(err)
		}
		dels, err := db.UploadDeletions(ctx, 10)
		if err != nil || len(dels) != 1 || dels[0] != (store.UploadDeletion{OrganizationID: org.ID, UploadID: u.ID}) {
			t.Fatalf("deletions: %+v %v", dels, err)
		}
		if err := db.ForgetUploadDeletion(ctx, dels[0]); err != nil {
			t.Fatal(err)
		}
		if dels, _ := db.UploadDeletions(ctx, 10); len(dels) != 0 {
			t.Fatalf("deletions after forgetting: %+v", dels)
		}
	})
}

func TestStaleUploads(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		now := time.Now()
		expired := newUpload(t, db, org.ID, 10, now.Add(-time.Minute))
		fresh := newUpload(t, db, org.ID, 10, now.Add(time.Hour))
		unused := newUpload(t, db, org.ID, 1, now.Add(time.Hour))
		used := newUpload(t, db, org.ID, 1, now.Add(time.Hour))
		for _, u := range []store.Upload{unused, used} {
			if err := db.CompleteUpload(ctx, org.ID, u.ID, 0, u.ID+"/file", "application/pdf", now.Add(-8*24*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.UseUpload(ctx, org.ID, used.ID, "agent:1"); err != nil {
			t.Fatal(err)
		}
		n, err := db.DeleteStaleUploads(ctx, now, now.Add(-7*24*time.Hour))
		if err != nil || n != 2 {
			t.Fatalf("deleted %d (%v), want the expired and the unused", n, err)
		}
		for _, u := range []store.Upload{expired, unused} {
			if _, err := db.UploadByID(ctx, org.ID, u.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s survived: %v", u.ID, err)
			}
		}
		for _, u := range []store.Upload{fresh, used} {
			if _, err := db.UploadByID(ctx, org.ID, u.ID); err != nil {
				t.Errorf("%s was deleted: %v", u.ID, err)
			}
		}
		if dels, _ := db.UploadDeletions(ctx, 10); len(dels) != 2 {
			t.Fatalf("deletions: %+v", dels)
		}
	})
}

// A team deleted with its uploads leaves their bytes to remove: the trigger fires on the
// cascade too.
func TestDeletingATeamRecordsItsUploadsBytes(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		u := newUpload(t, db, org.ID, 10, time.Now().Add(time.Hour))
		if err := db.DeleteOrganization(ctx, org.ID); err != nil {
			t.Fatal(err)
		}
		dels, err := db.UploadDeletions(ctx, 10)
		if err != nil || len(dels) != 1 || dels[0].UploadID != u.ID || dels[0].OrganizationID != org.ID {
			t.Fatalf("deletions: %+v %v", dels, err)
		}
	})
}
