package mail

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/smtptest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// outbox builds a mailer on a fresh database with its queue started.
func outbox(t *testing.T, db *store.DB, log *slog.Logger, s *SMTP) *Outbox {
	t.Helper()
	q := jobs.New(db, log, jobs.Config{PollInterval: 20 * time.Millisecond})
	o := NewOutbox(db, q, log, s)
	if err := q.Open(); err != nil {
		t.Fatal(err)
	}
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = q.Stop(context.Background()) })
	return o
}

// waitStatus waits until the newest message to addr has status want.
func waitStatus(t *testing.T, db *store.DB, addr string, want store.EmailStatus) store.Email {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		kept, err := db.Outbox(context.Background(), addr)
		if err != nil {
			t.Fatal(err)
		}
		if len(kept) > 0 && kept[0].Status == want {
			return kept[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("message to %s never %s: %+v", addr, want, kept)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSMTPDeliversOnceAndKeepsACopy(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		srv := smtptest.Start(t)
		s, err := ParseSMTP(srv.URL(), "betty@example.com")
		if err != nil {
			t.Fatal(err)
		}
		o := outbox(t, db, slog.New(slog.NewTextHandler(io.Discard, nil)), s)
		if !o.Delivers() {
			t.Fatal("SMTP outbox does not deliver")
		}
		err = o.Send(context.Background(), Message{To: "Ada@Example.com", Subject: "Confirm for Ünïcode\r\nBcc: evil@example.com",
			Text: "Open https://x/confirm?token=abc\n", Link: "https://x/confirm?token=abc", Kind: KindConfirmEmail})
		if err != nil {
			t.Fatal(err)
		}
		e := waitStatus(t, db, "ada@example.com", store.EmailSent)
		msgs := srv.Messages()
		if len(msgs) != 1 || !strings.Contains(msgs[0].Data, "token=abc") || msgs[0].To != "ada@example.com" ||
			strings.Contains(msgs[0].Data, "\r\nBcc:") || !strings.Contains(msgs[0].Data, "Subject: =?utf-8?q?") {
			t.Fatalf("delivered: %+v", msgs)
		}
		if e.SentAt == nil || e.Attempts != 1 || e.Link != "https://x/confirm?token=abc" {
			t.Fatalf("outbox: %+v", e)
		}
	})
}

// A message written in a transaction that rolls back is neither kept nor sent.
func TestAMessageLeavesOnlyWithItsTransaction(t *testing.T) {
	db := testdb.Open(t, store.SQLite, true)
	srv := smtptest.Start(t)
	s, _ := ParseSMTP(srv.URL(), "betty@example.com")
	o := outbox(t, db, slog.New(slog.NewTextHandler(io.Discard, nil)), s)
	_ = db.InTx(context.Background(), func(ctx context.Context) error {
		if err := o.Send(ctx, Message{To: "a@example.com", Subject: "Hi", Kind: KindInvitation}); err != nil {
			t.Fatal(err)
		}
		return context.Canceled
	})
	if err := o.Send(context.Background(), Message{To: "b@example.com", Subject: "Hi", Kind: KindInvitation}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, db, "b@example.com", store.EmailSent)
	if kept, _ := db.Outbox(context.Background(), "a@example.com"); len(kept) != 0 {
		t.Fatalf("rolled back message kept: %+v", kept)
	}
	if msgs := srv.Messages(); len(msgs) != 1 || msgs[0].To != "b@example.com" {
		t.Fatalf("sent: %+v", msgs)
	}
}

func TestWithoutSMTPTheLinkIsLogged(t *testing.T) {
	db := testdb.Open(t, store.SQLite, true)
	logs := &syncWriter{}
	o := outbox(t, db, slog.New(slog.NewTextHandler(logs, nil)), nil)
	if o.Delivers() {
		t.Fatal("outbox without SMTP says it delivers")
	}
	if err := o.Send(context.Background(), Message{To: "a@example.com", Subject: "Hi", Link: "http://localhost:8080/invite?inviteToken=t", Kind: KindInvitation}); err != nil {
		t.Fatal(err)
	}
	e := waitStatus(t, db, "a@example.com", store.EmailKept)
	if !strings.Contains(logs.String(), "inviteToken=t") || !strings.Contains(logs.String(), "to=a@example.com") {
		t.Fatalf("link not logged: %s", logs.String())
	}
	if e.Attempts != 0 || e.SentAt == nil {
		t.Fatalf("kept: %+v", e)
	}
	if !strings.Contains(LinkSent(o, "a@example.com"), "server log") {
		t.Fatal("the wording claims an e-mail was sent")
	}
}

// A relay that refuses is tried again: the message is failed with the reason, then sent.
func TestAFailedDeliveryIsRetried(t *testing.T) {
	db := testdb.Open(t, store.SQLite, true)
	calls := 0
	s, _ := ParseSMTP("smtp://127.0.0.1:1", "betty@example.com")
	srv := smtptest.Start(t)
	real := s.send
	s.Addr = srv.Addr()
	s.send = func(addr string, a smtpAuth, from string, to []string, msg []byte) error {
		calls++
		if calls == 1 {
			return errRelayDown
		}
		return real(addr, a, from, to, msg)
	}
	o := outbox(t, db, slog.New(slog.NewTextHandler(io.Discard, nil)), s)
	if err := o.Send(context.Background(), Message{To: "a@example.com", Subject: "Hi", Kind: KindInvitation}); err != nil {
		t.Fatal(err)
	}
	failed := waitStatus(t, db, "a@example.com", store.EmailFailed)
	if failed.Error != errRelayDown.Error() || failed.Attempts != 1 {
		t.Fatalf("failed: %+v", failed)
	}
	sent := waitStatus(t, db, "a@example.com", store.EmailSent)
	if sent.Attempts != 2 || sent.Error != "" || len(srv.Messages()) != 1 {
		t.Fatalf("sent: %+v, relay got %d", sent, len(srv.Messages()))
	}
}

func TestParseSMTP(t *testing.T) {
	if s, err := ParseSMTP("", ""); s != nil || err != nil {
		t.Fatal("empty URL must mean no SMTP")
	}
	for _, bad := range [][2]string{{"http://x", "a@b.c"}, {"smtp://host:25", ""}} {
		if _, err := ParseSMTP(bad[0], bad[1]); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	s, err := ParseSMTP("smtp://user:pw@mail.example.com", "betty@example.com")
	if err != nil || s.Addr != "mail.example.com:587" || s.Auth == nil {
		t.Fatalf("%+v %v", s, err)
	}
}
