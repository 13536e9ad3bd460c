package app

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/speech/espeak"
)

// summary is what the start-up summary tells the person who started the server, gathered by
// PrintSummary and written by lines (which summary_test.go reads without a server).
type summary struct {
	BaseURL, Addr, Database, DataDir, Files string
	// LLMURL and LLMModel: the language model's endpoint; "" is the local brain.
	LLMURL, LLMModel string
	// TTSEngine and TTSURL: the text-to-speech engine when an endpoint is set; otherwise
	// espeak-ng with Encoder, or EspeakMissing when a program is not installed.
	TTSEngine, TTSURL, Encoder string
	EspeakMissing              bool
	STTURL                     string
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
		s.Encoder, s.EspeakMissing = e.Encoder(), e.Check() != nil
	}
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
	speaker := "espeak-ng + " + s.Encoder + " (local)"
	switch {
	case s.TTSURL != "":
		speaker = s.TTSEngine + " (" + redacted(s.TTSURL) + ")"
	case s.EspeakMissing:
		speaker = "espeak-ng NOT INSTALLED (voices and recordings answer 503: apt-get install espeak-ng lame, or set --tts-url)"
	}
	listening := "speech-to-text off (set --stt-url to transcribe agents' teaching audio)"
	if s.STTURL != "" {
		listening = "speech-to-text " + redacted(s.STTURL)
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
