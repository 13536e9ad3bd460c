package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func ptr[T any](v T) *T { return &v }

func TestPhoneNumbers(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")

		bought := store.PhoneNumber{OrganizationID: org.ID, E164: "+14155550123", Status: store.PhoneActive, CountryCode: "US",
			NumberType: ptr("local"), AreaCode: ptr("415"), MonthlyPrice: ptr(0.0), CarrierID: ptr("sim-14155550123")}
		if err := db.CreatePhoneNumber(ctx, &bought); err != nil {
			t.Fatal(err)
		}
		// A bought number belongs to one team; verifying it elsewhere is allowed.
		stolen := store.PhoneNumber{OrganizationID: other.ID, E164: "+14155550123", Status: store.PhoneActive, CountryCode: "US"}
		if err := db.CreatePhoneNumber(ctx, &stolen); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("another team buying it: %v", err)
		}
		at := time.Now().UTC().Truncate(time.Microsecond)
		verified := store.PhoneNumber{OrganizationID: other.ID, E164: "+14155550123", Status: store.PhoneActive, CountryCode: "US",
			IsNonTelnyx: true, AreaCode: ptr("415"), VerifiedAt: &at}
		if err := db.CreatePhoneNumber(ctx, &verified); err != nil {
			t.Fatalf("another team verifying it: %v", err)
		}
		twice := store.PhoneNumber{OrganizationID: other.ID, E164: "+14155550123", Status: store.PhoneActive, CountryCode: "US", IsNonTelnyx: true}
		if err := db.CreatePhoneNumber(ctx, &twice); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("the same team twice: %v", err)
		}

		held, err := db.BoughtPhoneNumbers(ctx, []string{"+14155550123", "+14155550124"})
		if err != nil || !held["+14155550123"] || held["+14155550124"] || len(held) != 1 {
			t.Fatalf("bought numbers: %v %v", held, err)
		}
		if elsewhere, err := db.PhoneNumberHeldElsewhere(ctx, org.ID, "+14155550123"); err != nil || !elsewhere {
			t.Fatalf("held elsewhere: %v %v", elsewhere, err)
		}
		if elsewhere, err := db.PhoneNumberHeldElsewhere(ctx, org.ID, "+14155550199"); err != nil || elsewhere {
			t.Fatalf("held elsewhere (nobody): %v %v", elsewhere, err)
		}

		// The list shows the agent answering it and the first campaign using it.
		for _, stmt := range []string{
			`INSERT INTO campaigns (id, organization_id, name, name_folded, direction, status, priority, purpose, settings, phone_number_id, phone_assigned_at, created_at, updated_at)
			 VALUES ('c-2', '` + org.ID + `', 'Later', 'later', 'outbound', 'draft', 'low', 'Other', '{}', '` + bought.ID + `', '2026-01-05 00:00:00+00:00', '2026-01-05 00:00:00+00:00', '2026-01-05 00:00:00+00:00')`,
			`INSERT INTO campaigns (id, organization_id, name, name_folded, direction, status, priority, purpose, settings, phone_number_id, phone_assigned_at, created_at, updated_at)
			 VALUES ('c-1', '` + org.ID + `', 'Spring', 'spring', 'outbound', 'draft', 'low', 'Other', '{}', '` + bought.ID + `', '2026-01-04 00:00:00+00:00', '2026-01-04 00:00:00+00:00', '2026-01-04 00:00:00+00:00')`,
			`INSERT INTO agent_profiles (id, organization_id, name, status, language, created_at, updated_at)
			 VALUES ('a-1', '` + org.ID + `', 'Ava', 'active', 'en-US', '2026-01-04 00:00:00+00:00', '2026-01-04 00:00:00+00:00')`,
			`INSERT INTO agent_call_configs (id, organization_id, agent_id, phone_number_id, created_at, updated_at)
			 VALUES ('cc-1', '` + org.ID + `', 'a-1', '` + bought.ID + `', '2026-01-04 00:00:00+00:00', '2026-01-04 00:00:00+00:00')`,
		} {
			if err := db.ExecRaw(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
		ns, total, err := db.ListPhoneNumbers(ctx, org.ID, 10, 0)
		if err != nil || total != 1 || len(ns) != 1 {
			t.Fatalf("list: %+v %d %v", ns, total, err)
		}
		n := ns[0]
		if n.ID != bought.ID || n.E164 != "+14155550123" || n.IsNonTelnyx || *n.NumberType != "local" || *n.MonthlyPrice != 0 ||
			*n.CarrierID != "sim-14155550123" || n.AgentID == nil || *n.AgentID != "a-1" || n.CampaignID == nil || *n.CampaignID != "c-1" ||
			*n.CampaignName != "Spring" {
			t.Fatalf("listed: %+v", n)
		}
		if _, err := db.PhoneNumberByID(ctx, other.ID, bought.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's number by id: %v", err)
		}
		got, err := db.PhoneNumberByID(ctx, other.ID, verified.ID)
		if err != nil || !got.IsNonTelnyx || got.VerifiedAt == nil || !got.VerifiedAt.Equal(at) || got.AgentID != nil || got.CampaignID != nil {
			t.Fatalf("verified by id: %+v %v", got, err)
		}

		// Deleting takes the call configuration with it and unassigns the campaigns.
		if err := db.DeletePhoneNumber(ctx, other.ID, bought.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("delete another team's: %v", err)
		}
		if err := db.DeletePhoneNumber(ctx, org.ID, bought.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.PhoneNumberByNumber(ctx, org.ID, "+14155550123"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
		if held, _ := db.BoughtPhoneNumbers(ctx, []string{"+14155550123"}); held["+14155550123"] {
			t.Fatal("a released number is still held")
		}

		// Orders outlive the numbers.
		if first, err := db.FirstPhoneNumberOrderAt(ctx, org.ID); err != nil || first != nil {
			t.Fatalf("first order before any: %v %v", first, err)
		}
		o := store.PhoneNumberOrder{OrganizationID: org.ID, E164: "+14155550123", CarrierOrderID: "sim-order-1"}
		if err := db.CreatePhoneNumberOrder(ctx, &o); err != nil {
			t.Fatal(err)
		}
		if first, err := db.FirstPhoneNumberOrderAt(ctx, org.ID); err != nil || first == nil || !first.Equal(o.CreatedAt) {
			t.Fatalf("first order: %v %v", first, err)
		}
	})
}

func TestPhoneVerifications(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		expires := time.Now().UTC().Truncate(time.Microsecond).Add(10 * time.Minute)

		first := store.PhoneVerification{OrganizationID: org.ID, E164: "+442079460123", Method: "call", ExpiresAt: expires}
		if err := db.StartPhoneVerification(ctx, &first); err != nil {
			t.Fatal(err)
		}
		elsewhere := store.PhoneVerification{OrganizationID: other.ID, E164: "+442079460123", Method: "sms", ExpiresAt: expires}
		if err := db.StartPhoneVerification(ctx, &elsewhere); err != nil {
			t.Fatal(err)
		}
		// A new request replaces the pending one of the same team only.
		second := store.PhoneVerification{OrganizationID: org.ID, E164: "+442079460123", Method: "sms", ExpiresAt: expires}
		if err := db.StartPhoneVerification(ctx, &second); err != nil {
			t.Fatal(err)
		}
		if v, err := db.PhoneVerificationByID(ctx, org.ID, first.ID); err != nil || v.Status != store.VerificationExpired {
			t.Fatalf("replaced: %+v %v", v, err)
		}
		if v, err := db.PhoneVerificationByID(ctx, other.ID, elsewhere.ID); err != nil || v.Status != store.VerificationPending {
			t.Fatalf("another team's: %+v %v", v, err)
		}
		if _, err := db.PhoneVerificationByID(ctx, other.ID, first.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's by id: %v", err)
		}
		latest, err := db.LatestPhoneVerification(ctx, org.ID, "+442079460123")
		if err != nil || latest.ID != second.ID || latest.Method != "sms" || !latest.ExpiresAt.Equal(expires) {
			t.Fatalf("latest: %+v %v", latest, err)
		}
		times, err := db.PhoneVerificationTimes(ctx, org.ID, "+442079460123", time.Now().Add(-time.Hour))
		if err != nil || len(times) != 2 || times[0].After(times[1]) {
			t.Fatalf("times: %v %v", times, err)
		}
		if times, err := db.PhoneVerificationTimes(ctx, org.ID, "+442079460123", time.Now().Add(time.Hour)); err != nil || len(times) != 0 {
			t.Fatalf("times in the future: %v %v", times, err)
		}

		// Wrong codes count; the limit-th fails it.
		for i := 1; i <= 3; i++ {
			v, err := db.CountWrongPhoneCode(ctx, org.ID, second.ID, 3)
			want := store.VerificationPending
			if i == 3 {
				want = store.VerificationFailed
			}
			if err != nil || v.WrongCodes != i || v.Status != want {
				t.Fatalf("wrong code %d: %+v %v", i, v, err)
			}
		}
		if _, err := db.CountWrongPhoneCode(ctx, org.ID, second.ID, 3); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("wrong code on a failed one: %v", err)
		}

		// Completing adds the number; the verification points at it until it is removed.
		at := time.Now().UTC().Truncate(time.Microsecond)
		n := store.PhoneNumber{OrganizationID: other.ID, E164: "+442079460123", Status: store.PhoneActive, CountryCode: "GB",
			IsNonTelnyx: true, AreaCode: ptr("20"), VerifiedAt: &at}
		if err := db.CompletePhoneVerification(ctx, &elsewhere, &n); err != nil {
			t.Fatal(err)
		}
		if elsewhere.Status != store.VerificationVerified || elsewhere.PhoneNumberID == nil || *elsewhere.PhoneNumberID != n.ID ||
			!elsewhere.VerifiedAt.Equal(at) {
			t.Fatalf("completed: %+v", elsewhere)
		}
		again := store.PhoneNumber{OrganizationID: other.ID, E164: "+442079460123", Status: store.PhoneActive, CountryCode: "GB", IsNonTelnyx: true}
		if err := db.CompletePhoneVerification(ctx, &elsewhere, &again); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("completing twice: %v", err)
		}
		if err := db.EndPhoneVerification(ctx, other.ID, elsewhere.ID, store.VerificationExpired); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("ending a verified one: %v", err)
		}
		if err := db.DeletePhoneNumber(ctx, other.ID, n.ID); err != nil {
			t.Fatal(err)
		}
		vs, err := db.ListPhoneVerifications(ctx, other.ID, 100)
		if err != nil || len(vs) != 1 || vs[0].PhoneNumberID != nil || vs[0].Status != store.VerificationVerified {
			t.Fatalf("after removing the number: %+v %v", vs, err)
		}
		vs, err = db.ListPhoneVerifications(ctx, org.ID, 1)
		if err != nil || len(vs) != 1 || vs[0].ID != second.ID {
			t.Fatalf("list newest: %+v %v", vs, err)
		}
	})
}
