package mail

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// fakeSMTP speaks enough of RFC 5321 for net/smtp: greeting, EHLO, MAIL, RCPT, DATA, QUIT.
type fakeSMTP struct {
	ln   net.Listener
	mu   sync.Mutex
	msgs []string
	rcpt []string
}

func startSMTP(t *testing.T) *fakeSMTP {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeSMTP{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *fakeSMTP) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	say := func(line string) { io.WriteString(c, line+"\r\n") }
	say("220 fake ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			say("250 fake")
		case strings.HasPrefix(cmd, "MAIL FROM"):
			say("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO"):
			s.mu.Lock()
			s.rcpt = append(s.rcpt, strings.TrimSpace(line[len("RCPT TO:"):]))
			s.mu.Unlock()
			say("250 ok")
		case cmd == "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil || l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			s.mu.Lock()
			s.msgs = append(s.msgs, b.String())
			s.mu.Unlock()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}

func TestSMTPDeliversAndKeepsACopy(t *testing.T) {
	srv := startSMTP(t)
	db := testdb.Open(t, store.SQLite, true)
	s, err := ParseSMTP("smtp://"+srv.ln.Addr().String(), "betty@example.com")
	if err != nil {
		t.Fatal(err)
	}
	o := NewOutbox(db, slog.New(slog.NewTextHandler(io.Discard, nil)), s)
	if !o.Delivers() {
		t.Fatal("SMTP outbox does not deliver")
	}
	err = o.Send(context.Background(), Message{To: "Ada@Example.com", Subject: "Confirm", Text: "Open https://x/confirm?token=abc\n",
		Link: "https://x/confirm?token=abc", Kind: "confirm-email"})
	if err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.msgs) != 1 || !strings.Contains(srv.msgs[0], "Subject: Confirm\r\n") || !strings.Contains(srv.msgs[0], "token=abc") ||
		srv.rcpt[0] != "<Ada@Example.com>" {
		t.Fatalf("delivered: %q to %v", srv.msgs, srv.rcpt)
	}
	kept, err := db.Outbox(context.Background(), "ada@example.com")
	if err != nil || len(kept) != 1 || kept[0].SentAt == nil || kept[0].Link != "https://x/confirm?token=abc" {
		t.Fatalf("outbox: %+v %v", kept, err)
	}
}

func TestWithoutSMTPTheLinkIsLogged(t *testing.T) {
	db := testdb.Open(t, store.SQLite, true)
	var logs strings.Builder
	o := NewOutbox(db, slog.New(slog.NewTextHandler(&logs, nil)), nil)
	if o.Delivers() {
		t.Fatal("outbox without SMTP says it delivers")
	}
	if err := o.Send(context.Background(), Message{To: "a@example.com", Subject: "Hi", Link: "http://localhost:8080/invite?inviteToken=t", Kind: "invitation"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "inviteToken=t") {
		t.Fatalf("link not logged: %s", logs.String())
	}
	if kept, _ := db.Outbox(context.Background(), "a@example.com"); len(kept) != 1 || kept[0].SentAt != nil {
		t.Fatalf("outbox: %+v", kept)
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
