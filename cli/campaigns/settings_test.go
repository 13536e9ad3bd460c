package campaigns

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
	servercampaigns "github.com/bettyhq/betty/server/campaigns"
)

// The settings flags take what the contract's CampaignSettingsInput takes, and create fills
// a half call window in with the server's default.
func TestSettingsAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	schemas := spec.Components.Schemas
	props := schemas["CampaignSettingsInput"].Value.Properties
	for _, r := range []cmdutil.Rule{Timezone, VoicemailMessage} {
		s := props[strings.TrimPrefix(r.Schema, "CampaignSettingsInput.")].Value
		if s.MaxLength == nil || int(s.MinLength) != r.Min || int(*s.MaxLength) != r.Max {
			t.Errorf("%s: %d…%d, the contract %d…%v", r.Name, r.Min, r.Max, s.MinLength, s.MaxLength)
		}
	}
	for _, b := range []Bounds{MaxConcurrentCalls, RetryAttempts, RetryDelayMinutes, MaxCallDuration} {
		s := props[strings.TrimPrefix(b.Schema, "CampaignSettingsInput.")].Value
		if s.Min == nil || s.Max == nil || int(*s.Min) != b.Min || int(*s.Max) != b.Max {
			t.Errorf("%s: %d…%d, the contract %v…%v", b.Schema, b.Min, b.Max, s.Min, s.Max)
		}
	}
	for name, values := range map[string][]string{"CampaignWeekday": strs(Weekdays), "CampaignVoicemailAction": strs(VoicemailActions),
		"CampaignNumberType": strs(NumberTypes)} {
		var want []string
		for _, v := range schemas[name].Value.Enum {
			want = append(want, v.(string))
		}
		if !slices.Equal(values, want) {
			t.Errorf("%s: the CLI takes %v, the contract %v", name, values, want)
		}
	}
	def := servercampaigns.DefaultSettings().CallWindow
	if DefaultCallWindow.Start != def.Start || DefaultCallWindow.End != def.End || !slices.Equal(strs(DefaultCallWindow.Days), def.Days) {
		t.Errorf("default call window %+v, the server's %+v", DefaultCallWindow, def)
	}
	pattern := regexp.MustCompile(schemas["CampaignCallWindow"].Value.Properties["start"].Value.Pattern)
	for _, in := range []string{"0", "9", "09", "9:05", "13:30", "23:59"} {
		got, err := parseClock(in)
		if err != nil || !pattern.MatchString(got) {
			t.Errorf("%q read as %q (%v), not the contract's HH:MM", in, got, err)
		}
	}
}

// Flags parse into what create sends: only the settings given, a call window completed with
// the default; bad values are usage errors in plain words.
func TestSettingFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    string // the settings create sends, as JSON; "null" for none
		wantErr string
	}{
		{name: "none", args: "", want: `null`},
		{name: "window only", args: "--call-window 9-17:30",
			want: `{"callWindow":{"days":["mon","tue","wed","thu","fri"],"end":"17:30","start":"09:00"}}`},
		{name: "days only", args: "--days SAT,sun",
			want: `{"callWindow":{"days":["sat","sun"],"end":"17:00","start":"09:00"}}`},
		{name: "days ranges in week order, once each", args: "--days fri,mon-wed,tue --call-window 08:15-12:00",
			want: `{"callWindow":{"days":["mon","tue","wed","fri"],"end":"12:00","start":"08:15"}}`},
		{name: "everything", args: "--timezone America/New_York --max-concurrent-calls 50 --retries 0 --retry-delay 1h30m --no-record --voicemail leave-message --voicemail-message hi",
			want: `{"maxConcurrentCalls":50,"recordCalls":false,"retryAttempts":0,"retryDelayMinutes":90,"timezone":"America/New_York","voicemailAction":"leave-message","voicemailMessage":"hi"}`},
		{name: "a message implies leave-message", args: "--voicemail-message hello --record",
			want: `{"recordCalls":true,"voicemailAction":"leave-message","voicemailMessage":"hello"}`},
		{name: "delay in minutes", args: "--retry-delay 5 --voicemail hang-up", want: `{"retryDelayMinutes":5,"voicemailAction":"hang-up"}`},
		{name: "delay of a day", args: "--retry-delay 24h", want: `{"retryDelayMinutes":1440}`},
		{name: "record=false", args: "--record=false", want: `{"recordCalls":false}`},
		{name: "longest call in minutes", args: "--max-call-duration 45", want: `{"maxCallDurationMinutes":45}`},
		{name: "longest call as a duration", args: "--max-call-duration 4h", want: `{"maxCallDurationMinutes":240}`},
		{name: "UTC", args: "--timezone UTC", want: `{"timezone":"UTC"}`},
		{name: "number types in the contract's order, once each", args: "--allowed-number-types Premium-Rate,toll-free,premium-rate",
			want: `{"allowedNumberTypes":["toll-free","premium-rate"]}`},
		{name: "no number types", args: "--allowed-number-types none", want: `{"allowedNumberTypes":[]}`},

		{name: "window backwards", args: "--call-window 17:00-09:00", wantErr: "the window must start before it ends"},
		{name: "empty window", args: "--call-window 09:00-09:00", wantErr: "the window must start before it ends"},
		{name: "window without end", args: "--call-window 09:00", wantErr: "want a start and an end such as 09:00-17:00"},
		{name: "24:00", args: "--call-window 09:00-24:00", wantErr: `"24:00" is not a time of day: want HH:MM from 00:00 to 23:59`},
		{name: "minutes of one digit", args: "--call-window 9:5-17", wantErr: `"9:5" is not a time of day`},
		{name: "signed hour", args: "--call-window +9-17", wantErr: `"+9" is not a time of day`},
		{name: "unknown day", args: "--days mon,funday", wantErr: `"funday" is not a day: want mon, tue, wed, thu, fri, sat or sun`},
		{name: "backwards days", args: "--days fri-mon", wantErr: `"fri-mon" runs backwards`},
		{name: "no day", args: "--days ,", wantErr: "want at least one day"},
		{name: "unknown zone", args: "--timezone Mars/Olympus_Mons", wantErr: `invalid argument "Mars/Olympus_Mons" for "--timezone" flag: want an IANA time zone name`},
		{name: "Local", args: "--timezone Local", wantErr: "want an IANA time zone name"},
		{name: "long zone", args: "--timezone " + strings.Repeat("x", 65), wantErr: "want at most 64 characters, not 65"},
		{name: "too many calls", args: "--max-concurrent-calls 51", wantErr: "want a number from 1 to 50"},
		{name: "no calls", args: "--max-concurrent-calls 0", wantErr: "want a number from 1 to 50"},
		{name: "too many retries", args: "--retries 6", wantErr: "want a number from 0 to 5"},
		{name: "retries not a number", args: "--retries two", wantErr: "want a number from 0 to 5"},
		{name: "short delay", args: "--retry-delay 4m", wantErr: "want minutes from 5 to 1440, or a duration such as 90m or 2h"},
		{name: "long delay", args: "--retry-delay 1441", wantErr: "want minutes from 5 to 1440"},
		{name: "delay in seconds", args: "--retry-delay 90s", wantErr: "want minutes from 5 to 1440"},
		{name: "no longest call", args: "--max-call-duration 0", wantErr: "want minutes from 1 to 240, or a duration such as 90m or 2h (at most 4h)"},
		{name: "longest call too long", args: "--max-call-duration 4h1m", wantErr: "want minutes from 1 to 240"},
		{name: "unknown voicemail", args: "--voicemail beep", wantErr: "want hang-up or leave-message"},
		{name: "leave-message without a message", args: "--voicemail leave-message", wantErr: "--voicemail leave-message needs --voicemail-message"},
		{name: "a message to hang up", args: "--voicemail hang-up --voicemail-message hi", wantErr: "--voicemail-message is for --voicemail leave-message"},
		{name: "long message", args: "--voicemail-message " + strings.Repeat("m", 1001), wantErr: "want at most 1000 characters, not 1001"},
		{name: "record and not", args: "--record --no-record", wantErr: "give --record or --no-record, not both"},
		{name: "unknown number type", args: "--allowed-number-types mobile", wantErr: `"mobile" is not a number type: want none or some of toll-free, premium-rate`},
		{name: "empty number types", args: "--allowed-number-types ,", wantErr: "want none or some of toll-free"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *CreateOptions
			cmd := NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil })
			// As betty's root does: a value the flag refuses is a usage error.
			cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.FlagErrorWrap(err) })
			err := clitest.Run(cmd, append([]string{"x"}, strings.Fields(tt.args)...)...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
					t.Errorf("exit %d, want %d", cmdutil.ExitCode(err), cmdutil.ExitUsage)
				}
				return
			}
			in, err := got.Settings.input()
			if err != nil {
				t.Fatal(err)
			}
			if body := clitest.JSON(t, in); body != tt.want {
				t.Errorf("settings %s, want %s", body, tt.want)
			}
		})
	}
	f, _ := clitest.NewFactory(t, clitest.Options{})
	err := clitest.Run(NewCmdCreate(f, func(*CreateOptions) error { return nil }), "x", "--voicemail-message", "")
	clitest.CheckErr(t, err, "must not be empty")
}

// edit sends the campaign's settings whole, with only the flags given changed.
func TestEditSettingsRun(t *testing.T) {
	stored := campaign
	stored.Settings = client.CampaignSettings{CallWindow: client.CampaignCallWindow{Start: "08:30", End: "18:00",
		Days: []client.CampaignWeekday{"mon", "sat"}}, MaxConcurrentCalls: 12, RecordCalls: false, RetryAttempts: 1,
		RetryDelayMinutes: 30, Timezone: "Europe/Paris", VoicemailAction: client.LeaveMessage, VoicemailMessage: ptr("Hi {{firstName}}"),
		MaxCallDurationMinutes: 20}
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/campaigns/camp-1", clitest.Data(http.StatusOK, stored))
	stub.Handle("PUT /v1/campaigns/camp-1", clitest.Data(http.StatusOK, stored))
	const all = `"maxCallDurationMinutes":20,"maxConcurrentCalls":12,"recordCalls":false,"retryAttempts":1,"retryDelayMinutes":30,"timezone":"Europe/Paris"`
	for _, c := range []struct {
		args     string
		wantBody string
		wantErr  string
	}{
		{args: "--retries 4", wantBody: `{"settings":{"callWindow":{"days":["mon","sat"],"end":"18:00","start":"08:30"},"maxCallDurationMinutes":20,"maxConcurrentCalls":12,"recordCalls":false,"retryAttempts":4,"retryDelayMinutes":30,"timezone":"Europe/Paris","voicemailAction":"leave-message","voicemailMessage":"Hi {{firstName}}"}}`},
		{args: "--max-call-duration 90m", wantBody: `{"settings":{"callWindow":{"days":["mon","sat"],"end":"18:00","start":"08:30"},"maxCallDurationMinutes":90,"maxConcurrentCalls":12,"recordCalls":false,"retryAttempts":1,"retryDelayMinutes":30,"timezone":"Europe/Paris","voicemailAction":"leave-message","voicemailMessage":"Hi {{firstName}}"}}`},
		{args: "--days sun --name Renamed", wantBody: `{"name":"Renamed","settings":{"callWindow":{"days":["sun"],"end":"18:00","start":"08:30"},` + all + `,"voicemailAction":"leave-message","voicemailMessage":"Hi {{firstName}}"}}`},
		{args: "--call-window 10-11", wantBody: `{"settings":{"callWindow":{"days":["mon","sat"],"end":"11:00","start":"10:00"},` + all + `,"voicemailAction":"leave-message","voicemailMessage":"Hi {{firstName}}"}}`},
		{args: "--voicemail hang-up", wantBody: `{"settings":{"callWindow":{"days":["mon","sat"],"end":"18:00","start":"08:30"},` + all + `,"voicemailAction":"hang-up"}}`},
		{args: "--voicemail-message Bye", wantBody: `{"settings":{"callWindow":{"days":["mon","sat"],"end":"18:00","start":"08:30"},` + all + `,"voicemailAction":"leave-message","voicemailMessage":"Bye"}}`},
		{args: "--allowed-number-types voip", wantBody: `{"settings":{"allowedNumberTypes":["voip"],"callWindow":{"days":["mon","sat"],"end":"18:00","start":"08:30"},` + all + `,"voicemailAction":"leave-message","voicemailMessage":"Hi {{firstName}}"}}`},
		{args: "--status paused", wantBody: `{"status":"paused"}`}, // no settings flag: no read, no settings sent
	} {
		before := len(stub.Requests())
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdEdit(f, nil), append([]string{"camp-1"}, strings.Fields(c.args)...)...); err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		reqs := stub.Requests()[before:]
		if body := strings.TrimSpace(string(stub.Last().Body)); body != c.wantBody {
			t.Errorf("%s: sent %s\nwant %s", c.args, body, c.wantBody)
		}
		if wantReqs := 1 + strings.Count(c.wantBody, "settings"); len(reqs) != wantReqs {
			t.Errorf("%s: %d requests, want %d", c.args, len(reqs), wantReqs)
		}
		if s.Out.String() != "camp-1\n" {
			t.Errorf("%s: out %q", c.args, s.Out)
		}
	}

	// Leaving a message needs one: the campaign's, or one given.
	hangsUp := campaign
	stub = clitest.NewStub(t)
	stub.Handle("GET /v1/campaigns/camp-1", clitest.Data(http.StatusOK, hangsUp))
	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	err := clitest.Run(NewCmdEdit(f, nil), "camp-1", "--voicemail", "leave-message")
	if clitest.CheckErr(t, err, "--voicemail leave-message needs --voicemail-message: the campaign has no voicemail message"); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("exit %d, want a usage error", cmdutil.ExitCode(err))
	}
	if n := len(stub.Requests()); n != 1 {
		t.Errorf("%d requests, want the read only", n)
	}
}
