package agents_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/agents"
	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak/espeaktest"
	"github.com/bettyhq/betty/server/speech/openai/openaitest"
	"github.com/bettyhq/betty/server/testserver"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

// The commands against the real server: create, list by team and campaign, edit, FAQ from a
// file, activation, copy, pairing with a bought number, teaching audio list, delete.
func TestAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	espeaktest.Require(t)
	stt := openaitest.Start(t)
	stt.SetTranscript("Callers ask about opening hours.")
	env := testserver.Start(t, testserver.WithSpeechToText(stt.URL, openaitest.Key))
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(agents.NewCmdAgents(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	decode := func(out string, into any) {
		t.Helper()
		if err := json.Unmarshal([]byte(out), into); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	name := "Renewals"
	campaign, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &name})
	if err != nil {
		t.Fatal(err)
	}

	out, errOut, err := run("create", "Front desk", "--greeting", "Hi, this is Betty.", "--campaign", campaign.Id)
	desk := strings.TrimSpace(out)
	if err != nil || desk == "" || !strings.Contains(errOut, `Created agent "Front desk"`) || !strings.Contains(errOut, "inactive") {
		t.Fatalf("create: %v %q %s", err, out, errOut)
	}
	out, _, err = run("edit", desk, "--language", "en-GB", "--json")
	var edited struct{ Language, Greeting string }
	if decode(out, &edited); err != nil || edited.Language != "en-GB" || edited.Greeting != "Hi, this is Betty." {
		t.Fatalf("edit: %v %s", err, out)
	}

	faq := filepath.Join(t.TempDir(), "faq.yaml")
	if err := os.WriteFile(faq, []byte("- question: What are your hours?\n  answer: 9 to 5.\n- question: Do you deliver?\n  answer: Yes.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := run("faq", "set", desk, "--file", faq); err != nil || !strings.Contains(errOut, "has 2 questions") {
		t.Fatalf("faq set: %v %s", err, errOut)
	}
	if err := os.WriteFile(faq, []byte(`{"Parking?": "Round the back."}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run("faq", "set", desk, "--file", faq); err != nil {
		t.Fatal(err)
	}
	out, _, err = run("faq", "list", desk)
	if err != nil || out != "What are your hours?\t9 to 5.\nDo you deliver?\tYes.\nParking?\tRound the back.\n" {
		t.Fatalf("faq list: %v %q", err, out)
	}
	if out, _, err := run("faq", "set", desk, "--file", faq, "--clear", "--json"); err != nil || strings.TrimSpace(out) != `{
  "Parking?": "Round the back."
}` {
		t.Fatalf("faq set --clear: %v %s", err, out)
	}

	out, _, err = run("duplicate", desk, "--name", "Evenings")
	evenings := strings.TrimSpace(out)
	if err != nil || evenings == "" {
		t.Fatalf("duplicate: %v %q", err, out)
	}
	for _, id := range []string{evenings, desk} {
		if _, errOut, err := run("activate", id); err != nil || !strings.Contains(errOut, "Activated") {
			t.Fatalf("activate: %v %s", err, errOut)
		}
	}
	out, _, err = run("list", "--campaign", campaign.Id, "--json")
	var listed []struct{ ID, Status string }
	if decode(out, &listed); err != nil || len(listed) != 2 || listed[0].ID != desk || listed[0].Status != "active" || listed[1].Status != "inactive" {
		t.Fatalf("list --campaign: %v %s", err, out)
	}
	if _, errOut, err := run("deactivate", desk); err != nil || !strings.Contains(errOut, "Deactivated") {
		t.Fatalf("deactivate: %v %s", err, errOut)
	}
	if out, _, err := run("list"); err != nil || strings.Count(out, "\n") != 2 || !strings.HasPrefix(out, evenings+"\t") {
		t.Fatalf("list: %v %q", err, out)
	}
	if out, _, err := run("view", desk); err != nil || !strings.Contains(out, "LANGUAGE\ten-GB") || !strings.Contains(out, "FAQ\t1 questions") {
		t.Fatalf("view: %v %q", err, out)
	}
	if out, _, err := run("audio", "list", desk); err != nil || out != "" {
		t.Fatalf("audio list: %v %q", err, out)
	}
	// The recording is uploaded for agent audio, and the server transcribes it.
	recording := filepath.Join(t.TempDir(), "model-call.mp3")
	if err := os.WriteFile(recording, uploadstest.MP3(4000), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err = run("audio", "add", desk, recording)
	if err != nil || out == "" || !strings.Contains(errOut, "Uploaded model-call.mp3 (4000 bytes, audio/mpeg).") {
		t.Fatalf("audio add: %v %q %s", err, out, errOut)
	}
	if got := stt.Requests(); len(got) > 1 {
		t.Fatalf("transcribed %d times", len(got))
	}
	mp3 := filepath.Join(t.TempDir(), "greeting.mp3")
	_, errOut, err = run("say", "--agent", desk, "--voice-preset", "espeak-en-us-linda", "--out", mp3)
	if err != nil {
		t.Fatalf("say: %v %s", err, errOut)
	}
	if d, derr := speech.MP3Duration(mustRead(t, mp3)); derr != nil || d <= 0 || !strings.Contains(errOut, "Wrote "+mp3) {
		t.Fatalf("say: %v %s", derr, errOut)
	}

	avail, err := c.SearchPhoneNumbers(ctx, client.SearchAvailablePhoneNumbersParams{})
	if err != nil {
		t.Fatal(err)
	}
	bought, err := c.BuyPhoneNumber(ctx, team, avail[0].PhoneNumber, "http://betty.test")
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, err = run("pair", desk, bought.PhoneNumber.Id)
	if err != nil || !strings.Contains(errOut, "answers the calls") || !strings.Contains(errOut, "The calls follow workflow ") {
		t.Fatalf("pair: %v %s", err, errOut)
	}
	// The workflow the pairing made speaks with the agent: the agent is not deleted until it goes.
	if _, _, err := run("delete", desk, "--yes"); cmdutil.ExitCode(err) == 0 || !strings.Contains(err.Error(), "speaks with this agent") {
		t.Fatalf("delete an agent in use: %v", err)
	}
	flow := strings.Fields(errOut[strings.Index(errOut, "The calls follow workflow "):])[4]
	if err := c.DeleteWorkflow(ctx, flow); err != nil {
		t.Fatal(err)
	}

	for _, id := range []string{desk, evenings} {
		if _, errOut, err := run("delete", id, "--yes"); err != nil || errOut != "Deleted agent "+id+".\n" {
			t.Fatalf("delete: %v %s", err, errOut)
		}
	}
	if _, _, err := run("view", desk); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("view after delete: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
