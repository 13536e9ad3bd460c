package hubspot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func clientOf(f *hubspottest.Server, timeout time.Duration) *Client {
	return NewClient(Config{ClientID: f.Opts.ClientID, ClientSecret: f.Opts.ClientSecret, APIURL: f.URL, AuthURL: f.URL + "/oauth/authorize",
		HTTP: &http.Client{Timeout: timeout}})
}

// tokens runs the authorisation-code exchange against the fake.
func tokens(t *testing.T, f *hubspottest.Server, c *Client) integrations.Tokens {
	t.Helper()
	redirect := "http://betty.test/v1/apps/hubspot/callback"
	tok, err := c.Exchange(context.Background(), f.Code(redirect), redirect)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestClientSpeaksHubSpot(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	ctx := context.Background()
	c := clientOf(f, 2*time.Second)
	redirect := "http://betty.test/v1/apps/hubspot/callback"

	// A code works once, for its redirect URI only; a wrong secret is refused.
	code := f.Code(redirect)
	if _, err := c.Exchange(ctx, code, "http://elsewhere/cb"); err == nil {
		t.Fatal("a code exchanged for another redirect URI")
	}
	bad := NewClient(Config{ClientID: f.Opts.ClientID, ClientSecret: "wrong", APIURL: f.URL})
	if _, err := bad.Exchange(ctx, f.Code(redirect), redirect); err == nil {
		t.Fatal("a wrong client secret was accepted")
	}
	tok := tokens(t, f, c)
	if tok.RefreshToken == "" || time.Until(tok.ExpiresAt) < 29*time.Minute {
		t.Fatalf("tokens: %+v", tok)
	}
	p, err := c.Portal(ctx, tok.AccessToken)
	if err != nil || p.HubID != 24017381 || p.HubDomain != "acme.hubspot.com" {
		t.Fatalf("portal: %+v %v", p, err)
	}
	// Refresh works while the refresh token lives; once revoked it is ErrRefreshRefused.
	fresh, err := c.Refresh(ctx, tok.RefreshToken)
	if err != nil || fresh.AccessToken == tok.AccessToken {
		t.Fatalf("refresh: %+v %v", fresh, err)
	}
	if err := c.Revoke(ctx, tok); err != nil || f.Count("revoke") != 1 {
		t.Fatalf("revoke: %v", err)
	}
	if _, err := c.Refresh(ctx, tok.RefreshToken); !errors.Is(err, integrations.ErrRefreshRefused) {
		t.Fatalf("refresh after revoking: %v", err)
	}
	if _, err := c.LifecycleStages(ctx, fresh.AccessToken); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("a revoked access token: %v", err)
	}

	tok = tokens(t, f, c)
	ada := f.AddContact(map[string]string{"firstname": "Ada", "phone": "+14155550123"})
	for range 120 {
		f.AddContact(map[string]string{"firstname": "Filler"})
	}
	pg, err := c.ListContacts(ctx, tok.AccessToken, "")
	if err != nil || len(pg.Contacts) != 100 || pg.After == "" || pg.Contacts[0].ID != ada || pg.Contacts[0].Properties["phone"] != "+14155550123" {
		t.Fatalf("list: %d %q %v", len(pg.Contacts), pg.After, err)
	}
	if pg, err = c.ListContacts(ctx, tok.AccessToken, pg.After); err != nil || len(pg.Contacts) != 21 || pg.After != "" {
		t.Fatalf("list page 2: %d %q %v", len(pg.Contacts), pg.After, err)
	}
	if pg, err = c.SearchContacts(ctx, tok.AccessToken, "ada", ""); err != nil || pg.Total != 1 || pg.Contacts[0].ID != ada {
		t.Fatalf("search: %+v %v", pg, err)
	}
	if n, err := c.CountContacts(ctx, tok.AccessToken); err != nil || n != 121 {
		t.Fatalf("count: %d %v", n, err)
	}
	if err := c.SetLifecycleStage(ctx, tok.AccessToken, ada, "customer"); err != nil || f.Contact(ada)["lifecyclestage"] != "customer" {
		t.Fatalf("patch: %v %v", err, f.Contact(ada))
	}
	var ae *APIError
	if err := c.SetLifecycleStage(ctx, tok.AccessToken, ada, "nonsense"); !errors.As(err, &ae) || ae.Category != "VALIDATION_ERROR" || ae.Temporary() {
		t.Fatalf("a bad stage: %v", err)
	}
	f.AddStage(hubspottest.Stage{Label: "Hidden", Value: "h", DisplayOrder: 99, Hidden: true})
	st, err := c.LifecycleStages(ctx, tok.AccessToken)
	if err != nil || len(st) != 8 || st[0].Value != "subscriber" || st[7].Value != "other" {
		t.Fatalf("stages: %+v %v", st, err)
	}

	// 5xx, 429 (with Retry-After) and timeouts are ErrUnreachable.
	f.FailNext("/crm/v3/", http.StatusBadGateway, 1)
	if _, err := c.LifecycleStages(ctx, tok.AccessToken); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("502: %v", err)
	}
	f.FailNext("/crm/v3/", http.StatusTooManyRequests, 1)
	_, err = c.LifecycleStages(ctx, tok.AccessToken)
	if !errors.Is(err, ErrUnreachable) || !errors.As(err, &ae) || ae.RetryAfter != time.Second || ae.Category != "RATE_LIMITS" {
		t.Fatalf("429: %v", err)
	}
	f.SetDelay(300 * time.Millisecond)
	if _, err := clientOf(f, 100*time.Millisecond).LifecycleStages(ctx, tok.AccessToken); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("timeout: %v", err)
	}
	f.ClearFailures()
}

func TestStageMapping(t *testing.T) {
	for hs, b := range map[string]string{"marketingqualifiedlead": "marketing lead", "salesqualifiedlead": "sales lead", "customer": "customer",
		"1234567": "other", "": ""} {
		if got := BettyStage(hs); got != b {
			t.Errorf("BettyStage(%q) = %q", hs, got)
		}
	}
	if HubSpotStage("marketing lead") != "marketingqualifiedlead" || HubSpotStage("1234567") != "1234567" {
		t.Fatal("HubSpotStage")
	}
	r := rowOf(Contact{ID: "7", Properties: map[string]string{"mobilephone": "(415) 555-0199", "lifecyclestage": "salesqualifiedlead"}})
	if r.Phone != "+14155550199" || *r.LifecycleStage != "sales lead" || r.Status != store.ContactPending || r.ExternalID != "7" {
		t.Fatalf("row: %+v", r)
	}
	if r := rowOf(Contact{ID: "8", Properties: map[string]string{"phone": "12"}}); r.Status != store.ContactFailed || *r.LastError != "Invalid phone number" {
		t.Fatalf("unusable: %+v", r)
	}
}

// connected makes a team with the fake portal f connected: the team, the connected apps, the
// integration and the HubSpot app.
func connected(t *testing.T, db *store.DB, f *hubspottest.Server) (store.Organization, *integrations.Service, *Service, integrations.App) {
	t.Helper()
	ctx := context.Background()
	u := store.User{Email: "ada@example.com"}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	o := store.Organization{Name: "Acme", OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		t.Fatal(err)
	}
	apps, err := integrations.New(db, []byte("0123456789abcdef0123456789abcdef"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := clientOf(f, 2*time.Second)
	s := New(c, Deps{DB: db, Apps: apps, BaseURL: "http://betty.test"})
	app, err := apps.Save(ctx, integrations.Connection{OrganizationID: o.ID, Integration: integrations.HubSpot, AccountID: "24017381",
		Name: "acme.hubspot.com", Tokens: tokens(t, f, c)})
	if err != nil {
		t.Fatal(err)
	}
	return o, apps, s, app
}

// The write-back job: done when HubSpot takes the stage, retried (an error for River) while
// HubSpot is unreachable, failed with the reason when it refuses, the contact is gone, the
// app is disconnected, or the last attempt fails.
func TestWriteStage(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		o, apps, s, app := connected(t, db, f)
		ada := f.AddContact(map[string]string{"firstname": "Ada", "lifecyclestage": "lead"})
		queue := func(hubspotID, stage string) store.StageUpdate {
			t.Helper()
			up := store.StageUpdate{OrganizationID: o.ID, ConnectedAppID: app.ID, HubSpotID: hubspotID, Stage: HubSpotStage(stage), Status: store.StageUpdatePending}
			if err := db.CreateStageUpdate(ctx, &up); err != nil {
				t.Fatal(err)
			}
			return up
		}
		status := func(up store.StageUpdate) (string, string) {
			t.Helper()
			got, err := db.StageUpdateByID(ctx, o.ID, up.ID)
			if err != nil {
				t.Fatal(err)
			}
			reason := ""
			if got.Reason != nil {
				reason = *got.Reason
			}
			return got.Status, reason
		}

		up := queue(ada, "marketing lead")
		if err := s.WriteStage(ctx, o.ID, up.ID, false); err != nil {
			t.Fatal(err)
		}
		if st, _ := status(up); st != "done" || f.Contact(ada)["lifecyclestage"] != "marketingqualifiedlead" {
			t.Fatalf("done: %s %v", st, f.Contact(ada))
		}
		up = queue(ada, "customer")
		f.FailNext("/crm/v3/", http.StatusServiceUnavailable, 1)
		if err := s.WriteStage(ctx, o.ID, up.ID, false); err == nil {
			t.Fatal("an unreachable HubSpot was not retried")
		}
		if st, _ := status(up); st != "pending" {
			t.Fatalf("after a failed try: %s", st)
		}
		if err := s.WriteStage(ctx, o.ID, up.ID, false); err != nil {
			t.Fatal(err)
		}
		if st, _ := status(up); st != "done" || f.Contact(ada)["lifecyclestage"] != "customer" {
			t.Fatalf("retried: %s", st)
		}
		// An access token refused early is renewed and the write tried again.
		up = queue(ada, "opportunity")
		f.FailNext("/crm/v3/", http.StatusUnauthorized, 1)
		if err := s.WriteStage(ctx, o.ID, up.ID, false); err == nil {
			t.Fatal("a refused token was not tried again")
		}
		if st, _ := status(up); st != "pending" {
			t.Fatalf("after a refused token: %s", st)
		}
		if err := s.WriteStage(ctx, o.ID, up.ID, false); err != nil {
			t.Fatal(err)
		}
		if st, _ := status(up); st != "done" || f.Contact(ada)["lifecyclestage"] != "opportunity" {
			t.Fatalf("after renewing: %s", st)
		}
		up = queue(ada, "lead")
		f.FailNext("/crm/v3/", http.StatusTooManyRequests, 1)
		if err := s.WriteStage(ctx, o.ID, up.ID, true); err != nil {
			t.Fatal(err)
		}
		if st, reason := status(up); st != "failed" || reason == "" {
			t.Fatalf("last attempt: %s %q", st, reason)
		}
		up = queue("999999", "lead")
		_ = s.WriteStage(ctx, o.ID, up.ID, false)
		if st, reason := status(up); st != "failed" || reason != "The contact no longer exists in HubSpot." {
			t.Fatalf("gone: %s %q", st, reason)
		}
		up = queue(ada, "not-a-stage")
		_ = s.WriteStage(ctx, o.ID, up.ID, false)
		if st, reason := status(up); st != "failed" || reason == "" {
			t.Fatalf("refused: %s %q", st, reason)
		}
		if _, err := apps.Disconnect(ctx, o.ID, app.ID, ""); err != nil {
			t.Fatal(err)
		}
		up = queue(ada, "lead")
		_ = s.WriteStage(ctx, o.ID, up.ID, false)
		if st, reason := status(up); st != "failed" || reason != `The HubSpot connection "acme.hubspot.com" is disconnected: reconnect it.` {
			t.Fatalf("disconnected: %s %q", st, reason)
		}
	})
}

// Reading a node's HubSpot list: members added, those who left removed unless called, a source
// replaced since left alone, a list gone recorded as the source's error.
func TestSyncList(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	ada := f.AddContact(map[string]string{"firstname": "Ada", "phone": "+14155550151"})
	bob := f.AddContact(map[string]string{"firstname": "Bob", "phone": "+14155550152"})
	cy := f.AddContact(map[string]string{"firstname": "Cy", "phone": "+14155550153"})
	members := []string{ada, bob}
	for i := range 300 { // more than a page of memberships and of contacts
		members = append(members, f.AddContact(map[string]string{"firstname": "Filler", "phone": fmt.Sprintf("+1415777%04d", i)}))
	}
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		o, _, s, app := connected(t, db, f)
		list := f.AddList("Renewals", members...)
		w := store.Workflow{OrganizationID: o.ID, Name: "Renewals", Type: store.Outbound, Graph: `{}`, PromptStatus: store.PromptInProgress}
		node := "list-" + store.NewID()
		if err := db.CreateWorkflow(ctx, &w, []store.WorkflowNode{{ID: node, Type: "contacts"}}); err != nil {
			t.Fatal(err)
		}
		src := store.ContactSource{NodeID: node, OrganizationID: o.ID, WorkflowID: w.ID, Source: "hubspot", Status: store.ContactsParsing,
			ConnectedAppID: &app.ID, ListID: &list}
		if err := db.SetContactSource(ctx, &src); err != nil {
			t.Fatal(err)
		}
		held := func() map[string]bool {
			t.Helper()
			ids, err := db.ExternalIDsOfImport(ctx, o.ID, node, src.ImportID)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]bool{}
			for _, ext := range ids {
				out[ext] = true
			}
			return out
		}
		status := func() store.ContactSource {
			t.Helper()
			got, err := db.ContactSourceByNode(ctx, o.ID, w.ID, node)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}

		// Two reads of the same import at once (the one queued on save and the periodic one)
		// write each contact once.
		var wg sync.WaitGroup
		errc := make(chan error, 3)
		for range 3 {
			wg.Add(1)
			go func() { defer wg.Done(); errc <- s.SyncList(ctx, o.ID, node, src.ImportID, false) }()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatal(err)
			}
		}
		if ids, err := db.ExternalIDsOfImport(ctx, o.ID, node, src.ImportID); err != nil || len(ids) != 302 {
			t.Fatalf("three reads at once stored %d rows (%v), want 302", len(ids), err)
		}
		if h := held(); len(h) != 302 || !h[ada] || !h[bob] || h[cy] {
			t.Fatalf("first read: %d contacts", len(h))
		}
		if got := status(); got.Status != store.ContactsSuccess || got.RowsImported != 302 {
			t.Fatalf("first read: %+v", got)
		}

		// Ada was called and left the list, Bob left uncalled, Cy joined.
		q := `UPDATE workflow_contacts SET attempts = 1 WHERE external_id = ?`
		if db.Dialect() == store.Postgres {
			q = `UPDATE workflow_contacts SET attempts = 1 WHERE external_id = $1`
		}
		if _, err := db.Writer().ExecContext(ctx, q, ada); err != nil {
			t.Fatal(err)
		}
		f.SetListMembers(list, append([]string{cy}, members[2:]...)...)
		if err := s.SyncList(ctx, o.ID, node, src.ImportID, false); err != nil {
			t.Fatal(err)
		}
		if h := held(); len(h) != 302 || !h[ada] || h[bob] || !h[cy] {
			t.Fatalf("after changes: ada %v bob %v cy %v, %d", h[ada], h[bob], h[cy], len(h))
		}

		// HubSpot unreachable: retried, then the last attempt records it.
		f.FailNext("/crm/v3/lists", http.StatusServiceUnavailable, 2)
		if err := s.SyncList(ctx, o.ID, node, src.ImportID, false); err == nil {
			t.Fatal("an unreachable HubSpot was not retried")
		}
		if err := s.SyncList(ctx, o.ID, node, src.ImportID, true); err != nil {
			t.Fatal(err)
		}
		if got := status(); got.Status != store.ContactsError || got.Error == nil || !strings.Contains(*got.Error, "could not be reached") {
			t.Fatalf("unreachable: %+v", got)
		}
		// A job for an import replaced since does nothing.
		if err := s.SyncList(ctx, o.ID, node, "an-old-import", false); err != nil {
			t.Fatal(err)
		}
		// A list deleted in HubSpot.
		other := "424242"
		src2 := src
		src2.ListID = &other
		if err := db.SetContactSource(ctx, &src2); err != nil {
			t.Fatal(err)
		}
		if err := s.SyncList(ctx, o.ID, node, src2.ImportID, false); err != nil {
			t.Fatal(err)
		}
		if got := status(); got.Status != store.ContactsError || got.Error == nil || *got.Error != "HubSpot has no list 424242 in acme.hubspot.com." {
			t.Fatalf("a list gone: %+v", got)
		}
	})
}

// Page N of a portal's contacts is N cursor fetches away from the first; the cursors met are
// kept (per app, CursorTTL), so asking for the same page again, or one before it, costs one
// fetch. A failed fetch forgets the app's cursors.
func TestListKeepsCursors(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	for i := range 250 {
		f.AddContact(map[string]string{"firstname": fmt.Sprintf("C%03d", i), "phone": fmt.Sprintf("+1415555%04d", i)})
	}
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		o, _, s, app := connected(t, db, f)
		fetches := func(offset int) (int, []Row) {
			t.Helper()
			before := f.Count("list")
			rows, total, _, err := s.List(ctx, o.ID, app.ID, nil, nil, PageSize, offset)
			if err != nil || total != 250 {
				t.Fatalf("offset %d: %d %v", offset, total, err)
			}
			return f.Count("list") - before, rows
		}
		if n, rows := fetches(200); n != 3 || len(rows) != 50 {
			t.Fatalf("page 3 the first time: %d fetches, %d rows", n, len(rows))
		}
		if n, rows := fetches(200); n != 1 || len(rows) != 50 {
			t.Fatalf("page 3 again: %d fetches, %d rows", n, len(rows))
		}
		if n, rows := fetches(100); n != 1 || len(rows) != 100 {
			t.Fatalf("page 2 after page 3: %d fetches, %d rows", n, len(rows))
		}
		f.FailNext("GET /crm/v3/objects/contacts", http.StatusInternalServerError, 1)
		if _, _, _, err := s.List(ctx, o.ID, app.ID, nil, nil, PageSize, 200); err == nil {
			t.Fatal("a failed fetch was not reported")
		}
		if n, _ := fetches(200); n != 3 {
			t.Fatalf("page 3 after a failure: %d fetches (the cursors were kept)", n)
		}
	})
}
