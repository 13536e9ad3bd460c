// Package events is the team's live event stream: "entity id of the team changed", recorded
// in the transaction of the change (Publish) and read back in order by every replica's
// stream (GET /v1/events), which renders the entity as it is when it sends the event. Events
// are kept Retention (10 minutes): a client that reconnects with the id of an event still
// kept gets what it missed (at most MaxReplay events), otherwise one reset.
//
// Order across replicas: ids increase in commit order (on SQLite the one writer hands them
// out; on PostgreSQL they are numbered at commit under a transaction lock, migration 00010),
// so an event never commits behind the position a reader has reached. The price on
// PostgreSQL: transactions that publish events commit one at a time (only their last
// instant, the commit itself, is serialised).
package events

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// The event types (the contract's EventType).
const (
	JobUpdated       = "job.updated"
	CallUpdated      = "call.updated"
	CampaignUpdated  = "campaign.updated"
	KnowledgeUpdated = "knowledge.updated"
	InboxUpdated     = "inbox.updated"
)

const (
	// Retention is how long an event is kept, and so how far back a client can resume.
	Retention = 10 * time.Minute
	// MaxReplay is how many missed events a resuming client is sent at most; more is a reset.
	MaxReplay = 1000
	// batch is how many events one read answers.
	batch = 200
)

// Event is one change to send.
type Event struct {
	// ID is the event's opaque id (what a client sends back as Last-Event-ID).
	ID       string
	Type     string
	EntityID string
}

// Service records and reads events.
type Service struct {
	db        *store.DB
	now       func() time.Time
	poll      time.Duration
	keepAlive time.Duration

	closeOnce sync.Once
	done      chan struct{}
	listeners []Listener
}

// Listener is told of each event Publish records, in the publisher's transaction (ctx); its
// error fails the publish (and so the change). Zapier's REST hooks listen.
type Listener func(ctx context.Context, orgID, typ, id string) error

// Listen adds l; call it at start-up, before anything publishes.
func (s *Service) Listen(l Listener) { s.listeners = append(s.listeners, l) }

// Option tunes the service.
type Option func(*Service)

// WithPoll sets how often a stream looks for new events (500 ms by default).
func WithPoll(d time.Duration) Option { return func(s *Service) { s.poll = d } }

// WithKeepAlive sets how often an idle stream sends a comment (25 s by default).
func WithKeepAlive(d time.Duration) Option { return func(s *Service) { s.keepAlive = d } }

// WithClock sets the clock.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns the service and registers on q the periodic job that deletes the events older
// than Retention (every minute, on the leader replica).
func New(db *store.DB, q *jobs.Queue, opts ...Option) *Service {
	s := &Service{db: db, now: time.Now, poll: 500 * time.Millisecond, keepAlive: 25 * time.Second, done: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	if q != nil {
		jobs.Register(q, &pruner{s: s})
		jobs.Periodic(q, time.Minute, func() river.JobArgs { return pruneArgs{} })
	}
	return s
}

// Publisher records that an entity of a team changed, in the transaction in ctx: what the
// writers of calls, campaigns and knowledge are given (a Service, or nil for no live events).
type Publisher interface {
	Publish(ctx context.Context, orgID, typ, id string) error
}

// Publish records that entity id of team orgID changed, in the transaction in ctx (the
// runs.Events port).
func (s *Service) Publish(ctx context.Context, orgID, typ, id string) error {
	if err := s.db.AddEvent(ctx, orgID, typ, id); err != nil {
		return err
	}
	for _, l := range s.listeners {
		if err := l(ctx, orgID, typ, id); err != nil {
			return err
		}
	}
	return nil
}

// Prune deletes the events older than Retention and answers how many.
func (s *Service) Prune(ctx context.Context) (int, error) {
	return s.db.PruneEvents(ctx, s.now().Add(-Retention))
}

// Close ends every stream (at shutdown, so open connections do not hold it up).
func (s *Service) Close() { s.closeOnce.Do(func() { close(s.done) }) }

// Done is closed by Close.
func (s *Service) Done() <-chan struct{} { return s.done }

// Poll is how often a stream looks for new events.
func (s *Service) Poll() time.Duration { return s.poll }

// KeepAlive is how often an idle stream sends a comment, so proxies keep it open.
func (s *Service) KeepAlive() time.Duration { return s.keepAlive }

// Cursor is where a stream is in a team's events.
type Cursor struct {
	orgID string
	types []string
	pos   store.EventPosition
}

// Open starts a stream of team orgID's events of types (all when none). With lastEventID
// (the Last-Event-ID of a reconnecting client) the stream resumes after it when that event
// is still kept and at most MaxReplay events followed; otherwise, and without one, it starts
// after the latest event, and reset says the client missed events it cannot be sent.
func (s *Service) Open(ctx context.Context, orgID, lastEventID string, types []string) (c Cursor, reset bool, err error) {
	c = Cursor{orgID: orgID, types: types}
	if lastEventID != "" {
		if pos, ok := parseID(lastEventID); ok {
			kept, err := s.db.EventKept(ctx, orgID, pos, s.now().Add(-Retention))
			if err != nil {
				return c, false, err
			}
			if kept {
				missed, err := s.db.EventsAfter(ctx, orgID, pos, types, MaxReplay+1)
				if err != nil {
					return c, false, err
				}
				if len(missed) <= MaxReplay {
					c.pos = pos
					return c, false, nil
				}
			}
		}
		reset = true
	}
	c.pos, err = s.db.LastEventPosition(ctx, orgID)
	return c, reset, err
}

// Position is the id of the cursor's place ("" before any event).
func (c Cursor) Position() string {
	if c.pos == (store.EventPosition{}) {
		return ""
	}
	return formatID(c.pos)
}

// Next answers the events after the cursor (up to a batch) and the cursor after them.
func (s *Service) Next(ctx context.Context, c Cursor) ([]Event, Cursor, error) {
	rows, err := s.db.EventsAfter(ctx, c.orgID, c.pos, c.types, batch)
	if err != nil {
		return nil, c, err
	}
	out := make([]Event, len(rows))
	for i, r := range rows {
		c.pos = store.EventPosition{Tx: r.Tx, ID: r.ID}
		out[i] = Event{ID: formatID(c.pos), Type: r.Type, EntityID: r.EntityID}
	}
	return out, c, nil
}

// formatID writes a position as an id: the row id on SQLite, "<tx>-<id>" on PostgreSQL.
func formatID(p store.EventPosition) string {
	if p.Tx == 0 {
		return strconv.FormatInt(p.ID, 10)
	}
	return fmt.Sprintf("%d-%d", p.Tx, p.ID)
}

func parseID(s string) (store.EventPosition, bool) {
	tx, id, found := strings.Cut(s, "-")
	if !found {
		tx, id = "0", s
	}
	t, err1 := strconv.ParseInt(tx, 10, 64)
	i, err2 := strconv.ParseInt(id, 10, 64)
	if err1 != nil || err2 != nil || t < 0 || i <= 0 {
		return store.EventPosition{}, false
	}
	return store.EventPosition{Tx: t, ID: i}, true
}

type pruneArgs struct{}

func (pruneArgs) Kind() string { return "events_prune" }

type pruner struct {
	river.WorkerDefaults[pruneArgs]
	s *Service
}

func (w *pruner) Work(ctx context.Context, _ *river.Job[pruneArgs]) error {
	_, err := w.s.Prune(ctx)
	return err
}
