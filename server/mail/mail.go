// Package mail sends Betty's e-mail (confirmation, invitations, ownership transfer, password
// reset). Every message is kept in the database outbox. With SMTP configured it is also sent;
// without, its link is written to the log so a local user can follow it.
package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/store"
)

// Message is one e-mail.
type Message struct {
	To      string
	Subject string
	Text    string
	// Link is the one action the message asks for (also in Text).
	Link string
	// Kind names the message for the outbox (confirm-email, invitation, …).
	Kind string
}

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
	// Delivers says whether messages really leave the server (SMTP configured). E-mail
	// confirmation is only required when they do.
	Delivers() bool
}

// Outbox keeps every message in the database and sends it by SMTP when configured.
type Outbox struct {
	db   *store.DB
	log  *slog.Logger
	smtp *SMTP
}

// SMTP is an SMTP relay: smtp://user:password@host:port (STARTTLS when offered).
type SMTP struct {
	Addr string
	Auth smtp.Auth
	From string
	send func(addr string, a smtp.Auth, from string, to []string, msg []byte) error
}

// ParseSMTP reads an smtp:// URL and a from address. An empty URL means no SMTP (nil).
func ParseSMTP(raw, from string) (*SMTP, error) {
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" {
		return nil, fmt.Errorf("smtp_url: want smtp://user:password@host:port")
	}
	if from == "" {
		return nil, fmt.Errorf("mail_from: required with smtp_url")
	}
	port := u.Port()
	if port == "" {
		port = "587"
	}
	s := &SMTP{Addr: net.JoinHostPort(u.Hostname(), port), From: from, send: smtp.SendMail}
	if u.User != nil {
		pw, _ := u.User.Password()
		s.Auth = smtp.PlainAuth("", u.User.Username(), pw, u.Hostname())
	}
	return s, nil
}

// NewOutbox returns the mailer; s may be nil (no SMTP).
func NewOutbox(db *store.DB, log *slog.Logger, s *SMTP) *Outbox {
	return &Outbox{db: db, log: log, smtp: s}
}

// Delivers says whether SMTP is configured.
func (o *Outbox) Delivers() bool { return o.smtp != nil }

// Send records the message and delivers it (SMTP) or logs its link.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	e := &store.Email{Recipient: m.To, Subject: m.Subject, Body: m.Text, Link: m.Link, Kind: m.Kind}
	if o.smtp == nil {
		if err := o.db.InsertEmail(ctx, e); err != nil {
			return err
		}
		o.log.InfoContext(ctx, "e-mail kept in the outbox (no SMTP configured): follow its link to act on it",
			"to", m.To, "kind", m.Kind, "subject", m.Subject, "link", m.Link)
		return nil
	}
	err := o.smtp.send(o.smtp.Addr, o.smtp.Auth, o.smtp.From, []string{m.To}, o.smtp.render(m))
	if err != nil {
		e.Error = err.Error()
		o.log.ErrorContext(ctx, "e-mail not sent", "to", m.To, "kind", m.Kind, "err", err)
	} else {
		t := time.Now().UTC()
		e.SentAt = &t
	}
	if ierr := o.db.InsertEmail(ctx, e); ierr != nil {
		return ierr
	}
	return err
}

func (s *SMTP) render(m Message) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: Betty <%s>\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\n", s.From, m.To, m.Subject, time.Now().UTC().Format(time.RFC1123Z))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(m.Text, "\n", "\r\n"))
	return []byte(b.String())
}
