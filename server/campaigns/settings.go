package campaigns

import (
	"encoding/json"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/phones"
)

// Settings say how a campaign's calls are placed. The dialer reads them; they are stored and
// checked here.
type Settings struct {
	MaxConcurrentCalls int        `json:"maxConcurrentCalls"`
	CallWindow         CallWindow `json:"callWindow"`
	Timezone           string     `json:"timezone"`
	RetryAttempts      int        `json:"retryAttempts"`
	RetryDelayMinutes  int        `json:"retryDelayMinutes"`
	VoicemailAction    string     `json:"voicemailAction"`
	VoicemailMessage   *string    `json:"voicemailMessage"`
	RecordCalls        bool       `json:"recordCalls"`
	// AllowedNumberTypes are the kinds beyond landlines and mobiles the campaign calls when
	// its team typed the number (phones.Policy); none by default, and in rows stored before
	// it existed.
	AllowedNumberTypes []phones.Kind `json:"allowedNumberTypes"`
	// MaxCallDurationMinutes bounds every call of the campaign, from its answer (the dialer
	// hangs up a call that reaches it).
	MaxCallDurationMinutes int `json:"maxCallDurationMinutes"`
}

// CallWindow is when outbound calls may start, in the campaign's time zone.
type CallWindow struct {
	Start string   `json:"start"`
	End   string   `json:"end"`
	Days  []string `json:"days"`
}

const (
	VoicemailHangUp       = "hang-up"
	VoicemailLeaveMessage = "leave-message"
)

// DefaultMaxCallDurationMinutes is the longest a call lasts when its campaign says nothing
// else, and for calls outside campaigns (openapi.yaml's maxCallDurationMinutes says why 30).
const DefaultMaxCallDurationMinutes = 30

// DefaultSettings are the settings of a campaign created without any: 5 concurrent calls,
// 09:00–17:00 Monday to Friday in UTC, 2 retries an hour apart, hang up on voicemail,
// recorded, calls of at most 30 minutes. Stored settings written before a field existed take
// its default here too (decodeSettings).
func DefaultSettings() Settings {
	return Settings{MaxConcurrentCalls: 5, CallWindow: CallWindow{Start: "09:00", End: "17:00",
		Days: []string{"mon", "tue", "wed", "thu", "fri"}}, Timezone: "UTC", RetryAttempts: 2, RetryDelayMinutes: 60,
		VoicemailAction: VoicemailHangUp, RecordCalls: true, AllowedNumberTypes: []phones.Kind{},
		MaxCallDurationMinutes: DefaultMaxCallDurationMinutes}
}

// NumberPolicy is the policy of the numbers the campaign's team typed itself.
func (s Settings) NumberPolicy() phones.Policy { return phones.TeamPolicy(s.AllowedNumberTypes) }

// SettingsInput is settings as a client sends them: absent fields take their default.
type SettingsInput struct {
	MaxConcurrentCalls     *int
	CallWindow             *CallWindow
	Timezone               *string
	RetryAttempts          *int
	RetryDelayMinutes      *int
	VoicemailAction        *string
	VoicemailMessage       *string
	RecordCalls            *bool
	AllowedNumberTypes     *[]string
	MaxCallDurationMinutes *int
}

// Settings fills the defaults in and checks the rules the contract's schema cannot express:
// a known time zone, a window that starts before it ends, a voicemail message exactly when
// one is left. (Ranges and formats are checked by the contract's validation.)
func (in SettingsInput) Settings() (Settings, error) {
	s := DefaultSettings()
	if in.MaxConcurrentCalls != nil {
		s.MaxConcurrentCalls = *in.MaxConcurrentCalls
	}
	if in.CallWindow != nil {
		s.CallWindow = *in.CallWindow
	}
	if in.Timezone != nil {
		s.Timezone = *in.Timezone
	}
	if in.RetryAttempts != nil {
		s.RetryAttempts = *in.RetryAttempts
	}
	if in.RetryDelayMinutes != nil {
		s.RetryDelayMinutes = *in.RetryDelayMinutes
	}
	if in.VoicemailAction != nil {
		s.VoicemailAction = *in.VoicemailAction
	}
	if in.VoicemailMessage != nil && *in.VoicemailMessage != "" {
		m := *in.VoicemailMessage
		s.VoicemailMessage = &m
	}
	if in.RecordCalls != nil {
		s.RecordCalls = *in.RecordCalls
	}
	if in.MaxCallDurationMinutes != nil {
		s.MaxCallDurationMinutes = *in.MaxCallDurationMinutes
	}
	var fields []errs.Field
	if in.AllowedNumberTypes != nil {
		kinds, err := phones.ParseKinds(*in.AllowedNumberTypes)
		if err != nil {
			fields = append(fields, errs.Field{Name: "body.settings.allowedNumberTypes", Message: err.Error()})
		}
		s.AllowedNumberTypes = kinds
	}
	if _, err := time.LoadLocation(s.Timezone); err != nil || s.Timezone == "" || s.Timezone == "Local" {
		fields = append(fields, errs.Field{Name: "body.settings.timezone", Message: "timezone must be an IANA time zone name such as America/New_York"})
	}
	if s.CallWindow.Start >= s.CallWindow.End {
		fields = append(fields, errs.Field{Name: "body.settings.callWindow", Message: "the call window must start before it ends (windows over midnight are not supported)"})
	}
	switch {
	case s.VoicemailAction == VoicemailLeaveMessage && s.VoicemailMessage == nil:
		fields = append(fields, errs.Field{Name: "body.settings.voicemailMessage", Message: "voicemailMessage is required when voicemailAction is leave-message"})
	case s.VoicemailAction != VoicemailLeaveMessage:
		s.VoicemailMessage = nil
	}
	if len(fields) > 0 {
		return Settings{}, errs.InvalidFields(fields...)
	}
	return s, nil
}

func (s Settings) encode() string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

// decodeSettings reads stored settings; a field missing from older rows takes its default.
func decodeSettings(raw string) Settings {
	s := DefaultSettings()
	_ = json.Unmarshal([]byte(raw), &s)
	if s.AllowedNumberTypes == nil {
		s.AllowedNumberTypes = []phones.Kind{} // a stored null
	}
	return s
}

// Decode reads a campaign's stored settings (store.Campaign.Settings), with the defaults of
// fields missing from older rows.
func Decode(raw string) Settings { return decodeSettings(raw) }
