package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestVoiceProfiles(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")

		v := store.VoiceProfile{OrganizationID: org.ID, Name: "Our CEO", Gender: "female", Language: "en-US",
			SampleUploadIDs: store.Strings{"upl_a", "upl_b"}, Status: store.VoiceApproved,
			CreatedBy: &owner.ID}
		if err := db.CreateVoiceProfile(ctx, &v); err != nil {
			t.Fatal(err)
		}
		got, err := db.VoiceProfile(ctx, org.ID, v.ID)
		if err != nil || got.Name != "Our CEO" || got.NameKey != "our ceo" || !slices.Equal(got.SampleUploadIDs, v.SampleUploadIDs) ||
			got.Status != store.VoiceApproved || got.CreatedBy == nil || !got.CreatedAt.Equal(v.CreatedAt) {
			t.Fatalf("read back %+v %v", got, err)
		}

		// Names are unique in a team regardless of case, and free in another team.
		dup := store.VoiceProfile{OrganizationID: org.ID, Name: "our ceo", Gender: "male", Status: store.VoiceApproved}
		if err := db.CreateVoiceProfile(ctx, &dup); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("same name: %v", err)
		}
		theirs := store.VoiceProfile{OrganizationID: other.ID, Name: "Our CEO", Gender: "male", Status: store.VoiceApproved}
		if err := db.CreateVoiceProfile(ctx, &theirs); err != nil {
			t.Fatal(err)
		}

		// Another team's id finds nothing, for reading, changing and deleting.
		if _, err := db.VoiceProfile(ctx, other.ID, v.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("read with another team: %v", err)
		}
		stolen := got
		stolen.OrganizationID, stolen.Name = other.ID, "Stolen"
		if err := db.UpdateVoiceProfile(ctx, &stolen); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("update with another team: %v", err)
		}
		if err := db.DeleteVoiceProfile(ctx, other.ID, v.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("delete with another team: %v", err)
		}

		second := store.VoiceProfile{OrganizationID: org.ID, Name: "Support", Gender: "male", Status: store.VoiceRejected}
		if err := db.CreateVoiceProfile(ctx, &second); err != nil {
			t.Fatal(err)
		}
		page, total, err := db.ListVoiceProfiles(ctx, org.ID, 10, 0)
		if err != nil || total != 2 || len(page) != 2 || page[0].ID != second.ID || page[1].ID != v.ID {
			t.Fatalf("list: %d %+v %v", total, page, err)
		}
		// The rejected voice holds no place under the limit.
		if n, err := db.CountVoiceProfiles(ctx, org.ID); err != nil || n != 1 {
			t.Fatalf("count %d %v", n, err)
		}

		got.Name, got.SampleUploadIDs, got.Language = "Our Founder", store.Strings{"upl_c"}, "en-GB"
		if err := db.UpdateVoiceProfile(ctx, &got); err != nil {
			t.Fatal(err)
		}
		got.Name = "SUPPORT"
		if err := db.UpdateVoiceProfile(ctx, &got); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("rename onto another voice: %v", err)
		}
		if again, _ := db.VoiceProfile(ctx, org.ID, v.ID); again.Name != "Our Founder" || again.Language != "en-GB" || len(again.SampleUploadIDs) != 1 {
			t.Fatalf("after update %+v", again)
		}

		if err := db.InTx(ctx, func(ctx context.Context) error {
			tier, err := db.LockVoiceQuota(ctx, org.ID)
			if err != nil || tier != store.TierFree {
				t.Errorf("tier %q %v", tier, err)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.LockVoiceQuota(ctx, org.ID); err == nil {
			t.Fatal("LockVoiceQuota outside a transaction")
		}

		if err := db.DeleteVoiceProfile(ctx, org.ID, v.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.DeleteVoiceProfile(ctx, org.ID, v.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("delete twice: %v", err)
		}
	})
}
