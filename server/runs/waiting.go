package runs

// Why a job's contacts wait: the queued attempts that are not dialled now, grouped by the
// rule of the dialer (dialer.go, rules.go) that holds them, each with a count, when it lets
// go and a sentence for people. The job status, the run panel, `betty workflow run --wait`,
// the SDK's WaitForJob and the live events all show these, and a run preview answers them
// before a run starts.
//
// Decisions where the spec is silent:
//   - One reason per contact, in the order the dialer checks them: a paused campaign, then
//     credits (both hold the whole job), then the calling window, the frequency cap, a retry's
//     delay, and last the free lines (concurrency). A contact outside its window and over the
//     cap is counted for the window only: that is what the dialer meets first.
//   - The instant given is the earliest of the group, in the time zone of the contact it
//     belongs to (contacts may span zones: "the next opens" is the first one that opens).
//   - Durations are cut down, not rounded: Sat 14:02 to Mon 09:00 is "1 d 18 h".

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// WaitReason is why contacts of a job wait (the contract's JobWaitingReason).
type WaitReason string

// The reasons, in the order the dialer meets them.
const (
	WaitCampaignPaused WaitReason = "campaign-paused"
	WaitCredits        WaitReason = "credits"
	WaitCallingWindow  WaitReason = "calling-window"
	WaitFrequencyCap   WaitReason = "frequency-cap"
	WaitRetry          WaitReason = "retry"
	WaitConcurrency    WaitReason = "concurrency"
)

var waitOrder = []WaitReason{WaitCampaignPaused, WaitCredits, WaitCallingWindow, WaitFrequencyCap, WaitRetry, WaitConcurrency}

// Waiting is one reason contacts of a job wait.
type Waiting struct {
	Reason   WaitReason
	Contacts int
	// Until is when the first of them may be dialled (nil when it depends on something else:
	// a free line, credits, the campaign being resumed).
	Until *time.Time
	// TimeZone is the zone Until is shown in ("" when none).
	TimeZone string
	Message  string
}

// Queued is an attempt not dialled yet, as the waiting rules see it.
type Queued struct {
	Phone    string
	TimeZone *string
	Attempt  int
	DueAt    time.Time
}

// WaitInput is what the rules need to say why queued attempts wait at Now.
type WaitInput struct {
	Now          time.Time
	Window       Window
	IgnoreWindow bool
	// Fallback is the zone of contacts without one (the campaign's).
	Fallback       *time.Location
	CampaignPaused bool
	// Credits is SpendCheck's answer ("" when a call may start).
	Credits string
	// FreeLines are the lines free under the concurrency limit Limit; Affordable the calls
	// the credits cover beyond those on the line (Affordable).
	FreeLines, Limit, Affordable int
	// FrequencyCap and the dials of each number in the last 24 hours (RecentDials); a test
	// run is not capped.
	FrequencyCap int
	Dials        map[string]int
	FirstDial    map[string]time.Time
	IsTest       bool
	Queued       []Queued
}

// WaitingOf groups the queued attempts that cannot be dialled at in.Now by the rule that
// holds them. Attempts the rules let through now are not waiting, up to the free lines.
func WaitingOf(in WaitInput) []Waiting {
	if len(in.Queued) == 0 {
		return []Waiting{}
	}
	type group struct {
		n     int
		until time.Time
		loc   *time.Location
	}
	groups := map[WaitReason]*group{}
	add := func(r WaitReason, until time.Time, loc *time.Location) {
		g := groups[r]
		if g == nil {
			g = &group{}
			groups[r] = g
		}
		g.n++
		if !until.IsZero() && (g.until.IsZero() || until.Before(g.until)) {
			g.until, g.loc = until, loc
		}
	}
	ready := 0
	for _, q := range in.Queued {
		loc := Location(q.TimeZone, in.Fallback)
		switch {
		case in.CampaignPaused:
			add(WaitCampaignPaused, time.Time{}, nil)
			continue
		case in.Credits != "":
			add(WaitCredits, time.Time{}, nil)
			continue
		}
		if !in.IgnoreWindow {
			if ok, next := in.Window.NextOpen(in.Now, loc); !ok {
				add(WaitCallingWindow, next, loc)
				continue
			}
		}
		if !in.IsTest {
			if ok, next := FrequencyWait(in.Dials[q.Phone], in.FrequencyCap, in.FirstDial[q.Phone]); !ok {
				add(WaitFrequencyCap, next, loc)
				continue
			}
		}
		if q.Attempt > 1 && q.DueAt.After(in.Now) {
			add(WaitRetry, q.DueAt, loc)
			continue
		}
		ready++
		switch {
		case ready <= min(in.FreeLines, in.Affordable):
		case ready <= in.FreeLines:
			add(WaitCredits, time.Time{}, nil)
		default:
			add(WaitConcurrency, time.Time{}, nil)
		}
	}
	out := []Waiting{}
	for _, r := range waitOrder {
		g := groups[r]
		if g == nil {
			continue
		}
		w := Waiting{Reason: r, Contacts: g.n}
		if !g.until.IsZero() {
			u := g.until.UTC()
			w.Until, w.TimeZone = &u, g.loc.String()
		}
		w.Message = waitMessage(w, in, g.loc)
		out = append(out, w)
	}
	return out
}

func waitMessage(w Waiting, in WaitInput, loc *time.Location) string {
	who := fmt.Sprintf("%d contacts wait", w.Contacts)
	if w.Contacts == 1 {
		who = "1 contact waits"
	}
	when := ""
	if w.Until != nil {
		when = fmt.Sprintf("%s %s (in %s)", w.Until.In(loc).Format("Mon 15:04"), w.TimeZone, InDuration(w.Until.Sub(in.Now)))
	}
	switch w.Reason {
	case WaitCampaignPaused:
		return who + " because the campaign is paused; they are called once it is resumed"
	case WaitCredits:
		if in.Credits != "" {
			return who + " for credits: " + strings.TrimSuffix(in.Credits, ".")
		}
		return who + " for credits: the balance covers only the calls on the line now"
	case WaitCallingWindow:
		if w.Until == nil {
			return who + " for their calling window, which never opens: check the campaign's calling window"
		}
		return who + " for their calling window; the next opens " + when
	case WaitFrequencyCap:
		return fmt.Sprintf("%s because their number was called %d times in 24 hours (the frequency cap); the next may be called %s", who, in.FrequencyCap, when)
	case WaitRetry:
		return who + " to be tried again; the next retry is due " + when
	case WaitConcurrency:
		return fmt.Sprintf("%s for a free line: the limit of %d calls at once is reached", who, in.Limit)
	}
	return who
}

// InDuration says d for people, cut down to two units: "2 d 6 h", "3 h 5 m", "25 m", "40 s".
func InDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0:
		return fmt.Sprintf("%d d %d h", days, hours)
	case hours > 0:
		return fmt.Sprintf("%d h %d m", hours, mins)
	case mins > 0:
		return fmt.Sprintf("%d m", mins)
	}
	return fmt.Sprintf("%d s", int(d/time.Second))
}

// maxWaitingScan bounds how many queued attempts a status reads to say why they wait.
const maxWaitingScan = 5000

// Waiting answers why a job's queued contacts wait now (none for a finished job).
func (s *Service) Waiting(ctx context.Context, j store.WorkflowJob) ([]Waiting, error) {
	if j.Status != store.JobInProgress {
		return []Waiting{}, nil
	}
	queued, err := s.db.AttemptsIn(ctx, j.ID, []store.AttemptState{store.AttemptScheduled}, s.d.Now().Add(24*365*time.Hour), maxWaitingScan)
	if err != nil || len(queued) == 0 {
		return []Waiting{}, err
	}
	st, paused, err := s.currentSettings(ctx, j)
	if err != nil {
		return nil, err
	}
	qs := make([]Queued, len(queued))
	numbers := make([]string, len(queued))
	for i, a := range queued {
		qs[i] = Queued{Phone: a.Phone, TimeZone: a.TimeZone, Attempt: a.Attempt, DueAt: a.DueAt}
		numbers[i] = a.Phone
	}
	in, err := s.waitInput(ctx, j, st, paused, numbers)
	if err != nil {
		return nil, err
	}
	in.Queued = qs
	return WaitingOf(in), nil
}

// waitInput reads what the dialer reads for a round of job j (dialer.go round) with its
// current settings st.
func (s *Service) waitInput(ctx context.Context, j store.WorkflowJob, st settings, paused bool, numbers []string) (WaitInput, error) {
	now := s.d.Now()
	in := WaitInput{Now: now, Window: st.Window, IgnoreWindow: st.IgnoreWindow, Fallback: Location(&st.Timezone, time.UTC),
		CampaignPaused: paused && !j.IsTest, FrequencyCap: s.cfg.FrequencyCap, IsTest: j.IsTest}
	balance, rate, tier, err := s.funds(ctx, j.OrganizationID)
	if err != nil {
		return in, err
	}
	in.Credits = SpendCheck(balance, rate, j.Spent, j.Budget)
	override, err := s.db.DialerLimit(ctx, j.OrganizationID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return in, err
	}
	live, err := s.db.LiveCalls(ctx, j.OrganizationID)
	if err != nil {
		return in, err
	}
	in.Limit = ConcurrencyLimit(tier, override, st.MaxConcurrent)
	in.FreeLines, in.Affordable = FreeLines(live, in.Limit), Affordable(balance, rate, j.Spent, j.Budget, live)
	if !j.IsTest && len(numbers) > 0 {
		if in.Dials, in.FirstDial, err = s.db.RecentDials(ctx, j.OrganizationID, numbers, now.Add(-24*time.Hour)); err != nil {
			return in, err
		}
	}
	return in, nil
}

// currentSettings are a job's dialing settings as they are now: those it started with, and
// for a job of a campaign, the campaign's calling window, time zone and concurrency as the
// campaign has them now (a change applies to the attempts not dialled yet). paused
// says whether the campaign is paused (its calls wait until it is resumed).
func (s *Service) currentSettings(ctx context.Context, j store.WorkflowJob) (settings, bool, error) {
	st := decodeSettings(j.Settings)
	if j.CampaignID == nil {
		return st, false, nil
	}
	c, err := s.db.CampaignByID(ctx, j.OrganizationID, *j.CampaignID)
	if errors.Is(err, store.ErrNotFound) {
		return st, false, nil // deleted meanwhile (a running campaign cannot be): keep the job's own
	}
	if err != nil {
		return st, false, err
	}
	cs := campaigns.DefaultSettings()
	_ = json.Unmarshal([]byte(c.Settings), &cs)
	if err := st.followCampaign(cs); err != nil {
		return st, false, fmt.Errorf("runs: campaign %s window: %w", c.ID, err)
	}
	return st, c.Status == store.CampaignPaused, nil
}

// followCampaign sets the settings a campaign decides for its runs while they go on: the
// calling window, its time zone and its concurrency. (Retries, the number policy, recording
// and voicemail stay as the job started: the call driver keeps a job's fixed fields.)
func (st *settings) followCampaign(cs campaigns.Settings) error {
	w, err := ParseWindow(cs.CallWindow.Start, cs.CallWindow.End, cs.CallWindow.Days)
	if err != nil {
		return err
	}
	st.Window, st.Timezone, st.MaxConcurrent = w, cs.Timezone, cs.MaxConcurrentCalls
	return nil
}

// Preview is what a run of a workflow would do if it started now (the Run dialog asks before
// starting).
type Preview struct {
	// Contacts are the contacts a run would call; DialableNow those it could dial at once.
	Contacts, DialableNow int
	// FirstCallAt is when the first call would be placed (nil: no contact waits for a time).
	FirstCallAt *time.Time
	Waiting     []Waiting
	// Message says, when nothing can be dialled now, what it waits for and when it can
	// ("" when calls can start).
	Message string
}

// Preview answers what a run of the workflow would do now, by the rules of a running job
// (WaitingOf): a job of the workflow's settings and contacts as they are, not started. What a
// run refuses (no agent, no number…) is Start's to say.
func (s *Service) Preview(ctx context.Context, a auth.Actor, workflowID string) (Preview, error) {
	wf, err := s.db.WorkflowByID(ctx, a.OrganizationID, workflowID)
	if errors.Is(err, store.ErrNotFound) {
		return Preview{}, errNoWorkflow
	}
	if err != nil {
		return Preview{}, err
	}
	st := settings{Window: DefaultWindow, Timezone: "UTC"}
	paused := false
	if wf.CampaignID != nil {
		j := store.WorkflowJob{OrganizationID: a.OrganizationID, CampaignID: wf.CampaignID, Settings: mustJSON(st)}
		if st, paused, err = s.currentSettings(ctx, j); err != nil {
			return Preview{}, err
		}
	}
	p := Preview{Waiting: []Waiting{}}
	var contacts []store.Contact
	if g, err := workflow.Parse([]byte(wf.Graph)); err == nil {
		for _, n := range g.Nodes {
			if n.Type != workflow.Contacts {
				continue
			}
			src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, workflowID, n.ID)
			if errors.Is(err, store.ErrNotFound) {
				break
			}
			if err != nil {
				return Preview{}, err
			}
			if contacts, p.Contacts, err = s.db.PendingContacts(ctx, a.OrganizationID, n.ID, src.ImportID, maxWaitingScan); err != nil {
				return Preview{}, err
			}
			break
		}
	}
	if p.Contacts == 0 {
		return p, nil
	}
	numbers := make([]string, len(contacts))
	qs := make([]Queued, len(contacts))
	now := s.d.Now()
	for i, c := range contacts {
		numbers[i] = c.Phone
		qs[i] = Queued{Phone: c.Phone, TimeZone: c.TimeZone, Attempt: 1, DueAt: now}
	}
	in, err := s.waitInput(ctx, store.WorkflowJob{OrganizationID: a.OrganizationID}, st, paused, numbers)
	if err != nil {
		return Preview{}, err
	}
	in.Queued = qs
	p.Waiting = WaitingOf(in)
	waiting := 0
	for _, w := range p.Waiting {
		waiting += w.Contacts
		if w.Until != nil && (p.FirstCallAt == nil || w.Until.Before(*p.FirstCallAt)) {
			p.FirstCallAt = w.Until
		}
	}
	p.DialableNow = max(0, len(contacts)-waiting)
	if p.DialableNow > 0 {
		p.FirstCallAt = &now
		return p, nil
	}
	p.Message = previewMessage(now, st, p.Waiting)
	return p, nil
}

// previewMessage says why nothing of a run could be dialled at now: for the calling window,
// the time where the first window opens, the window and when the first call would be placed;
// otherwise the first reason's message.
func previewMessage(now time.Time, st settings, ws []Waiting) string {
	if len(ws) == 0 {
		return ""
	}
	w := ws[0]
	if w.Reason != WaitCallingWindow || w.Until == nil {
		return w.Message + "."
	}
	loc := Location(&w.TimeZone, time.UTC)
	return fmt.Sprintf("It is %s in %s: calls wait for the calling window, %s. The first call would be placed %s (in %s).",
		now.In(loc).Format("Monday 15:04"), w.TimeZone, st.Window.String(), w.Until.In(loc).Format("Mon 15:04"), InDuration(w.Until.Sub(now)))
}
