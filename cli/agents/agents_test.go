package agents

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
)

func ptr[T any](v T) *T { return &v }

// The rules copy the contract's.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	create := spec.Components.Schemas["CreateAgentRequest"].Value.Properties
	var text = create["name"].Value
	for _, p := range spec.Paths.Find("/v1/agent/text-to-speech").Get.Parameters {
		if p.Value.Name == "text" {
			text = p.Value.Schema.Value
		}
	}
	faq := spec.Components.Schemas["AgentFaq"].Value
	for _, c := range []struct {
		rule    cmdutil.Rule
		min     uint64
		max     *uint64
		pattern string
	}{
		{rule: Name, min: create["name"].Value.MinLength, max: create["name"].Value.MaxLength},
		{rule: Greeting, min: create["greeting"].Value.MinLength, max: create["greeting"].Value.MaxLength},
		{rule: Instructions, min: create["instructions"].Value.MinLength, max: create["instructions"].Value.MaxLength},
		{rule: Language, max: ptr(uint64(0)), pattern: create["language"].Value.Pattern},
		{rule: SpeechText, min: text.MinLength, max: text.MaxLength},
		{rule: Answer, max: faq.AdditionalProperties.Schema.Value.MaxLength},
	} {
		if c.max == nil || uint64(c.rule.Min) != c.min || uint64(c.rule.Max) != *c.max || c.rule.Pattern != c.pattern {
			t.Errorf("%s: rule %+v, the contract %d…%v %q", c.rule.Name, c.rule, c.min, c.max, c.pattern)
		}
	}
	if faq.MaxProps == nil || int(*faq.MaxProps) != maxFAQ {
		t.Errorf("at most %d questions, the contract %v", maxFAQ, faq.MaxProps)
	}
}

func TestParseFAQ(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     client.AgentFaq
		wantErr  string
	}{
		{name: "mapping", in: "\"[2] Deliver?\": Yes.\nHours?: 9 to 5.\n", want: client.AgentFaq{"[2] Deliver?": "Yes.", "Hours?": "9 to 5."}},
		{name: "json", in: `{"[1] Hours?": "9 to 5."}`, want: client.AgentFaq{"[1] Hours?": "9 to 5."}},
		{name: "list", in: "- question: Hours?\n  answer: 9 to 5.\n- question: \"[9] Kept?\"\n  answer: k\n- question: Deliver?\n  answer: Yes.\n",
			want: client.AgentFaq{"[1] Hours?": "9 to 5.", "[9] Kept?": "k", "[3] Deliver?": "Yes."}},
		{name: "empty", in: "", wantErr: "no questions"},
		{name: "scalar", in: "hello", wantErr: "want a mapping"},
		{name: "nested", in: "Hours?:\n  a: b\n", wantErr: "line 1: want a question and its answer as text"},
		{name: "bad list item", in: "- just text\n", wantErr: "line 1: want a question and an answer"},
		{name: "empty question", in: "- answer: x\n", wantErr: "a question is empty"},
		{name: "twice", in: "- question: A?\n  answer: 1\n- question: \"[1] A?\"\n  answer: 2\n", wantErr: `question "[1] A?" is there twice`},
		{name: "long answer", in: "Q?: " + strings.Repeat("a", 5001), wantErr: "want at most 5000 characters"},
		{name: "long question", in: strings.Repeat("q", 501) + ": a", wantErr: "want at most 500 characters"},
		{name: "too many", in: strings.Repeat("- question: Q\n  answer: a\n", 201), wantErr: "201 questions, an agent has at most 200"},
		{name: "not yaml", in: "a: [", wantErr: "yaml"},
	} {
		got, err := ParseFAQ([]byte(c.in))
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%s: %v %v", c.name, got, err)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
	}
}

// noRun builds each verb with a run that does nothing, so only the flags and arguments are
// checked.
func noRun(f *cmdutil.Factory, verb string) *cobra.Command {
	switch verb {
	case "create":
		return NewCmdCreate(f, func(*CreateOptions) error { return nil })
	case "edit":
		return NewCmdEdit(f, func(*EditOptions) error { return nil })
	case "faq set":
		return NewCmdFAQSet(f, func(*FAQSetOptions) error { return nil })
	case "say":
		return NewCmdSay(f, func(*SayOptions) error { return nil })
	case "pair":
		return NewCmdPair(f, func(*PairOptions) error { return nil })
	case "audio add":
		return NewCmdAudioAdd(f, func(*AudioAddOptions) error { return nil })
	case "activate":
		return NewCmdActivate(f, func(*StatusOptions) error { return nil })
	}
	panic(verb)
}

func TestFlags(t *testing.T) {
	faqFile := filepath.Join(t.TempDir(), "faq.yaml")
	if err := os.WriteFile(faqFile, []byte("- question: Hours?\n  answer: 9 to 5.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		verb    string
		args    []string
		tty     bool
		wantErr string
	}{
		{verb: "create", args: []string{"Front desk", "--greeting", "Hi", "--language", "de", "--voice-preset", "p", "--active"}},
		{verb: "create", args: []string{"Front desk", "--voice", "v", "--voice-preset", "p"}, wantErr: "[voice voice-preset] were all set"},
		{verb: "create", args: []string{"Front desk", "--language", "english"}, wantErr: "want a language tag"},
		{verb: "create", args: []string{"Front desk", "--instructions-file", "/no/such/file"}, wantErr: "cannot read /no/such/file"},
		{verb: "create", wantErr: "give a name for the agent"},
		{verb: "edit", args: []string{"agent-1"}, wantErr: "nothing to change"},
		{verb: "edit", args: []string{"agent-1", "--greeting", ""}},
		{verb: "edit", args: []string{"agent-1", "--knowledge-base", "kb-1", "--no-knowledge-base"}, wantErr: "[knowledge-base no-knowledge-base] were all set"},
		{verb: "faq set", args: []string{"agent-1"}, wantErr: "give the questions and answers with --file"},
		{verb: "faq set", args: []string{"agent-1", "--file", faqFile}},
		{verb: "faq set", args: []string{"agent-1", "--clear"}},
		{verb: "say", args: []string{"Hello"}, wantErr: "give a voice: --agent, --voice or --voice-preset"},
		{verb: "say", wantErr: "give a text to say, or --agent"},
		{verb: "say", args: []string{"--agent", "agent-1"}, tty: true, wantErr: "say writes MP3 audio"},
		{verb: "say", args: []string{"--agent", "agent-1", "--out", "x.mp3"}, tty: true},
		{verb: "say", args: []string{strings.Repeat("a", 1001), "--agent", "a"}, wantErr: "want at most 1000 characters"},
		{verb: "pair", args: []string{"agent-1"}, wantErr: "give the id of the agent and of the phone number"},
		{verb: "audio add", args: []string{"agent-1", "nothing.mp3"}, wantErr: `recording "nothing.mp3" is neither a file nor an http(s) URL`},
		{verb: "audio add", args: []string{"agent-1", faqFile}},
		{verb: "activate", wantErr: "give the id of the agent"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{TTY: c.tty})
		err := clitest.Run(noRun(f, c.verb), c.args...)
		if c.wantErr == "" && err != nil {
			t.Errorf("%s %v: %v", c.verb, c.args, err)
		}
		if c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%s %v: error %v, want %q", c.verb, c.args, err, c.wantErr)
		}
	}
}

var agent = client.AgentProfile{Id: "agent-1", OrganizationId: "team-1", Name: "Front desk", Status: client.AgentStatusActive,
	CampaignId: ptr("camp-1"), Language: "en-US", VoicePresetId: ptr("espeak-en-us-linda"), Greeting: "Hi, this is Betty from Acme.",
	Instructions: "Be brief.", Faq: client.AgentFaq{"[2] Do you deliver?": "Yes, within 20 miles.", "[1] What are your hours?": "9 to 5.", "Parking?": "Round the back."},
	KnowledgeFiles: []client.AgentKnowledgeFile{}, AudioFiles: []client.AgentAudioFile{}, CreatedAt: clitest.When, UpdatedAt: clitest.When}

func TestListAndViewRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/agent/list/team-1", clitest.Page([]client.AgentProfile{agent}))
	stub.Handle("GET /v1/agent/list/campaigns/camp-1", clitest.Page([]client.AgentProfile{agent}))
	stub.Handle("GET /v1/agent/agent-1", clitest.Data(http.StatusOK, agent))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
	clitest.GoldenOutputs(t, "view", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdView(f, nil) }, "agent-1")
	clitest.GoldenOutputs(t, "faq", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdFAQList(f, nil) }, "agent-1")
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdList(f, nil), "--campaign", "camp-1"); err != nil || !strings.HasPrefix(s.Out.String(), "agent-1\t") ||
		stub.Last().Query.Get("organizationId") != "team-1" {
		t.Fatalf("list --campaign: %v %q", err, s.Out)
	}
}

func TestChangesRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/agent/create", clitest.Data(http.StatusCreated, agent))
	stub.Handle("PATCH /v1/agent/agent-1", clitest.Data(http.StatusOK, agent))
	stub.Handle("POST /v1/agent/duplicate", clitest.Data(http.StatusCreated, agent))
	stub.Handle("PUT /v1/agent/activate/agent-1", clitest.Data(http.StatusOK, agent))
	stub.Handle("PUT /v1/agent/deactivate/agent-1", clitest.Data(http.StatusOK, agent))
	stub.Handle("POST /v1/agent/faq/agent-1", clitest.Data(http.StatusOK, agent))
	stub.Handle("POST /v1/agent/config/call", clitest.Data(http.StatusOK, client.AgentCallConfig{Id: "cfg-1", OrganizationId: "team-1",
		AgentId: "agent-1", PhoneNumberId: "num-1", CreatedAt: clitest.When, UpdatedAt: clitest.When}))
	stub.Handle("DELETE /v1/agent/delete/agent-1", clitest.Data(http.StatusOK, client.Deleted{Id: "agent-1"}))
	faqFile := filepath.Join(t.TempDir(), "faq.yaml")
	if err := os.WriteFile(faqFile, []byte("- question: What are your hours?\n  answer: 9 to 5.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args              []string
		wantBody, wantOut string
		wantErr           string
	}{
		{args: []string{"create", "Front desk", "--campaign", "camp-1", "--active", "--voice-preset", "espeak-en-us-linda"},
			wantBody: `{"campaignId":"camp-1","name":"Front desk","organizationId":"team-1","status":"active","voicePresetId":"espeak-en-us-linda"}`,
			wantOut:  "agent-1\n", wantErr: `Created agent "Front desk" (agent-1), active.`},
		{args: []string{"edit", "agent-1", "--greeting", "", "--language", "en-GB"}, wantBody: `{"greeting":"","language":"en-GB","organizationId":"team-1"}`,
			wantOut: "agent-1\n", wantErr: `Updated agent "Front desk"`},
		{args: []string{"edit", "agent-1", "--knowledge-base", "kb-1"}, wantBody: `{"knowledgeBaseId":"kb-1","organizationId":"team-1"}`,
			wantOut: "agent-1\n", wantErr: `Updated agent "Front desk"`},
		{args: []string{"edit", "agent-1", "--no-knowledge-base"}, wantBody: `{"knowledgeBaseId":null,"organizationId":"team-1"}`,
			wantOut: "agent-1\n", wantErr: `Updated agent "Front desk"`},
		{args: []string{"duplicate", "agent-1", "--name", "Evenings"}, wantBody: `{"id":"agent-1","name":"Evenings","organizationId":"team-1"}`,
			wantOut: "agent-1\n", wantErr: "Created agent"},
		{args: []string{"activate", "agent-1"}, wantOut: "agent-1\n", wantErr: `Activated agent "Front desk"`},
		{args: []string{"deactivate", "agent-1"}, wantOut: "agent-1\n", wantErr: `Deactivated agent "Front desk"`},
		{args: []string{"faq", "set", "agent-1", "--file", faqFile, "--clear"}, wantBody: `{"clear":true,"faq":{"[1] What are your hours?":"9 to 5."},"organizationId":"team-1"}`,
			wantOut: "What are your hours?\t9 to 5.\nDo you deliver?\tYes, within 20 miles.\nParking?\tRound the back.\n", wantErr: "has 3 questions"},
		{args: []string{"faq", "set", "agent-1", "--clear"}, wantBody: `{"clear":true,"faq":{},"organizationId":"team-1"}`, wantErr: "has 3 questions"},
		{args: []string{"pair", "agent-1", "num-1"}, wantBody: `{"agentId":"agent-1","organizationId":"team-1","phoneNumberId":"num-1"}`,
			wantErr: "Agent agent-1 answers the calls to phone number num-1 now."},
		{args: []string{"delete", "agent-1", "--yes"}, wantErr: "Deleted agent agent-1."},
	} {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdAgents(f), c.args...); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if body := strings.TrimSpace(string(stub.Last().Body)); c.wantBody != "" && body != c.wantBody {
			t.Errorf("%v: sent %s, want %s", c.args, body, c.wantBody)
		}
		if (c.wantOut != "" && s.Out.String() != c.wantOut) || !strings.Contains(s.ErrOut.String(), c.wantErr) {
			t.Errorf("%v: out %q, err %q", c.args, s.Out, s.ErrOut)
		}
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdAgents(f), "create", "Front desk", "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "create.json", s.Out.Bytes())
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdAgents(f), "pair", "agent-1", "num-1", "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "pair.json", s.Out.Bytes())
}

// Speech and teaching audio against a stub answering the contract's shapes.
func TestSayAndAudioRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/agent/text-to-speech", clitest.Data(http.StatusOK, client.TextToSpeech{Audio: []byte("ID3 mp3"), MimeType: client.TextToSpeechMimeTypeAudiompeg}))
	audio := client.AgentAudioFile{Id: "audio-1", AgentId: "agent-1", OrganizationId: "team-1", FileName: "model-call.mp3",
		Url: "https://betty.example.com/v1/uploads/u1/file", SummaryStatus: client.AgentAudioSummaryStatusSuccess,
		Summary: ptr("Greets warmly, confirms the booking, ends politely."), CreatedAt: clitest.When, UpdatedAt: clitest.When}
	stub.Handle("POST /v1/agent/summary", clitest.Data(http.StatusCreated, audio))
	stub.Handle("GET /v1/agent/audio-list", clitest.Page([]client.AgentAudioFile{audio}))

	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdSay(f, nil), "Hello", "--agent", "agent-1"); err != nil || s.Out.String() != "ID3 mp3" {
		t.Fatalf("say to stdout: %v %q", err, s.Out)
	}
	if q := stub.Last().Query; q.Get("text") != "Hello" || q.Get("agentProfileId") != "agent-1" || q.Get("organizationId") != "team-1" {
		t.Errorf("query %v", q)
	}
	out := filepath.Join(t.TempDir(), "greeting.mp3")
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true})
	if err := clitest.Run(NewCmdSay(f, nil), "--voice-preset", "espeak-en-us-linda", "Hi", "--out", out); err != nil ||
		s.ErrOut.String() != "Wrote "+out+" (7 bytes).\n" {
		t.Fatalf("say --out: %v %q", err, s.ErrOut)
	}
	if raw, err := os.ReadFile(out); err != nil || string(raw) != "ID3 mp3" {
		t.Fatalf("%s: %q %v", out, raw, err)
	}

	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdAudioAdd(f, nil), "agent-1", audio.Url, "--name", "model-call.mp3"); err != nil || s.Out.String() != "audio-1\n" ||
		!strings.Contains(s.ErrOut.String(), "Added model-call.mp3 to agent agent-1; its summary is success.") {
		t.Fatalf("audio add: %v %q %q", err, s.Out, s.ErrOut)
	}
	if body := strings.TrimSpace(string(stub.Last().Body)); body != `{"fileName":"model-call.mp3","url":"https://betty.example.com/v1/uploads/u1/file"}` {
		t.Errorf("sent %s", body)
	}
	clitest.GoldenOutputs(t, "audio", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdAudioList(f, nil) }, "agent-1")
}
