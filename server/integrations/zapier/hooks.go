package zapier

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// Event is a trigger a REST hook subscribes to (the contract's ZapierHookEvent).
type Event string

// The events.
const (
	CallCompleted    Event = "call.completed"
	JobFinished      Event = "job.finished"
	InboxItemCreated Event = "inbox.item.created"
	ContactAdded     Event = "contact.added"
)

// Events lists every event.
var Events = []Event{CallCompleted, JobFinished, InboxItemCreated, ContactAdded}

// streamEvents maps the live stream's "entity changed" types (server/events) to the hook
// event they may be: the entity is asked whether it is in that event's state (Entities).
var streamEvents = map[string]Event{"call.updated": CallCompleted, "job.updated": JobFinished, "inbox.updated": InboxItemCreated}

// Rules of the REST hooks.
const (
	// MaxHooks is how many subscriptions an organisation may have.
	MaxHooks = 50
	// MaxSamples is how many recent payloads of an event a sample answers.
	MaxSamples = 3
	// DeliveryAttempts is one delivery and its retries.
	DeliveryAttempts = 4
	// DeliveryTimeout bounds one POST to a hook URL.
	DeliveryTimeout = 10 * time.Second
)

// DefaultRetryDelays are the waits before each retry: 3 retries over about 15 minutes.
var DefaultRetryDelays = []time.Duration{time.Minute, 4 * time.Minute, 10 * time.Minute}

// Entities renders what an event names as its hook payload: the entity's JSON exactly as the
// API answers it. The HTTP layer implements it (its renderers are the contract's); whether the
// entity is delivered is Due's to say, here.
type Entities interface {
	// Render answers the payload of entity id for event ev (nil when it is gone) and the
	// entity's State.
	Render(ctx context.Context, orgID string, ev Event, id string) (payload []byte, st State, err error)
	// Example is a made-up payload of ev, for an organisation without one yet.
	Example(ev Event) []byte
}

// State is what an entity tells of the event it may be.
type State struct {
	// Final: a call log with a final status, a run that is no longer in progress.
	Final bool
	// Test: a test run (the person's own check of a flow).
	Test bool
	// Created and Deleted: an inbox item's.
	Created time.Time
	Deleted bool
}

// FreshInbox is how new an inbox item must be for its change to be inbox.item.created: a
// later change to an item (its priority, its visibility) is not a creation.
const FreshInbox = 10 * time.Minute

// Due says whether an entity in state st is an ev at now: a call that ended, a run (not a
// test run) that finished, an inbox item made in the last FreshInbox and not deleted; a
// contact is one when it is added.
func Due(ev Event, st State, now time.Time) bool {
	switch ev {
	case CallCompleted:
		return st.Final
	case JobFinished:
		return st.Final && !st.Test
	case InboxItemCreated:
		return !st.Deleted && now.Sub(st.Created) < FreshInbox
	case ContactAdded:
		return true
	}
	return false
}

// HooksConfig tunes deliveries.
type HooksConfig struct {
	// HTTP posts deliveries (default: conversation.NewWebhookClient, which dials only public
	// addresses and follows no redirect, with DeliveryTimeout).
	HTTP *http.Client
	// Allow says whether a hook URL's address may be subscribed (default
	// conversation.AllowPublic); Resolve looks a host up (default net.DefaultResolver).
	Allow   func(netip.Addr) bool
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// RetryDelays are the waits before each retry (default DefaultRetryDelays).
	RetryDelays []time.Duration
}

// Hooks keeps the organisation's REST-hook subscriptions and delivers their events.
type Hooks struct {
	db       *store.DB
	jobs     *jobs.Queue
	entities Entities
	cfg      HooksConfig
	log      *slog.Logger
}

// NewHooks builds the service and registers its delivery worker on q.
func NewHooks(db *store.DB, q *jobs.Queue, entities Entities, log *slog.Logger, cfg HooksConfig) *Hooks {
	if cfg.Allow == nil {
		cfg.Allow = conversation.AllowPublic
	}
	if cfg.HTTP == nil {
		cfg.HTTP = conversation.NewWebhookClient(conversation.WebhookOptions{Timeout: DeliveryTimeout, Allow: cfg.Allow})
	}
	if cfg.Resolve == nil {
		cfg.Resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if len(cfg.RetryDelays) == 0 {
		cfg.RetryDelays = DefaultRetryDelays
	}
	if log == nil {
		log = slog.Default()
	}
	h := &Hooks{db: db, jobs: q, entities: entities, cfg: cfg, log: log}
	jobs.Register(q, &deliverer{h: h})
	return h
}

// Hook is a subscription.
type Hook = store.ZapierHook

// ParseEvent reads an event name (422 naming field otherwise).
func ParseEvent(s, field string) (Event, error) {
	for _, e := range Events {
		if string(e) == s {
			return e, nil
		}
	}
	return "", errs.InvalidField(field, fmt.Sprintf("%q is not an event a hook can subscribe to", s))
}

// Subscribe subscribes hookURL to ev for the actor's organisation (an API key). The same URL
// and event again answers the existing subscription (created false).
func (h *Hooks) Subscribe(ctx context.Context, a auth.Actor, hookURL string, ev Event) (Hook, bool, error) {
	if err := h.checkURL(ctx, hookURL); err != nil {
		return Hook{}, false, err
	}
	orgID := a.OrganizationID
	if existing, err := h.db.ZapierHookByURL(ctx, orgID, string(ev), hookURL); err == nil {
		return existing, false, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return Hook{}, false, err
	}
	var out Hook
	created := false
	err := h.db.InTx(ctx, func(ctx context.Context) error {
		n, err := h.db.CountZapierHooks(ctx, orgID)
		if err != nil {
			return err
		}
		if n >= MaxHooks {
			return errs.WithCode(errs.Unprocessable, errs.CodeLimitReached,
				fmt.Sprintf("This team has %d Zapier hooks, the most it may have: turn off zaps it no longer uses.", MaxHooks))
		}
		out = Hook{OrganizationID: orgID, Event: string(ev), HookURL: hookURL}
		if a.APIKeyID != "" {
			out.APIKeyID = &a.APIKeyID
		}
		created, err = h.db.AddZapierHook(ctx, &out)
		return err
	})
	return out, created, err
}

// checkURL refuses a hook URL that is not https or whose host is (or resolves to) an address
// Allow refuses. Deliveries check the address again when they dial (DNS may change).
func (h *Hooks) checkURL(ctx context.Context, raw string) error {
	const field = "body.hookUrl"
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Hostname() == "" || u.User != nil {
		return errs.InvalidField(field, "the hook URL must be an absolute https URL")
	}
	host := u.Hostname()
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		addrs, err = h.cfg.Resolve(rctx, host)
		cancel()
		if err != nil || len(addrs) == 0 {
			return &errs.Error{Kind: errs.Unprocessable, Message: fmt.Sprintf("The hook URL's host %q does not resolve.", host),
				Fields: []errs.Field{{Name: field, Message: "the host does not resolve"}}}
		}
	}
	for _, ip := range addrs {
		if !h.cfg.Allow(ip.Unmap()) {
			return &errs.Error{Kind: errs.Unprocessable,
				Message: "The hook URL points at a private, loopback or link-local address; Betty only posts to public addresses.",
				Fields:  []errs.Field{{Name: field, Message: "the address is private, loopback or link-local"}}}
		}
	}
	return nil
}

// Unsubscribe removes the organisation's subscription id (404 for another organisation's or
// one already removed).
func (h *Hooks) Unsubscribe(ctx context.Context, orgID, id string) error {
	err := h.db.DeleteZapierHook(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Zapier hook")
	}
	return err
}

// List answers the organisation's subscriptions, newest first, each with its latest delivery
// (at most MaxHooks of them: one indexed read each).
func (h *Hooks) List(ctx context.Context, orgID string) ([]Hook, error) {
	hooks, err := h.db.ZapierHooks(ctx, orgID, "")
	if err != nil {
		return nil, err
	}
	for i := range hooks {
		d, err := h.db.LastZapierDelivery(ctx, orgID, hooks[i].ID)
		switch {
		case err == nil:
			hooks[i].LastDelivery = &d
		case !errors.Is(err, store.ErrNotFound):
			return nil, err
		}
	}
	return hooks, nil
}

// Samples answers the payloads of up to MaxSamples recent entities of ev in the organisation,
// newest first, rendered as a delivery would be; one made-up example when it has none.
func (h *Hooks) Samples(ctx context.Context, orgID string, ev Event) ([][]byte, error) {
	ids, err := h.db.RecentEntityIDs(ctx, orgID, string(ev), MaxSamples)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(ids))
	for _, id := range ids {
		payload, _, err := h.entities.Render(ctx, orgID, ev, id)
		if err != nil {
			return nil, err
		}
		if payload != nil {
			out = append(out, payload)
		}
	}
	if len(out) == 0 {
		out = append(out, h.entities.Example(ev))
	}
	return out, nil
}

// Listen is the events.Listener of the REST hooks: an "entity changed" event that is a hook
// event's (a call log that ended, a run that finished, a new inbox item) is delivered to each
// subscription of the organisation, once per entity, by River jobs inserted in the
// publisher's transaction.
func (h *Hooks) Listen(ctx context.Context, orgID, typ, id string) error {
	ev, ok := streamEvents[typ]
	if !ok {
		return nil
	}
	return h.Fire(ctx, orgID, ev, id)
}

// Fire records that entity id of the organisation may be an ev: when the organisation has
// subscriptions to ev and the entity is in ev's state, a delivery is made for each (in ctx's
// transaction). An entity is delivered once per subscription, however often it changes.
// Without subscriptions it costs one indexed read.
func (h *Hooks) Fire(ctx context.Context, orgID string, ev Event, id string) error {
	subs, err := h.db.ZapierHooks(ctx, orgID, string(ev))
	if err != nil || len(subs) == 0 {
		return err
	}
	payload, st, err := h.entities.Render(ctx, orgID, ev, id)
	if err != nil || payload == nil || !Due(ev, st, time.Now()) {
		return err
	}
	for _, s := range subs {
		d := store.ZapierDelivery{OrganizationID: orgID, HookID: s.ID, Event: string(ev), EntityID: id, Payload: string(payload)}
		added, err := h.db.AddZapierDelivery(ctx, &d)
		if err != nil {
			return err
		}
		if added {
			if err := h.jobs.Insert(ctx, deliverArgs{OrganizationID: orgID, DeliveryID: d.ID},
				&river.InsertOpts{MaxAttempts: DeliveryAttempts}); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrHookFailed is a delivery the hook URL did not accept (River retries it).
var ErrHookFailed = errors.New("zapier: the hook did not accept the delivery")

// Deliver posts a delivery's payload to its hook URL: 2xx delivers it, 410 Gone unsubscribes
// the hook (Zapier's convention), anything else fails this attempt (an error, so River
// retries it, until lastAttempt). A delivery done already, or whose hook is gone, is done.
func (h *Hooks) Deliver(ctx context.Context, orgID, deliveryID string, lastAttempt bool) error {
	d, err := h.db.ZapierDeliveryByID(ctx, orgID, deliveryID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil || d.Status != store.DeliveryPending {
		return err
	}
	hook, err := h.db.ZapierHookByID(ctx, orgID, d.HookID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, DeliveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(pctx, http.MethodPost, hook.HookURL, strings.NewReader(d.Payload))
	if err != nil {
		return h.failed(ctx, d, nil, err.Error(), true)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Betty-Zapier-Hooks/1")
	req.Header.Set("X-Betty-Event", d.Event)
	req.Header.Set("X-Betty-Delivery", d.ID)
	res, err := h.cfg.HTTP.Do(req)
	if err != nil {
		h.log.InfoContext(ctx, "zapier: a hook was not reached", "hook", hook.ID, "delivery", d.ID, "err", err)
		return h.failed(ctx, d, nil, unreached(err), lastAttempt)
	}
	res.Body.Close()
	code := res.StatusCode
	switch {
	case code >= 200 && code < 300:
		return h.db.RecordZapierAttempt(ctx, orgID, d.ID, store.DeliveryDelivered, &code, nil)
	case code == http.StatusGone:
		h.log.InfoContext(ctx, "zapier: a hook answered 410 Gone; it is unsubscribed", "hook", hook.ID, "org", orgID)
		err := h.db.InTx(ctx, func(ctx context.Context) error { return h.db.DeleteZapierHook(ctx, orgID, hook.ID) })
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	}
	return h.failed(ctx, d, &code, fmt.Sprintf("the hook answered %d", code), lastAttempt)
}

// unreached says in plain words why a hook was not reached (shown with the hook's last
// delivery; the cause is logged).
func unreached(err error) string {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return fmt.Sprintf("the hook did not answer within %d seconds", int(DeliveryTimeout.Seconds()))
	}
	return "the hook could not be reached"
}

func (h *Hooks) failed(ctx context.Context, d store.ZapierDelivery, code *int, why string, last bool) error {
	status := store.DeliveryPending
	if last {
		status = store.DeliveryFailed
	}
	if err := h.db.RecordZapierAttempt(ctx, d.OrganizationID, d.ID, status, code, &why); err != nil {
		return err
	}
	if last {
		h.log.WarnContext(ctx, "zapier: a delivery failed for good", "delivery", d.ID, "hook", d.HookID, "why", why)
		return nil
	}
	return fmt.Errorf("%w: %s", ErrHookFailed, why)
}

// deliverArgs is the River job of one delivery.
type deliverArgs struct {
	OrganizationID string `json:"organizationId"`
	DeliveryID     string `json:"deliveryId"`
}

func (deliverArgs) Kind() string { return "zapier_hook_delivery" }

type deliverer struct {
	river.WorkerDefaults[deliverArgs]
	h *Hooks
}

func (w *deliverer) Work(ctx context.Context, job *river.Job[deliverArgs]) error {
	return w.h.Deliver(ctx, job.Args.OrganizationID, job.Args.DeliveryID, job.Attempt >= job.MaxAttempts)
}

// Timeout bounds a delivery job: one POST and its bookkeeping.
func (w *deliverer) Timeout(*river.Job[deliverArgs]) time.Duration {
	return DeliveryTimeout + 20*time.Second
}

// NextRetry spaces the retries by RetryDelays (about 15 minutes for the three).
func (w *deliverer) NextRetry(job *river.Job[deliverArgs]) time.Time {
	d := w.h.cfg.RetryDelays
	i := min(max(job.Attempt-1, 0), len(d)-1)
	return time.Now().Add(d[i])
}

// ContactAdded fires contact.added for a contact new to a node (workflows.ContactAdded).
func (h *Hooks) ContactAdded(ctx context.Context, orgID, contactID string) error {
	return h.Fire(ctx, orgID, ContactAdded, contactID)
}
