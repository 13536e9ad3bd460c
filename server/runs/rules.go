package runs

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

// Window is when calls may start, in the contact's local time: from Start to End (minutes
// after midnight, End exclusive) on Days (time.Weekday; empty means every day).
type Window struct {
	Start, End int
	Days       []time.Weekday
}

// DefaultWindow is the window of a workflow outside campaigns: 08:00–21:00 every day.
var DefaultWindow = Window{Start: 8 * 60, End: 21 * 60}

// ParseWindow reads "HH:MM" bounds and day names ("mon".."sun").
func ParseWindow(start, end string, days []string) (Window, error) {
	w := Window{}
	var err error
	if w.Start, err = clock(start); err != nil {
		return w, err
	}
	if w.End, err = clock(end); err != nil {
		return w, err
	}
	names := map[string]time.Weekday{"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
		"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday}
	for _, d := range days {
		wd, ok := names[strings.ToLower(d)]
		if !ok {
			return w, fmt.Errorf("unknown day %q", d)
		}
		w.Days = append(w.Days, wd)
	}
	return w, nil
}

func clock(s string) (int, error) {
	if s == "24:00" {
		return 24 * 60, nil // until midnight
	}
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, fmt.Errorf("time of day %q: want HH:MM", s)
	}
	return t.Hour()*60 + t.Minute(), nil
}

// String says the window for people: "Mon–Fri 09:00–17:00", "every day 08:00–21:00".
func (w Window) String() string {
	days := "every day"
	if len(w.Days) > 0 && len(w.Days) < 7 {
		in := map[time.Weekday]bool{}
		for _, d := range w.Days {
			in[d] = true
		}
		// Runs of consecutive days from Monday: "Mon–Fri", "Mon, Wed, Sat–Sun".
		order := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}
		var parts []string
		for i := 0; i < len(order); i++ {
			if !in[order[i]] {
				continue
			}
			j := i
			for j+1 < len(order) && in[order[j+1]] {
				j++
			}
			part := order[i].String()[:3]
			if j > i {
				part += "–" + order[j].String()[:3]
			}
			parts = append(parts, part)
			i = j
		}
		days = strings.Join(parts, ", ")
	}
	hm := func(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }
	return days + " " + hm(w.Start) + "–" + hm(w.End)
}

func (w Window) dayOK(d time.Weekday) bool {
	if len(w.Days) == 0 {
		return true
	}
	for _, x := range w.Days {
		if x == d {
			return true
		}
	}
	return false
}

// NextOpen answers whether a call may start at now in loc, and if not, when the window next
// opens (within the coming 8 days; a window that never opens answers the zero time).
func (w Window) NextOpen(now time.Time, loc *time.Location) (bool, time.Time) {
	if loc == nil {
		loc = time.UTC
	}
	local := now.In(loc)
	mins := local.Hour()*60 + local.Minute()
	if w.dayOK(local.Weekday()) && mins >= w.Start && mins < w.End {
		return true, time.Time{}
	}
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	for i := 0; i <= 8; i++ {
		d := day.AddDate(0, 0, i)
		open := time.Date(d.Year(), d.Month(), d.Day(), w.Start/60, w.Start%60, 0, 0, loc)
		if w.End > w.Start && w.dayOK(d.Weekday()) && open.After(now) {
			return false, open.UTC()
		}
	}
	return false, time.Time{}
}

// Location is the time zone of a contact: its own when known and valid, else fallback.
func Location(tz *string, fallback *time.Location) *time.Location {
	if tz != nil && *tz != "" {
		if loc, err := time.LoadLocation(*tz); err == nil {
			return loc
		}
	}
	if fallback == nil {
		return time.UTC
	}
	return fallback
}

// NumberRefusal answers why the E.164 number e164 may not be dialled under a job's number
// policy, or "" when it may: landlines and mobiles always, other kinds only when the team
// typed the number and its campaign allows the kind (phones.Policy). The dialer checks it at
// every dial, so a number imported before the rule, or under a setting since withdrawn, is
// never called.
func NumberRefusal(p phones.Policy, e164 string) string {
	_, why := p.Check(e164)
	return why
}

// sourcePolicy is the number policy of a run over a Contacts node whose contacts come from
// source, the campaign's policy being team: numbers in a file the team uploaded are its own;
// HubSpot's and Zapier's come from outside it.
func sourcePolicy(source string, team phones.Policy) phones.Policy {
	if source == "csv" {
		return team
	}
	return phones.Policy{Origin: phones.Outside}
}

// ConcurrencyLimit is how many calls a team may have on the line: its tier's limit, or a site
// admin's override when set (override > 0), lowered to the campaign's own maximum when it has
// one (campaignMax > 0).
func ConcurrencyLimit(tier store.SubscriptionTier, override, campaignMax int) int {
	n := billing.Allowed(tier, billing.LimitConcurrentCalls)
	if override > 0 {
		n = override
	}
	if campaignMax > 0 && campaignMax < n {
		n = campaignMax
	}
	return n
}

// FreeLines is how many more calls may start with live calls on the line under limit.
func FreeLines(live, limit int) int {
	if live >= limit {
		return 0
	}
	return limit - live
}

// FrequencyWait answers whether a number dialled count times in the last 24 hours (the
// earliest at first) may be dialled again under cap, and if not, when it may.
func FrequencyWait(count, cap int, first time.Time) (bool, time.Time) {
	if cap <= 0 || count < cap {
		return true, time.Time{}
	}
	return false, first.Add(24 * time.Hour)
}

// SpendCheck answers why the next call may not start ("" when it may): the team's balance
// must cover one minute at rate, and the job's spending must stay under its budget (nil: none).
func SpendCheck(balance, rate, spent float64, budget *float64) string {
	if budget != nil && spent+rate > *budget+1e-9 {
		return fmt.Sprintf("The job reached its budget of %.2f credits (spent %.2f).", *budget, spent)
	}
	if balance+1e-9 < rate {
		return fmt.Sprintf("The team's credit balance (%.2f) cannot cover the next call (%.2f a minute). Add credits and the job resumes by itself.", balance, rate)
	}
	return ""
}

// Affordable is how many more calls may start while live calls are on the line: each call
// needs a minute's price of the balance (and of the job's budget, if any) kept for it.
func Affordable(balance, rate, spent float64, budget *float64, live int) int {
	if rate <= 0 {
		return math.MaxInt32
	}
	n := int(math.Floor((balance+1e-9)/rate)) - live
	if budget != nil {
		n = min(n, int(math.Floor((*budget-spent+1e-9)/rate))-live)
	}
	return max(n, 0)
}

// BilledMinutes are the minutes charged for a call answered at answered and ended at ended:
// rounded up, 0 when never answered.
func BilledMinutes(answered *time.Time, ended time.Time) int {
	if answered == nil || !ended.After(*answered) {
		return 0
	}
	return int(math.Ceil(ended.Sub(*answered).Seconds() / 60))
}

// Outcome is the final state of an attempt from how its call ended: whether it was answered,
// whether a machine answered, and the carrier's hang-up cause.
func Outcome(answered, machine bool, cause phones.HangupCause) store.AttemptState {
	switch {
	case answered && machine:
		return store.AttemptVoicemail
	case answered:
		return store.AttemptCompleted
	case cause == phones.HangupBusy:
		return store.AttemptBusy
	case cause == phones.HangupNoAnswer:
		return store.AttemptNoAnswer
	}
	return store.AttemptFailed
}

// Retry answers whether an attempt that ended in state, being attempt n of at most max, is
// tried again, and when (ended + delay).
func Retry(state store.AttemptState, n, max int, delay time.Duration, ended time.Time) (bool, time.Time) {
	switch state {
	case store.AttemptBusy, store.AttemptNoAnswer, store.AttemptVoicemail:
		if n < max {
			return true, ended.Add(delay)
		}
	}
	return false, time.Time{}
}

// CallLogStatus is the status of an attempt's call log once it ended in state. A final state
// reads with the same word on the call log as on its contact (ContactStatus), so `betty calls
// list` and `betty contacts list`, the call logs and the contacts table never disagree: a
// voicemail machine's answer is "voicemail" in both. The one difference is cancelled: the
// call was cancelled, the contact is pending (it may be called again).
func CallLogStatus(s store.AttemptState) string {
	switch s {
	case store.AttemptCompleted, store.AttemptVoicemail, store.AttemptBusy, store.AttemptNoAnswer, store.AttemptCancelled:
		return string(s)
	}
	return "failed"
}

// ContactStatus is the call status a contact shows for its latest attempt's state.
func ContactStatus(s store.AttemptState) store.ContactCallStatus {
	switch s {
	case store.AttemptScheduled, store.AttemptCancelled:
		return store.ContactPending
	case store.AttemptDialling, store.AttemptInDoubt, store.AttemptRinging, store.AttemptInCall:
		return "calling"
	case store.AttemptCompleted, store.AttemptBusy, store.AttemptNoAnswer, store.AttemptVoicemail:
		return store.ContactCallStatus(s)
	}
	return store.ContactFailed
}

// Bucket is a token bucket: Rate tokens a second, at most Burst saved.
type Bucket struct {
	Rate  float64
	Burst float64
	level float64
	last  time.Time
}

// Take takes a token at now: ok, or how long until one is there.
func (b *Bucket) Take(now time.Time) (bool, time.Duration) {
	if b.Rate <= 0 {
		return true, 0
	}
	burst := b.Burst
	if burst < 1 {
		burst = 1
	}
	if b.last.IsZero() {
		b.level, b.last = burst, now
	}
	if now.After(b.last) {
		b.level = math.Min(burst, b.level+now.Sub(b.last).Seconds()*b.Rate)
		b.last = now
	}
	if b.level >= 1 {
		b.level--
		return true, 0
	}
	return false, time.Duration((1 - b.level) / b.Rate * float64(time.Second))
}

// Pacer is the calls-per-second limits of one replica: a bucket per caller number and one
// for the account. It is safe for concurrent use.
type Pacer struct {
	mu        sync.Mutex
	perNumber float64
	account   Bucket
	numbers   map[string]*Bucket
}

// NewPacer returns a pacer allowing perNumber calls a second from each number and account in all.
func NewPacer(perNumber, account float64) *Pacer {
	return &Pacer{perNumber: perNumber, account: Bucket{Rate: account, Burst: account}, numbers: map[string]*Bucket{}}
}

// Take takes a token of from's bucket and of the account's at now, both or neither: ok, or how
// long to wait.
func (p *Pacer) Take(from string, now time.Time) (bool, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.numbers[from]
	if b == nil {
		b = &Bucket{Rate: p.perNumber, Burst: p.perNumber}
		p.numbers[from] = b
	}
	saved, savedAccount := *b, p.account
	ok, wait := b.Take(now)
	if !ok {
		return false, wait
	}
	if ok, wait := p.account.Take(now); !ok {
		*b, p.account = saved, savedAccount
		return false, wait
	}
	return true, 0
}
