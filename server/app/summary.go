package app

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/flite"
	"github.com/bettyhq/betty/server/speech/sphinx"
)

// summary is what the start-up summary tells the person who started the server, gathered by
// PrintSummary and written by lines (which summary_test.go reads without a server).
type summary struct {
	BaseURL, Addr, Database, DataDir, Files string
	// LLMURL and LLMModel: the language model's endpoint; "" is the local brain.
	LLMURL, LLMModel string
	// TTSEngine and TTSURL: the text-to-speech engine when an endpoint is set; otherwise
	// the local engines installed (Local) and not installed (Missing), with Encoder.
	TTSEngine, TTSURL, Encoder string
	Local, Missing             []string
	// STTURL is the transcription endpoint; without one, STTLocal says PocketSphinx is
	// installed.
	STTURL   string
	STTLocal bool
	// Carrier is phones.Telephony's Name ("sim", "telnyx").
	Carrier   string
	SMTP      bool
	Stripe    bool
	Webhooks  bool
	SiteAdmin string
}

// PrintSummary writes what the server runs with, for the person who started it.
func (a *App) PrintSummary(w io.Writer, addr string) {
	s := summary{BaseURL: a.cfg.BaseURL, Addr: addr, Database: fmt.Sprintf("%s (%s)", a.db.Dialect(), a.db.Source()),
		DataDir: a.cfg.DataDir, Files: fmt.Sprint(a.files), LLMURL: a.cfg.LLMURL, LLMModel: a.cfg.LLMModel,
		STTURL: a.cfg.STTURL, Carrier: a.tel.Name(), SMTP: a.cfg.SMTPURL != "",
		Stripe: a.cfg.StripeSecretKey != "", Webhooks: a.cfg.StripeWebhookSecret != ""}
	if a.cfg.TTSURL != "" {
		s.TTSEngine, s.TTSURL = a.speech.Engine(), a.cfg.TTSURL
	} else {
		e := espeak.New(espeak.Options{})
		s.Encoder = e.Encoder()
		for _, engine := range []interface {
			Engine() string
			Check() error
		}{flite.New(flite.Options{}), e} {
			if engine.Check() == nil {
				s.Local = append(s.Local, engine.Engine())
			} else {
				s.Missing = append(s.Missing, engine.Engine())
			}
		}
	}
	s.STTLocal = a.speech.TranscribesSpeech() && a.cfg.STTURL == ""
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rule, err := a.identity.SiteAdminRule(ctx)
	if err != nil {
		rule = "site admin: unknown (" + err.Error() + ")"
	}
	s.SiteAdmin = rule
	for _, l := range s.lines() {
		fmt.Fprintln(w, l)
	}
}

// lines are the summary's lines: where Betty runs, then each back-end with what it means
// for a call and the flag that changes it.
func (s summary) lines() []string {
	language := "local brain (no --llm-url: agents say each step's spoken line as written, answer questions from FAQs " +
		"and knowledge bases by matching words, choose branches by word similarity; set --llm-url to an OpenAI-compatible endpoint)"
	if s.LLMURL != "" {
		language = fmt.Sprintf("%s at %s (OpenAI-compatible)", s.LLMModel, redacted(s.LLMURL))
	}
	speaker := strings.Join(s.Local, " + ") + " + " + s.Encoder + " (local)"
	switch {
	case s.TTSURL != "":
		speaker = s.TTSEngine + " (" + redacted(s.TTSURL) + ")"
	case len(s.Local) == 0:
		speaker = "local voices NOT INSTALLED (voices and recordings answer 503: apt-get install flite espeak-ng lame, or set --tts-url)"
	case len(s.Missing) > 0:
		speaker += " (" + strings.Join(s.Missing, ", ") + " not installed: its voices are not offered)"
	}
	listening := "speech-to-text off (teaching audio answers 503: " + sphinx.Install + ", or set --stt-url)"
	switch {
	case s.STTURL != "":
		listening = "speech-to-text " + redacted(s.STTURL)
	case s.STTLocal:
		listening = "speech-to-text pocketsphinx (local, US English, modest accuracy; set --stt-url for better)"
	}
	telephony := "telnyx (real calls, paid from each team's credits)"
	if billing.CallIsFree(s.Carrier) {
		telephony = "simulator (fictional numbers and calls, free; verification codes in this log; set --telnyx-api-key for real calls)"
	}
	mailer := "outbox (no --smtp-url: links are written to this log; site admins: betty admin mail list)"
	if s.SMTP {
		mailer = "smtp"
	}
	pay := "off (no --stripe-secret-key: site admins grant credits on the dashboard's Admin page)"
	switch {
	case s.Stripe && !s.Webhooks:
		pay = "stripe WITHOUT webhooks (set --stripe-webhook-secret)"
	case s.Stripe:
		pay = "stripe"
	}
	return []string{
		"Betty is running at " + s.BaseURL,
		"  listening  " + s.Addr,
		"  database   " + s.Database,
		"  data dir   " + s.DataDir,
		"  files      " + s.Files,
		"  language   " + language,
		"  speech     " + speaker + "; " + listening,
		"  telephony  " + telephony,
		"  mail       " + mailer,
		"  payments   " + pay,
		"  " + s.SiteAdmin,
	}
}

// redacted is a URL without its password, for the summary.
func redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable url)"
	}
	return u.Redacted()
}
