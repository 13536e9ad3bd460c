package app

import (
	"strings"
	"testing"
)

// The start-up summary names the language, speech and telephony back-ends in use, with what
// they mean and the flag that changes them, and the site-admin rule.
func TestSummaryNamesTheBackEnds(t *testing.T) {
	base := summary{BaseURL: "http://localhost:8080", Addr: "127.0.0.1:8080", Database: "sqlite (/d/betty.db)", DataDir: "/d",
		Files: "/d/files", Encoder: "lame", Local: []string{"flite", "espeak-ng"}, Carrier: "sim",
		SiteAdmin: "site admin: the first account to sign up becomes site administrator (or name one: --admin-email)"}
	got := strings.Join(base.lines(), "\n")
	for _, want := range []string{
		"  language   local brain (no --llm-url: agents say each step's spoken line as written",
		"set --llm-url to an OpenAI-compatible endpoint)",
		"  speech     flite + espeak-ng + lame (local); speech-to-text off (teaching audio answers 503: apt-get install pocketsphinx pocketsphinx-en-us sox lame, or set --stt-url)",
		"  telephony  simulator (fictional numbers and calls, free;",
		"  payments   off (no --stripe-secret-key: site admins grant credits on the dashboard's Admin page)",
		"\n  site admin: the first account to sign up becomes site administrator",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("default summary lacks %q:\n%s", want, got)
		}
	}

	real := base
	real.LLMURL, real.LLMModel = "https://user:secret@llm.example.com/v1", "llama3.1"
	real.TTSURL, real.TTSEngine = "https://tts.example.com/v1", "openai"
	real.Carrier, real.Stripe, real.SMTP = "telnyx", true, true
	real.SiteAdmin = "site admin: boss@example.com (--admin-email)"
	got = strings.Join(real.lines(), "\n")
	for _, want := range []string{
		"  language   llama3.1 at https://user:xxxxx@llm.example.com/v1 (OpenAI-compatible)",
		"  speech     openai (https://tts.example.com/v1);",
		"  telephony  telnyx (real calls, paid from each team's credits)",
		"  payments   stripe WITHOUT webhooks",
		"  site admin: boss@example.com (--admin-email)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("configured summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "user:secret") {
		t.Errorf("the summary shows a password:\n%s", got)
	}

	sphinx := base
	sphinx.STTLocal = true
	if got := strings.Join(sphinx.lines(), "\n"); !strings.Contains(got, "; speech-to-text pocketsphinx (local, US English, modest accuracy; set --stt-url for better)") {
		t.Errorf("pocketsphinx: %s", got)
	}

	missing := base
	missing.Local, missing.Missing = []string{"flite"}, []string{"espeak-ng"}
	if got := strings.Join(missing.lines(), "\n"); !strings.Contains(got, "flite + lame (local) (espeak-ng not installed: its voices are not offered)") {
		t.Errorf("no espeak-ng: %s", got)
	}
	missing.Local, missing.Missing = nil, []string{"flite", "espeak-ng"}
	if got := strings.Join(missing.lines(), "\n"); !strings.Contains(got, "local voices NOT INSTALLED") {
		t.Errorf("no local voice: %s", got)
	}
}
