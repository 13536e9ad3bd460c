package campaigns

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --timezone is checked the same on every machine, with or without a zone database

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// The call settings' rules, copied from the contract's CampaignSettingsInput (campaigns_test.go
// checks that they still agree).
var (
	Timezone         = cmdutil.Rule{Name: "time zone", Schema: "CampaignSettingsInput.timezone", Min: 1, Max: 64}
	VoicemailMessage = cmdutil.Rule{Name: "voicemail message", Schema: "CampaignSettingsInput.voicemailMessage", Max: 1000}

	MaxConcurrentCalls = Bounds{Schema: "CampaignSettingsInput.maxConcurrentCalls", Min: 1, Max: 50}
	RetryAttempts      = Bounds{Schema: "CampaignSettingsInput.retryAttempts", Min: 0, Max: 5}
	RetryDelayMinutes  = Bounds{Schema: "CampaignSettingsInput.retryDelayMinutes", Min: 5, Max: 1440}
	MaxCallDuration    = Bounds{Schema: "CampaignSettingsInput.maxCallDurationMinutes", Min: 1, Max: 240}

	Weekdays         = []client.CampaignWeekday{client.Mon, client.Tue, client.Wed, client.Thu, client.Fri, client.Sat, client.Sun}
	VoicemailActions = []client.CampaignVoicemailAction{client.HangUp, client.LeaveMessage}
	NumberTypes      = []client.CampaignNumberType{client.AllowTollFree, client.AllowPremiumRate, client.AllowSharedCost,
		client.AllowVoip, client.AllowPersonalNumber, client.AllowUan, client.AllowVoicemail, client.AllowPager,
		client.AllowInternationalNetwork}
)

// DefaultCallWindow is the server's call window when none is sent; create fills in the half
// of it that --call-window or --days does not give.
var DefaultCallWindow = client.CampaignCallWindow{Start: "09:00", End: "17:00", Days: Weekdays[:5]}

// Bounds are the smallest and largest whole number the contract takes for a setting.
type Bounds struct {
	Schema   string
	Min, Max int
}

// settings are the call-settings flags create and edit share; nil (or empty) is a flag not
// given.
type settings struct {
	Window           *client.CampaignCallWindow // Start and End only
	Days             []client.CampaignWeekday
	Timezone         *string
	MaxConcurrent    *int
	Retries          *int
	RetryDelay       *int // minutes
	Voicemail        client.CampaignVoicemailAction
	VoicemailMessage *string
	Record           *bool
	NumberTypes      *[]client.CampaignNumberType // empty: landlines and mobiles only
	MaxCallMinutes   *int
}

func addSettingFlags(cmd *cobra.Command, s *settings) {
	fs := cmd.Flags()
	fs.Var(windowValue{&s.Window}, "call-window", "The hours outbound calls may start in, such as 09:00-17:00, in each contact's time zone")
	fs.Var(daysValue{&s.Days}, "days", "The days calls may be placed, such as mon-fri or mon,wed,fri")
	fs.Var(timezoneValue{&s.Timezone}, "timezone", "The IANA time zone of contacts whose number tells none, such as America/New_York")
	fs.Var(boundedValue{&s.MaxConcurrent, MaxConcurrentCalls}, "max-concurrent-calls", fmt.Sprintf("The most calls at the same time, %d to %d", MaxConcurrentCalls.Min, MaxConcurrentCalls.Max))
	fs.Var(boundedValue{&s.Retries, RetryAttempts}, "retries", fmt.Sprintf("Extra attempts for a contact not reached, %d to %d", RetryAttempts.Min, RetryAttempts.Max))
	fs.Var(minutesValue{&s.RetryDelay, RetryDelayMinutes}, "retry-delay", "Time between two attempts on a contact: minutes, or a duration such as 90m or 2h")
	fs.Var(minutesValue{&s.MaxCallMinutes, MaxCallDuration}, "max-call-duration", "The longest a call may last before Betty hangs up: minutes (1 to 240), or a duration such as 45m or 2h")
	cmdutil.EnumVar(fs, &s.Voicemail, "voicemail", "What a call that reaches voicemail does: "+cmdutil.OneOf(VoicemailActions...), VoicemailActions...)
	fs.Var(messageValue{&s.VoicemailMessage}, "voicemail-message", "What the agent says on voicemail (implies --voicemail leave-message)")
	fs.VarPF(recordValue{p: &s.Record, on: true}, "record", "", "Record the campaign's calls").NoOptDefVal = "true"
	fs.VarPF(recordValue{p: &s.Record, on: false}, "no-record", "", "Do not record the campaign's calls").NoOptDefVal = "true"
	fs.Var(numberTypesValue{&s.NumberTypes}, "allowed-number-types", "Kinds of numbers beyond landlines and mobiles to call when the team typed them, such as toll-free,premium-rate; none for landlines and mobiles only")
}

// settingsHelp tells create's and edit's long help about the settings flags.
const settingsHelp = `--call-window, --days and --timezone say when outbound calls may start: from the window's
start to its end (windows over midnight are not supported), on the days given, in each
contact's time zone (from their number; --timezone for numbers that tell none). A contact not
reached (no answer, busy, failed, or voicemail when hanging up) is called again up to
--retries more times, --retry-delay apart. --voicemail leave-message has
the agent say --voicemail-message after the beep; the message may hold {{firstName}}-style
placeholders filled from the contact row. --max-call-duration bounds each call from its
answer (30 minutes by default): Betty hangs up a call that reaches it.
--max-concurrent-calls, --record or --no-record and --max-call-duration apply to inbound
calls too. Landline and mobile numbers are always called;
--allowed-number-types adds other kinds (toll-free, premium-rate, shared-cost, voip,
personal-number, uan, voicemail, pager, international-network) for numbers the team typed
itself (CSV files, test runs), and none takes them away. Numbers from the storefront, Zapier
or HubSpot are called only when they are landlines or mobiles.`

// given says whether any settings flag was given.
func (s *settings) given() bool {
	return s.Window != nil || s.Days != nil || s.Timezone != nil || s.MaxConcurrent != nil || s.Retries != nil ||
		s.RetryDelay != nil || s.Voicemail != "" || s.VoicemailMessage != nil || s.Record != nil || s.NumberTypes != nil ||
		s.MaxCallMinutes != nil
}

// check refuses flags that contradict each other, whatever the campaign's settings are.
func (s *settings) check(flags *pflag.FlagSet) error {
	if flags.Changed("record") && flags.Changed("no-record") {
		return cmdutil.FlagErrorf("give --record or --no-record, not both")
	}
	if s.Voicemail == client.HangUp && s.VoicemailMessage != nil {
		return cmdutil.FlagErrorf("--voicemail-message is for --voicemail leave-message, not hang-up")
	}
	return nil
}

// input is the settings a new campaign is created with: the fields given, the server's
// defaults for the others (the half of the call window not given included). Nil when no flag
// was given.
func (s *settings) input() (*client.CampaignSettingsInput, error) {
	if !s.given() {
		return nil, nil
	}
	if s.Voicemail == client.LeaveMessage && s.VoicemailMessage == nil {
		return nil, cmdutil.FlagErrorf("--voicemail leave-message needs --voicemail-message, what the agent says")
	}
	in := &client.CampaignSettingsInput{Timezone: s.Timezone, MaxConcurrentCalls: s.MaxConcurrent, RetryAttempts: s.Retries,
		RetryDelayMinutes: s.RetryDelay, VoicemailMessage: s.VoicemailMessage, RecordCalls: s.Record, AllowedNumberTypes: s.NumberTypes,
		MaxCallDurationMinutes: s.MaxCallMinutes}
	if s.Window != nil || s.Days != nil {
		w := s.window(DefaultCallWindow)
		in.CallWindow = &w
	}
	if s.VoicemailMessage != nil {
		in.VoicemailAction = opt(client.LeaveMessage)
	}
	if s.Voicemail != "" {
		in.VoicemailAction = &s.Voicemail
	}
	return in, nil
}

// merge is cur with the flags given applied, all of it: the server replaces the stored
// settings with what it is sent, so a field left out would go back to its default.
func (s *settings) merge(cur client.CampaignSettings) (*client.CampaignSettingsInput, error) {
	w := s.window(cur.CallWindow)
	in := &client.CampaignSettingsInput{CallWindow: &w, Timezone: &cur.Timezone, MaxConcurrentCalls: &cur.MaxConcurrentCalls,
		RetryAttempts: &cur.RetryAttempts, RetryDelayMinutes: &cur.RetryDelayMinutes, VoicemailAction: &cur.VoicemailAction,
		VoicemailMessage: cur.VoicemailMessage, RecordCalls: &cur.RecordCalls, AllowedNumberTypes: &cur.AllowedNumberTypes,
		MaxCallDurationMinutes: &cur.MaxCallDurationMinutes}
	if cur.AllowedNumberTypes == nil { // a server older than the setting
		in.AllowedNumberTypes = nil
	}
	if cur.MaxCallDurationMinutes == 0 { // likewise
		in.MaxCallDurationMinutes = nil
	}
	if s.NumberTypes != nil {
		in.AllowedNumberTypes = s.NumberTypes
	}
	set := func(p **int, v *int) {
		if v != nil {
			*p = v
		}
	}
	set(&in.MaxConcurrentCalls, s.MaxConcurrent)
	set(&in.RetryAttempts, s.Retries)
	set(&in.RetryDelayMinutes, s.RetryDelay)
	set(&in.MaxCallDurationMinutes, s.MaxCallMinutes)
	if s.Timezone != nil {
		in.Timezone = s.Timezone
	}
	if s.Record != nil {
		in.RecordCalls = s.Record
	}
	if s.VoicemailMessage != nil {
		in.VoicemailMessage = s.VoicemailMessage
		in.VoicemailAction = opt(client.LeaveMessage)
	}
	if s.Voicemail != "" {
		in.VoicemailAction = &s.Voicemail
	}
	switch {
	case *in.VoicemailAction != client.LeaveMessage:
		in.VoicemailMessage = nil // the server keeps no message it would not say
	case in.VoicemailMessage == nil || *in.VoicemailMessage == "":
		return nil, cmdutil.FlagErrorf("--voicemail leave-message needs --voicemail-message: the campaign has no voicemail message")
	}
	return in, nil
}

// window is base with the window's times and days given put in.
func (s *settings) window(base client.CampaignCallWindow) client.CampaignCallWindow {
	w := client.CampaignCallWindow{Start: base.Start, End: base.End, Days: base.Days}
	if s.Window != nil {
		w.Start, w.End = s.Window.Start, s.Window.End
	}
	if s.Days != nil {
		w.Days = s.Days
	}
	return w
}

// parseWindow reads "HH:MM-HH:MM" ("9-17:30" is taken too).
func parseWindow(s string) (client.CampaignCallWindow, error) {
	from, to, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		return client.CampaignCallWindow{}, fmt.Errorf("want a start and an end such as 09:00-17:00")
	}
	start, err := parseClock(from)
	if err != nil {
		return client.CampaignCallWindow{}, err
	}
	end, err := parseClock(to)
	if err != nil {
		return client.CampaignCallWindow{}, err
	}
	if start >= end {
		return client.CampaignCallWindow{}, fmt.Errorf("the window must start before it ends (windows over midnight are not supported)")
	}
	return client.CampaignCallWindow{Start: start, End: end}, nil
}

// parseClock reads a time of day, "9:30", "09:30" or a whole hour "9", as the contract
// writes it: "09:30".
func parseClock(s string) (string, error) {
	s = strings.TrimSpace(s)
	h, m, ok := strings.Cut(s, ":")
	if !ok {
		m = "00"
	}
	hour, herr := strconv.Atoi(h)
	minute, merr := strconv.Atoi(m)
	digits := strings.Trim(h+m, "0123456789") == ""
	if !digits || herr != nil || merr != nil || len(h) < 1 || len(h) > 2 || len(m) != 2 || hour > 23 || minute > 59 {
		return "", fmt.Errorf("%q is not a time of day: want HH:MM from 00:00 to 23:59", s)
	}
	return fmt.Sprintf("%02d:%02d", hour, minute), nil
}

// parseDays reads "mon,wed,fri" or "mon-fri" (or both, "mon-wed,sat"), in any case, and
// answers the days in the week's order, each once.
func parseDays(s string) ([]client.CampaignWeekday, error) {
	var on [7]bool
	for _, part := range strings.Split(s, ",") {
		part = strings.ToLower(strings.TrimSpace(part))
		if part == "" {
			continue
		}
		from, to, isRange := strings.Cut(part, "-")
		first, err := weekday(from)
		if err != nil {
			return nil, err
		}
		last := first
		if isRange {
			if last, err = weekday(to); err != nil {
				return nil, err
			}
			if last < first {
				return nil, fmt.Errorf("%q runs backwards: the week is mon to sun", part)
			}
		}
		for d := first; d <= last; d++ {
			on[d] = true
		}
	}
	var days []client.CampaignWeekday
	for i, d := range Weekdays {
		if on[i] {
			days = append(days, d)
		}
	}
	if len(days) == 0 {
		return nil, fmt.Errorf("want at least one day, such as mon-fri")
	}
	return days, nil
}

func weekday(s string) (int, error) {
	s = strings.TrimSpace(s)
	for i, d := range Weekdays {
		if string(d) == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%q is not a day: want %s", s, cmdutil.OneOf(Weekdays...))
}

// checkTimezone refuses a name the server would: too long, or not an IANA zone.
func checkTimezone(s string) error {
	if p := Timezone.Problem(s); p != "" {
		return errors.New(p)
	}
	if _, err := time.LoadLocation(s); err != nil || s == "Local" {
		return fmt.Errorf("want an IANA time zone name such as America/New_York, Europe/Paris or UTC")
	}
	return nil
}

// parseMinutes reads a setting in minutes within b (a retry delay, the longest call): whole
// minutes ("90"), or a duration of whole minutes ("90m", "1h30m").
func parseMinutes(s string, b Bounds) (int, error) {
	most := fmt.Sprintf("%dm", b.Max)
	if b.Max%60 == 0 {
		most = fmt.Sprintf("%dh", b.Max/60)
	}
	want := fmt.Errorf("want minutes from %d to %d, or a duration such as 90m or 2h (at most %s)", b.Min, b.Max, most)
	n, err := strconv.Atoi(s)
	if err != nil {
		d, derr := time.ParseDuration(s)
		if derr != nil || d%time.Minute != 0 {
			return 0, want
		}
		n = int(d / time.Minute)
	}
	if n < b.Min || n > b.Max {
		return 0, want
	}
	return n, nil
}

// The flags' values. Each refuses a bad value while the flags are parsed (a usage error that
// names the flag) and shows nothing as its default: what is not given is the server's default
// (create) or stays as it is (edit).

type windowValue struct{ p **client.CampaignCallWindow }

func (v windowValue) Type() string { return "HH:MM-HH:MM" }
func (v windowValue) String() string {
	if *v.p == nil {
		return ""
	}
	return (*v.p).Start + "-" + (*v.p).End
}
func (v windowValue) Set(s string) error {
	w, err := parseWindow(s)
	if err == nil {
		*v.p = &w
	}
	return err
}

type daysValue struct{ p *[]client.CampaignWeekday }

func (v daysValue) Type() string   { return "days" }
func (v daysValue) String() string { return days(*v.p) }
func (v daysValue) Set(s string) error {
	ds, err := parseDays(s)
	if err == nil {
		*v.p = ds
	}
	return err
}

type timezoneValue struct{ p **string }

func (v timezoneValue) Type() string   { return "zone" }
func (v timezoneValue) String() string { return deref(*v.p) }
func (v timezoneValue) Set(s string) error {
	if err := checkTimezone(s); err != nil {
		return err
	}
	*v.p = &s
	return nil
}

type boundedValue struct {
	p **int
	b Bounds
}

func (v boundedValue) Type() string { return "int" }
func (v boundedValue) String() string {
	if *v.p == nil {
		return ""
	}
	return strconv.Itoa(**v.p)
}
func (v boundedValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < v.b.Min || n > v.b.Max {
		return fmt.Errorf("want a number from %d to %d", v.b.Min, v.b.Max)
	}
	*v.p = &n
	return nil
}

type minutesValue struct {
	p **int
	b Bounds
}

func (v minutesValue) Type() string { return "duration" }
func (v minutesValue) String() string {
	if *v.p == nil {
		return ""
	}
	return strconv.Itoa(**v.p) + "m"
}
func (v minutesValue) Set(s string) error {
	n, err := parseMinutes(s, v.b)
	if err == nil {
		*v.p = &n
	}
	return err
}

type messageValue struct{ p **string }

func (v messageValue) Type() string   { return "text" }
func (v messageValue) String() string { return deref(*v.p) }
func (v messageValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("must not be empty (--voicemail hang-up leaves no message)")
	}
	if p := VoicemailMessage.Problem(s); p != "" {
		return errors.New(p)
	}
	*v.p = &s
	return nil
}

// numberTypesValue is --allowed-number-types: a comma-separated list of the contract's
// CampaignNumberType, or none.
type numberTypesValue struct{ p **[]client.CampaignNumberType }

func (v numberTypesValue) Type() string { return "types" }
func (v numberTypesValue) String() string {
	if *v.p == nil {
		return ""
	}
	return numberTypes(**v.p)
}
func (v numberTypesValue) Set(s string) error {
	out := []client.CampaignNumberType{}
	if strings.TrimSpace(strings.ToLower(s)) != "none" {
		want := map[client.CampaignNumberType]bool{}
		for _, part := range strings.Split(s, ",") {
			t := client.CampaignNumberType(strings.ToLower(strings.TrimSpace(part)))
			if t == "" {
				continue
			}
			if !slices.Contains(NumberTypes, t) {
				return fmt.Errorf("%q is not a number type: want none or some of %s", part, cmdutil.OneOf(NumberTypes...))
			}
			want[t] = true
		}
		if len(want) == 0 {
			return fmt.Errorf("want none or some of %s", cmdutil.OneOf(NumberTypes...))
		}
		for _, t := range NumberTypes {
			if want[t] {
				out = append(out, t)
			}
		}
	}
	*v.p = &out
	return nil
}

// numberTypes is a campaign's allowedNumberTypes as the CLI shows them.
func numberTypes(ts []client.CampaignNumberType) string {
	if len(ts) == 0 {
		return "none"
	}
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ",")
}

// recordValue is --record (on) or --no-record (off); both set the same setting.
type recordValue struct {
	p  **bool
	on bool
}

func (v recordValue) Type() string { return "bool" }
func (v recordValue) String() string {
	if *v.p == nil {
		return "false"
	}
	return strconv.FormatBool(**v.p == v.on)
}
func (v recordValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	rec := b == v.on
	*v.p = &rec
	return nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
