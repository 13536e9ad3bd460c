// Package mail is Betty's e-mail (confirmation, invitations, ownership transfer, password
// reset, verification notices). A message is written to the database outbox in the same
// transaction as the change that causes it, together with a background job (package jobs)
// that sends it: through SMTP when configured; otherwise it stays in the outbox and its link
// is written to the log so a local user can follow it. Each domain writes its own messages
// (teams/mail.go, identity/mail.go); this package only carries them.
package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// Kind names what a message is for (the contract's OutboxMessage kinds).
type Kind string

const (
	KindConfirmEmail        Kind = "confirm-email"
	KindPasswordReset       Kind = "password-reset"
	KindInvitation          Kind = "invitation"
	KindOwnershipTransfer   Kind = "ownership-transfer"
	KindVerificationRequest Kind = "verification-request"
	KindVerificationLevel   Kind = "verification-level"
)

// Message is one e-mail.
type Message struct {
	To      string
	Kind    Kind
	Subject string
	Text    string
	// Link is the one action the message asks for (also in Text), or "".
	Link string
}

// Mailer is what the domains send with.
type Mailer interface {
	// Send writes the message to the outbox and queues its delivery, in the transaction of
	// ctx when there is one (then it is sent only if that transaction commits).
	Send(ctx context.Context, m Message) error
	// Delivers says whether messages really leave the server (SMTP configured). E-mail
	// confirmation is only required when they do.
	Delivers() bool
}

// Outbox is the Mailer: the outbox table and the job that empties it.
type Outbox struct {
	db   *store.DB
	jobs *jobs.Queue
	log  *slog.Logger
	smtp *SMTP
}

// NewOutbox returns the mailer and registers its sending job on q; s may be nil (no SMTP).
func NewOutbox(db *store.DB, q *jobs.Queue, log *slog.Logger, s *SMTP) *Outbox {
	o := &Outbox{db: db, jobs: q, log: log, smtp: s}
	jobs.Register(q, &sender{o: o})
	return o
}

// Delivers says whether SMTP is configured.
func (o *Outbox) Delivers() bool { return o.smtp != nil }

// Send writes m to the outbox with its sending job.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	return o.db.InTx(ctx, func(ctx context.Context) error {
		e := &store.Email{Recipient: m.To, Subject: m.Subject, Body: m.Text, Link: m.Link, Kind: string(m.Kind)}
		if err := o.db.InsertEmail(ctx, e); err != nil {
			return err
		}
		return o.jobs.Insert(ctx, sendArgs{EmailID: e.ID}, nil)
	})
}

// LinkSent says, in plain words, where a link meant for to went: the honest sentence for a
// screen or a CLI after Send.
func LinkSent(m Mailer, to string) string {
	if m.Delivers() {
		return "We have e-mailed " + to + " a link."
	}
	return "This server sends no e-mail (no SMTP relay is configured), so the link for " + to +
		" was written to the server log; a site admin can also list it with `betty admin mail list`."
}

// sendArgs is the job that delivers one outbox message.
type sendArgs struct {
	EmailID string `json:"emailId"`
}

func (sendArgs) Kind() string { return "send_email" }

type sender struct {
	river.WorkerDefaults[sendArgs]
	o *Outbox
}

func (w *sender) Timeout(*river.Job[sendArgs]) time.Duration { return 30 * time.Second }

// Work delivers a message once: a message already sent or kept is left alone, so a job worked
// twice (River is at least once) sends nothing twice. A failed attempt is recorded and
// returned, and River tries again with backoff. (A crash after the relay accepted a message
// but before it is marked sent would send it again: SMTP gives no way to ask.)
func (w *sender) Work(ctx context.Context, job *river.Job[sendArgs]) error {
	o := w.o
	e, err := o.db.EmailByID(ctx, job.Args.EmailID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if e.Status == store.EmailSent || e.Status == store.EmailKept {
		return nil
	}
	if o.smtp == nil {
		o.log.InfoContext(ctx, "e-mail kept in the outbox (no SMTP configured): follow its link to act on it",
			"to", e.Recipient, "kind", e.Kind, "subject", e.Subject, "link", e.Link)
		return o.db.SettleEmail(ctx, e.ID, store.EmailKept)
	}
	if err := o.smtp.send(o.smtp.Addr, o.smtp.Auth, o.smtp.From, []string{e.Recipient}, o.smtp.render(e)); err != nil {
		o.log.WarnContext(ctx, "e-mail not sent; it will be tried again", "to", e.Recipient, "kind", e.Kind,
			"attempt", job.Attempt, "err", err)
		if ferr := o.db.FailEmail(ctx, e.ID, err.Error()); ferr != nil {
			return errors.Join(err, ferr)
		}
		return err
	}
	o.log.InfoContext(ctx, "e-mail sent", "to", e.Recipient, "kind", e.Kind)
	return o.db.SettleEmail(ctx, e.ID, store.EmailSent)
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

func (s *SMTP) render(e store.Email) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: Betty <%s>\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\n", header(s.From), header(e.Recipient),
		mime.QEncoding.Encode("utf-8", header(e.Subject)), time.Now().UTC().Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <%s@betty>\r\n", e.ID)
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(e.Body, "\n", "\r\n"))
	return []byte(b.String())
}

// header keeps a header value on one line: a subject naming a team cannot add headers.
func header(v string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(v) }

// List lists the outbox newest first, to one recipient when recipient is not empty, and how
// many messages match (site admins read it: without SMTP it is where links go).
func (o *Outbox) List(ctx context.Context, recipient string, limit, offset int) ([]store.Email, int, error) {
	return o.db.ListOutbox(ctx, recipient, limit, offset)
}
