package campaigns_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/campaigns"
	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The commands against the real server: create, list with filters, view, edit (a number
// assigned and removed), duplicate, delete.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(campaigns.NewCmdCampaigns(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	type listed struct{ ID, Name, Status, Type, PhoneNumberID string }
	decode := func(out string, into any) {
		t.Helper()
		if err := json.Unmarshal([]byte(out), into); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}

	out, errOut, err := run("create", "Acme renewals", "--priority", "high")
	renewals := strings.TrimSpace(out)
	if err != nil || renewals == "" || !strings.Contains(errOut, `Created campaign "Acme renewals"`) {
		t.Fatalf("create: %v %q %s", err, out, errOut)
	}
	out, _, err = run("create", "ACME support", "--type", "inbound", "--status", "paused", "--json")
	var support listed
	if decode(out, &support); err != nil || support.Type != "inbound" || support.Status != "paused" {
		t.Fatalf("create --json: %v %s", err, out)
	}
	if _, _, err := run("create", "Spring sale"); err != nil {
		t.Fatal(err)
	}

	out, _, err = run("list", "--name", "acme", "--status", "draft", "--json")
	var found []listed
	if decode(out, &found); err != nil || len(found) != 1 || found[0].ID != renewals {
		t.Fatalf("list --name acme --status draft: %v %s", err, out)
	}
	if out, _, err := run("list", "--limit", "2"); err != nil || strings.Count(out, "\n") != 2 {
		t.Fatalf("list --limit 2: %v %q", err, out)
	}

	// Assign a number bought from the simulator, then take it away.
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	avail, err := c.SearchPhoneNumbers(context.Background(), client.SearchAvailablePhoneNumbersParams{})
	if err != nil {
		t.Fatal(err)
	}
	bought, err := c.BuyPhoneNumber(context.Background(), team, avail[0].PhoneNumber, "http://betty.test")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err = run("edit", support.ID, "--name", "Support line", "--phone-number", bought.PhoneNumber.Id, "--json")
	var edited listed
	if decode(out, &edited); err != nil || edited.Name != "Support line" || edited.PhoneNumberID != bought.PhoneNumber.Id {
		t.Fatalf("edit: %v %s", err, out)
	}
	if _, _, err := run("edit", support.ID, "--status", "active"); err == nil || !strings.Contains(err.Error(), "workflow") {
		t.Fatalf("active without a workflow: %v", err)
	}
	out, _, err = run("view", support.ID)
	if err != nil || !strings.Contains(out, "PHONE NUMBER\t"+bought.PhoneNumber.PhoneNumber) {
		t.Fatalf("view: %v %s", err, out)
	}
	if out, _, err := run("edit", support.ID, "--no-phone-number", "--json"); err != nil || strings.Contains(out, bought.PhoneNumber.Id) {
		t.Fatalf("edit --no-phone-number: %v %s", err, out)
	}
	// The number as people write it, in E.164, names the same number; one the team lacks is not found.
	out, _, err = run("edit", support.ID, "--phone-number", bought.PhoneNumber.PhoneNumber, "--json")
	if decode(out, &edited); err != nil || edited.PhoneNumberID != bought.PhoneNumber.Id {
		t.Fatalf("edit --phone-number in E.164: %v %s", err, out)
	}
	if _, _, err := run("create", "Leads", "--phone-number", "+14155550199"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "no number +14155550199") {
		t.Fatalf("create with a number the team lacks: %v", err)
	}
	out, _, err = run("create", "Leads", "--phone-number", bought.PhoneNumber.PhoneNumber, "--json")
	if decode(out, &edited); err != nil || edited.PhoneNumberID != bought.PhoneNumber.Id {
		t.Fatalf("create --phone-number in E.164: %v %s", err, out)
	}
	if _, _, err := run("edit", edited.ID, "--no-phone-number"); err != nil {
		t.Fatal(err)
	}
	if out, _, err := run("edit", support.ID, "--no-phone-number", "--json"); err != nil || strings.Contains(out, bought.PhoneNumber.Id) {
		t.Fatalf("edit --no-phone-number: %v %s", err, out)
	}

	out, errOut, err = run("duplicate", renewals)
	copied := strings.TrimSpace(out)
	if err != nil || copied == "" || copied == renewals || !strings.Contains(errOut, `"Copy of Acme renewals"`) {
		t.Fatalf("duplicate: %v %q %s", err, out, errOut)
	}
	if _, errOut, err := run("delete", copied, "--yes"); err != nil || errOut != "Deleted campaign "+copied+".\n" {
		t.Fatalf("delete: %v %s", err, errOut)
	}
	if _, _, err := run("view", copied); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("view after delete: %v", err)
	}
}

// The call settings against the real server: create with some, change one and find the
// others kept (the server replaces the settings it is sent as a whole), switch the voicemail
// action, and refuse what the server would refuse before sending anything.
func TestSettingsAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(args ...string) (string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(campaigns.NewCmdCampaigns(f), args...)
		return s.Out.String(), err
	}
	settings := func(args ...string) client.CampaignSettings {
		t.Helper()
		out, err := run(append(args, "--json")...)
		var c client.Campaign
		if err == nil {
			err = json.Unmarshal([]byte(out), &c)
		}
		if err != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
		return c.Settings
	}
	want := func(what string, got, want client.CampaignSettings) {
		t.Helper()
		if g, w := clitest.JSON(t, got), clitest.JSON(t, want); g != w {
			t.Errorf("%s: settings %s\nwant %s", what, g, w)
		}
	}

	out, err := run("create", "Defaults")
	if err != nil {
		t.Fatal(err)
	}
	none := []client.CampaignNumberType{}
	defaults := client.CampaignSettings{MaxConcurrentCalls: 5, CallWindow: campaigns.DefaultCallWindow, Timezone: "UTC",
		RetryAttempts: 2, RetryDelayMinutes: 60, VoicemailAction: client.HangUp, RecordCalls: true, AllowedNumberTypes: none,
		MaxCallDurationMinutes: 30}
	want("create without settings", settings("view", strings.TrimSpace(out)), defaults)

	// Half a window takes the other half's default.
	got := settings("create", "Weekends", "--days", "sat-sun")
	want("create --days", got, client.CampaignSettings{MaxConcurrentCalls: 5, CallWindow: client.CampaignCallWindow{Start: "09:00", End: "17:00",
		Days: []client.CampaignWeekday{client.Sat, client.Sun}}, Timezone: "UTC", RetryAttempts: 2, RetryDelayMinutes: 60,
		VoicemailAction: client.HangUp, RecordCalls: true, AllowedNumberTypes: none, MaxCallDurationMinutes: 30})

	msg := "Hi {{firstName}}, this is Acme about your renewal."
	out, err = run("create", "Renewals", "--call-window", "8:30-18:00", "--days", "mon-wed,fri", "--timezone", "America/New_York",
		"--max-concurrent-calls", "12", "--retries", "3", "--retry-delay", "1h30m", "--voicemail-message", msg, "--no-record",
		"--max-call-duration", "2h")
	id := strings.TrimSpace(out)
	if err != nil || id == "" {
		t.Fatalf("create with settings: %v %q", err, out)
	}
	renewals := client.CampaignSettings{MaxConcurrentCalls: 12, CallWindow: client.CampaignCallWindow{Start: "08:30", End: "18:00",
		Days: []client.CampaignWeekday{client.Mon, client.Tue, client.Wed, client.Fri}}, Timezone: "America/New_York",
		RetryAttempts: 3, RetryDelayMinutes: 90, VoicemailAction: client.LeaveMessage, VoicemailMessage: &msg, RecordCalls: false,
		AllowedNumberTypes: none, MaxCallDurationMinutes: 120}
	want("create with settings", settings("view", id), renewals)

	// One setting changed, every other kept.
	renewals.RetryAttempts = 1
	want("edit --retries", settings("edit", id, "--retries", "1"), renewals)
	want("view after edit --retries", settings("view", id), renewals)
	renewals.CallWindow.Start, renewals.CallWindow.End = "10:00", "16:00"
	renewals.RecordCalls = true
	want("edit --call-window --record", settings("edit", id, "--call-window", "10:00-16:00", "--record"), renewals)
	renewals.Timezone, renewals.RetryDelayMinutes, renewals.MaxConcurrentCalls, renewals.MaxCallDurationMinutes = "Europe/Paris", 5, 1, 45
	want("edit --timezone --retry-delay --max-concurrent-calls --max-call-duration",
		settings("edit", id, "--timezone", "Europe/Paris", "--retry-delay", "5", "--max-concurrent-calls", "1", "--max-call-duration", "45"), renewals)
	out, err = run("view", id)
	if err != nil || !strings.Contains(out, "CALL WINDOW\t10:00-16:00 mon,tue,wed,fri Europe/Paris\n") ||
		!strings.Contains(out, "RETRIES\t1, 5 minutes apart\n") || !strings.Contains(out, "VOICEMAIL\tleave-message: "+msg+"\n") ||
		!strings.Contains(out, "LONGEST CALL\t45 minutes\n") {
		t.Fatalf("view: %v\n%s", err, out)
	}

	// Hanging up drops the message; leaving one again needs one.
	renewals.VoicemailAction, renewals.VoicemailMessage = client.HangUp, nil
	want("edit --voicemail hang-up", settings("edit", id, "--voicemail", "hang-up"), renewals)
	if _, err := run("edit", id, "--voicemail", "leave-message"); cmdutil.ExitCode(err) != cmdutil.ExitUsage ||
		!strings.Contains(err.Error(), "needs --voicemail-message") {
		t.Fatalf("edit --voicemail leave-message without a message: %v", err)
	}
	renewals.VoicemailAction, renewals.VoicemailMessage = client.LeaveMessage, ptr("Call us back.")
	want("edit --voicemail-message", settings("edit", id, "--voicemail-message", "Call us back."), renewals)

	// Refused before a request: the settings stay as they were.
	for _, args := range [][]string{
		{"--timezone", "Mars/Olympus_Mons"}, {"--call-window", "18:00-08:00"}, {"--days", "mon,someday"}, {"--retries", "9"},
		{"--max-call-duration", "241"},
	} {
		if _, err := run(append([]string{"edit", id}, args...)...); err == nil {
			t.Errorf("edit %v: no error", args)
		}
	}
	want("after refused edits", settings("view", id), renewals)

	// Settings flags alongside others.
	got = settings("edit", id, "--name", "Renewals 2", "--retries", "0")
	renewals.RetryAttempts = 0
	want("edit --name --retries", got, renewals)

	// Number types beyond landlines and mobiles: added, kept by other edits, taken away.
	renewals.AllowedNumberTypes = []client.CampaignNumberType{client.AllowTollFree, client.AllowPremiumRate}
	want("edit --allowed-number-types", settings("edit", id, "--allowed-number-types", "premium-rate,toll-free"), renewals)
	renewals.RetryAttempts = 2
	want("edit --retries keeps them", settings("edit", id, "--retries", "2"), renewals)
	if out, err := run("view", id); err != nil || !strings.Contains(out, "NUMBER TYPES\tlandline, mobile, toll-free,premium-rate\n") {
		t.Fatalf("view: %v\n%s", err, out)
	}
	renewals.AllowedNumberTypes = none
	want("edit --allowed-number-types none", settings("edit", id, "--allowed-number-types", "none"), renewals)
}

func ptr[T any](v T) *T { return &v }
