// Package config is the server's configuration. Every setting has a default, and can be set
// in an optional YAML file, in a BETTY_* environment variable, or with a flag; a flag beats
// the environment, which beats the file, which beats the default.
package config

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/shopify"
)

// Config is what `betty serve` runs with.
type Config struct {
	// Addr is the listen address of the HTTP server.
	Addr string
	// DataDir holds the SQLite database and local files.
	DataDir string
	// DatabaseURL selects PostgreSQL; empty means SQLite in DataDir.
	DatabaseURL string
	// BaseURL is the public URL of this server, used for links in e-mails.
	BaseURL string
	// LogLevel is debug, info, warn or error; LogFormat is text or json.
	LogLevel  string
	LogFormat string
	// MaxBodyBytes bounds request bodies outside uploads.
	MaxBodyBytes int64
	// ShutdownTimeout bounds the graceful shutdown.
	ShutdownTimeout time.Duration
	// AccessTokenTTL and RefreshTokenTTL are the lifetimes of sign-in tokens.
	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration
	// RateLimit and RateBurst are each caller's token bucket (requests a second, burst).
	RateLimit float64
	RateBurst int
	// SMTPURL (smtp://user:password@host:port) and MailFrom send e-mail; without SMTP, mail
	// is kept in the outbox and its links logged.
	SMTPURL  string
	MailFrom string
	// InternalDomains (at most three) flag staff accounts as internal.
	InternalDomains []string
	// AdminEmail names the site administrator (server/identity, siteadmin.go); empty: the
	// first account to sign up is.
	AdminEmail string
	// AllowedOrigins may appear in e-mailed links besides BaseURL's origin.
	AllowedOrigins []string
	// TrustedProxies are the networks (load balancers) whose X-Forwarded-For is believed.
	TrustedProxies []*net.IPNet
	// BodyTimeout bounds how long a client may take to send a request body.
	BodyTimeout time.Duration
	// UploadIdleTimeout ends an upload's chunk (a tus PATCH) whose body stops arriving for this
	// long; the bytes that arrived are kept and the client resumes from them.
	UploadIdleTimeout time.Duration
	// KnowledgeParseTimeout bounds the time reading one knowledge file may take (past it the
	// file looks damaged); KnowledgeParseMemory, in bytes, what the files read at once on this
	// replica may take in all (server/knowledge.Limits).
	KnowledgeParseTimeout time.Duration
	KnowledgeParseMemory  int64
	// ContactsMaxRows is the most data rows a contacts file may have (server/workflows); a
	// longer file's import ends in error. The import holds one batch at a time whatever this is.
	ContactsMaxRows int

	// StorageURL says where uploaded files live: empty for the data directory's files/
	// folder, s3://key:secret@host/bucket?region=…&secure=true for an S3-compatible store that
	// replicas share.
	StorageURL string

	// Telephony: without TelnyxAPIKey the offline simulator places calls and sells numbers.
	TelnyxAPIKey       string
	TelnyxAPIURL       string
	TelnyxConnectionID string
	TelnyxPublicKey    string

	// The dialer (server/runs): calls a second per caller number and per account, how
	// often one number may be dialled in 24 hours, and how long a call may go without a word
	// from the carrier before Betty asks the carrier whether it still has it.
	DialerCPSPerNumber float64
	DialerCPSAccount   float64
	DialerFrequencyCap int
	DialerSilentAfter  time.Duration

	// Payments through Stripe: without StripeSecretKey purchases answer 503
	// payments_not_configured (a site admin grants credits and sets tiers); without
	// StripeWebhookSecret Stripe's events are refused. StripeAPIURL points at stripe-mock.
	StripeSecretKey     string
	StripeWebhookSecret string
	StripeAPIURL        string
	// TrialCodes maps the trial codes a tier subscription may name to days.
	TrialCodes map[string]int
	// SalesContact is where tier4 (Custom) buyers are sent.
	SalesContact string

	// Speech: text to speech and speech to text through OpenAI-compatible endpoints when their
	// URLs are set; otherwise the local engine (espeak-ng) speaks and nothing transcribes.
	TTSURL, TTSAPIKey, TTSModel string
	STTURL, STTAPIKey, STTModel string

	// Language model of the conversation engine: an OpenAI-compatible chat completions
	// endpoint when LLMURL is set (LLMModel then required), otherwise the local deterministic
	// back-end (server/llm).
	LLMURL, LLMAPIKey, LLMModel string
	// SimCustomer is who plays the person a simulated call reaches: "local" (the default, the
	// deterministic persona reader of server/conversation) or "model" (the language model,
	// which needs LLMURL; it costs a model request per customer turn, so it is a choice).
	SimCustomer string

	// Integrations (issue 13): IntegrationsKey seals the OAuth credentials of connected apps
	// (32 bytes, hex or base64); empty: a key Betty makes once and keeps in the database, like
	// the access-token secret.
	IntegrationsKey string
	// BookACallCountries are the countries (ISO 3166 alpha-2) whose numbers the storefront
	// widget may book calls to (server/integrations/shopify).
	BookACallCountries []string
	// HubSpot (issue 13): the HubSpot app's OAuth credentials (without them connecting a
	// portal answers 501), HubSpot's API and its authorisation page (tests point both at a fake).
	HubSpotClientID, HubSpotClientSecret string
	HubSpotAPIURL, HubSpotAuthURL        string

	// Zapier (issue 13): the partner API and the OAuth client of the team's published Zapier
	// app (templates, zaps, the authorisation callback answer 503 without the client).
	ZapierAPIURL, ZapierTokenURL, ZapierClientID, ZapierClientSecret, ZapierRedirectURI string
	// ZapierHookTesting, set by tests only (no flag), posts REST-hook deliveries through its
	// client, allows the addresses it allows and retries after its delays.
	ZapierHookTesting *ZapierHookTesting
}

// ZapierHookTesting replaces the REST hooks' public-address guard and retry delays in tests.
type ZapierHookTesting struct {
	HTTP        *http.Client
	Allow       func(netip.Addr) bool
	RetryDelays []time.Duration
}

// setting describes one configuration key in every place it can come from.
type setting struct {
	key   string // in the file and, upper-cased with BETTY_, in the environment
	flag  string
	usage string
	def   string
	set   func(c *Config, v string) error
}

func settings() []setting {
	return []setting{
		{"addr", "addr", "listen address", ":8080", func(c *Config, v string) error { c.Addr = v; return nil }},
		{"data_dir", "data-dir", "directory for the SQLite database and local files (default ~/.local/share/betty)", "",
			func(c *Config, v string) error {
				if v == "" {
					v = defaultDataDir()
				}
				c.DataDir = v
				return nil
			}},
		{"database_url", "database-url", "PostgreSQL URL (postgres://…); empty uses SQLite in the data dir", "",
			func(c *Config, v string) error { c.DatabaseURL = v; return nil }},
		{"base_url", "base-url", "public URL of this server, for links in e-mails (default http://localhost<addr>)", "",
			func(c *Config, v string) error { c.BaseURL = strings.TrimRight(v, "/"); return nil }},
		{"log_level", "log-level", "debug, info, warn or error", "info", func(c *Config, v string) error {
			switch v {
			case "debug", "info", "warn", "error":
				c.LogLevel = v
				return nil
			}
			return fmt.Errorf("want debug, info, warn or error")
		}},
		{"log_format", "log-format", "text or json", "text", func(c *Config, v string) error {
			if v != "text" && v != "json" {
				return fmt.Errorf("want text or json")
			}
			c.LogFormat = v
			return nil
		}},
		{"max_body_bytes", "max-body-bytes", "largest request body accepted outside uploads, in bytes", "1048576",
			func(c *Config, v string) error {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n <= 0 {
					return fmt.Errorf("want a positive number of bytes")
				}
				c.MaxBodyBytes = n
				return nil
			}},
		{"shutdown_timeout", "shutdown-timeout", "how long a graceful shutdown waits for requests", "15s",
			func(c *Config, v string) error {
				d, err := time.ParseDuration(v)
				if err != nil || d <= 0 {
					return fmt.Errorf("want a duration such as 15s")
				}
				c.ShutdownTimeout = d
				return nil
			}},
		duration("access_token_ttl", "access-token-ttl", "lifetime of access tokens", "15m",
			func(c *Config, d time.Duration) { c.AccessTokenTTL = d }),
		duration("refresh_token_ttl", "refresh-token-ttl", "lifetime of a session without use (refresh tokens)", "720h",
			func(c *Config, d time.Duration) { c.RefreshTokenTTL = d }),
		{"rate_limit", "rate-limit", "requests a second each caller may make on average (0 turns limiting off)", "20",
			func(c *Config, v string) error {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || f < 0 {
					return fmt.Errorf("want a number of requests a second")
				}
				c.RateLimit = f
				return nil
			}},
		{"rate_burst", "rate-burst", "requests each caller may make at once", "60",
			func(c *Config, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					return fmt.Errorf("want a positive number")
				}
				c.RateBurst = n
				return nil
			}},
		{"smtp_url", "smtp-url", "SMTP relay for e-mail, smtp://user:password@host:port (empty: keep mail in the outbox and log links)", "",
			func(c *Config, v string) error { c.SMTPURL = v; return nil }},
		{"mail_from", "mail-from", "sender address of e-mail", "",
			func(c *Config, v string) error { c.MailFrom = v; return nil }},
		{"internal_domains", "internal-domains", "up to three e-mail domains, comma-separated, whose users are flagged internal", "",
			func(c *Config, v string) error {
				c.InternalDomains = splitList(v)
				if len(c.InternalDomains) > 3 {
					return fmt.Errorf("at most three domains")
				}
				return nil
			}},
		{"admin_email", "admin-email", "e-mail of the site administrator, made so when that account signs up (or at start); empty: the first account to sign up becomes site administrator", "",
			func(c *Config, v string) error {
				v = strings.TrimSpace(v)
				if v != "" && !strings.Contains(v, "@") {
					return fmt.Errorf("want an e-mail address")
				}
				c.AdminEmail = v
				return nil
			}},
		{"allowed_origins", "allowed-origins", "other dashboard origins allowed in e-mailed links, comma-separated", "",
			func(c *Config, v string) error { c.AllowedOrigins = splitList(v); return nil }},
		{"trusted_proxies", "trusted-proxies", "addresses or CIDR ranges of your load balancers, comma-separated: only their X-Forwarded-For is believed", "",
			func(c *Config, v string) error {
				nets, err := parseNets(splitList(v))
				c.TrustedProxies = nets
				return err
			}},
		duration("body_timeout", "body-timeout", "how long a client may take to send a request body (uploads get longer)", "30s",
			func(c *Config, d time.Duration) { c.BodyTimeout = d }),
		duration("upload_idle_timeout", "upload-idle-timeout", "how long an upload's chunk may go without a byte arriving before it ends (what arrived is kept)", "30s",
			func(c *Config, d time.Duration) { c.UploadIdleTimeout = d }),
		{"knowledge_parse_timeout", "knowledge-parse-timeout", "how long reading one knowledge file may take before it counts as damaged (1s to 5m)", "30s",
			func(c *Config, v string) error {
				d, err := time.ParseDuration(v)
				if err != nil || d < time.Second || d > 5*time.Minute {
					return fmt.Errorf("want a duration from 1s to 5m")
				}
				c.KnowledgeParseTimeout = d
				return nil
			}},
		{"knowledge_parse_memory", "knowledge-parse-memory", "MiB the knowledge files read at once on this server may take in all (each takes what its type and size may need)", "128",
			func(c *Config, v string) error {
				n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				if err != nil || n < 32 || n > 1<<20 {
					return fmt.Errorf("want a whole number of MiB from 32 to 1048576")
				}
				c.KnowledgeParseMemory = n << 20
				return nil
			}},
		{"contacts_max_rows", "contacts-max-rows", "the most data rows a contacts file may have (1 to 10000000); a longer file's import ends in error", "1000000",
			func(c *Config, v string) error {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil || n < 1 || n > 10_000_000 {
					return fmt.Errorf("want a whole number of rows from 1 to 10000000")
				}
				c.ContactsMaxRows = n
				return nil
			}},
		text("storage_url", "storage-url", "where uploaded files live: empty for <data dir>/files, or s3://key:secret@host/bucket?region=…&secure=true",
			func(c *Config) *string { return &c.StorageURL }),
		text("telnyx_api_key", "telnyx-api-key", "Telnyx API key: numbers and calls through Telnyx (empty: the offline simulator)",
			func(c *Config) *string { return &c.TelnyxAPIKey }),
		{"telnyx_api_url", "telnyx-api-url", "Telnyx API base URL (tests point it at a fake)", "https://api.telnyx.com/v2",
			func(c *Config, v string) error { c.TelnyxAPIURL = strings.TrimRight(v, "/"); return nil }},
		text("telnyx_connection_id", "telnyx-connection-id", "Telnyx Call Control application (connection) id the numbers are attached to",
			func(c *Config) *string { return &c.TelnyxConnectionID }),
		text("telnyx_public_key", "telnyx-public-key", "Telnyx public key (base64 Ed25519) that signs its webhooks",
			func(c *Config) *string { return &c.TelnyxPublicKey }),
		{"integrations_key", "integrations-key", "key sealing connected apps' OAuth tokens at rest (32 bytes as hex or base64; empty: one Betty makes and keeps in the database)", "",
			func(c *Config, v string) error {
				c.IntegrationsKey = strings.TrimSpace(v)
				if c.IntegrationsKey == "" {
					return nil
				}
				_, err := integrations.ParseKey(c.IntegrationsKey)
				return err
			}},
		{"book_a_call_countries", "book-a-call-countries", "countries whose numbers the storefront book-a-call widget may call, ISO codes comma-separated", "US,CA,GB,IE,AU,NZ",
			func(c *Config, v string) error {
				var err error
				c.BookACallCountries, err = shopify.ParseCountries(v)
				return err
			}},
		text("hubspot_client_id", "hubspot-client-id", "HubSpot app's client id (empty: connecting HubSpot answers 501)",
			func(c *Config) *string { return &c.HubSpotClientID }),
		text("hubspot_client_secret", "hubspot-client-secret", "HubSpot app's client secret (also checks HubSpot's webhook signatures)",
			func(c *Config) *string { return &c.HubSpotClientSecret }),
		{"hubspot_api_url", "hubspot-api-url", "HubSpot API base URL (tests point it at a fake)", "https://api.hubapi.com",
			func(c *Config, v string) error { c.HubSpotAPIURL = strings.TrimRight(v, "/"); return nil }},
		{"hubspot_auth_url", "hubspot-auth-url", "HubSpot's OAuth authorisation page (tests point it at a fake)", "https://app.hubspot.com/oauth/authorize",
			func(c *Config, v string) error { c.HubSpotAuthURL = strings.TrimSpace(v); return nil }},
		{"zapier_api_url", "zapier-api-url", "Zapier partner API base URL (tests point it at a fake)", "https://api.zapier.com",
			func(c *Config, v string) error { c.ZapierAPIURL = strings.TrimRight(v, "/"); return nil }},
		{"zapier_token_url", "zapier-token-url", "Zapier OAuth token endpoint", "https://zapier.com/oauth/token/",
			func(c *Config, v string) error { c.ZapierTokenURL = v; return nil }},
		text("zapier_client_id", "zapier-client-id", "OAuth client id of your Zapier app (empty: Zapier templates, zaps and connecting answer 503; REST hooks and the contacts action work without it)",
			func(c *Config) *string { return &c.ZapierClientID }),
		text("zapier_client_secret", "zapier-client-secret", "OAuth client secret of your Zapier app",
			func(c *Config) *string { return &c.ZapierClientSecret }),
		text("zapier_redirect_uri", "zapier-redirect-uri", "redirect URI registered with your Zapier app (empty: <base url>/apps/zapier/callback)",
			func(c *Config) *string { return &c.ZapierRedirectURI }),
		text("stripe_secret_key", "stripe-secret-key", "Stripe secret key: credits, tiers and phone-number subscriptions through Stripe Checkout (empty: purchases answer 503; a site admin grants credits)",
			func(c *Config) *string { return &c.StripeSecretKey }),
		text("stripe_webhook_secret", "stripe-webhook-secret", "Stripe webhook signing secret (whsec_…) of the endpoint /v1/webhooks/stripe",
			func(c *Config) *string { return &c.StripeWebhookSecret }),
		text("stripe_api_url", "stripe-api-url", "Stripe API base URL (empty: Stripe's; tests point it at stripe-mock)",
			func(c *Config) *string { return &c.StripeAPIURL }),
		{"trial_codes", "trial-codes", "trial codes a tier subscription may name, code=days, comma-separated", "trial14=14",
			func(c *Config, v string) error {
				c.TrialCodes = map[string]int{}
				for _, item := range splitList(v) {
					code, days, ok := strings.Cut(item, "=")
					n, err := strconv.Atoi(strings.TrimSpace(days))
					if !ok || err != nil || n < 1 || n > 365 || strings.TrimSpace(code) == "" {
						return fmt.Errorf("trial code %q: want code=days with 1 to 365 days", item)
					}
					c.TrialCodes[strings.TrimSpace(code)] = n
				}
				return nil
			}},
		{"sales_contact", "sales-contact", "where buyers of the Custom plan (tier4) are sent", "sales@betty.example",
			func(c *Config, v string) error { c.SalesContact = strings.TrimSpace(v); return nil }},
		text("tts_url", "tts-url", "OpenAI-compatible text-to-speech base URL (…/v1); empty: the local espeak-ng engine",
			func(c *Config) *string { return &c.TTSURL }),
		text("tts_api_key", "tts-api-key", "API key of the text-to-speech endpoint", func(c *Config) *string { return &c.TTSAPIKey }),
		{"tts_model", "tts-model", "text-to-speech model name", "tts-1", func(c *Config, v string) error { c.TTSModel = v; return nil }},
		text("stt_url", "stt-url", "OpenAI-compatible speech-to-text base URL (…/v1); empty: no transcription (summaries of teaching audio answer 503)",
			func(c *Config) *string { return &c.STTURL }),
		{"dialer_cps_per_number", "dialer-cps-per-number", "calls a second the dialer starts from one caller number (Telnyx's default: 1)", "1",
			func(c *Config, v string) error { return positive(v, 10000, &c.DialerCPSPerNumber) }},
		{"dialer_cps_account", "dialer-cps-account", "calls a second the dialer starts in all (Telnyx's default per account: 30)", "30",
			func(c *Config, v string) error { return positive(v, 100000, &c.DialerCPSAccount) }},
		{"dialer_frequency_cap", "dialer-frequency-cap", "times a team may dial one number in 24 hours, across campaigns", "3",
			func(c *Config, v string) error {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil || n < 1 || n > 100 {
					return fmt.Errorf("want a whole number from 1 to 100")
				}
				c.DialerFrequencyCap = n
				return nil
			}},
		{"dialer_silent_after", "dialer-silent-after", "how long a call on the line may go without a word from the carrier before Betty asks the carrier about it (and ends it when the carrier no longer has it)", "2m",
			func(c *Config, v string) error {
				d, err := time.ParseDuration(strings.TrimSpace(v))
				if err != nil || d < time.Second || d > time.Hour {
					return fmt.Errorf("want a duration from 1s to 1h, such as 2m")
				}
				c.DialerSilentAfter = d
				return nil
			}},
		text("stt_api_key", "stt-api-key", "API key of the speech-to-text endpoint", func(c *Config) *string { return &c.STTAPIKey }),
		{"stt_model", "stt-model", "speech-to-text model name", "whisper-1", func(c *Config, v string) error { c.STTModel = v; return nil }},
		text("llm_url", "llm-url", "OpenAI-compatible chat completions base URL (…/v1: OpenAI, Ollama, vLLM …) of the conversation engine; empty: the local deterministic back-end",
			func(c *Config) *string { return &c.LLMURL }),
		text("llm_api_key", "llm-api-key", "API key of the language model endpoint", func(c *Config) *string { return &c.LLMAPIKey }),
		{"llm_model", "llm-model", "chat model name (required with --llm-url)", "", func(c *Config, v string) error {
			c.LLMModel = strings.TrimSpace(v)
			if c.LLMURL != "" && c.LLMModel == "" {
				return fmt.Errorf("--llm-model must name the chat model when --llm-url is set")
			}
			return nil
		}},
		{"sim_customer", "sim-customer", "who plays the customer on simulated calls: local (the persona reader) or model (the language model of --llm-url)", "local", func(c *Config, v string) error {
			switch v = strings.TrimSpace(v); {
			case v != "local" && v != "model":
				return fmt.Errorf("want local or model")
			case v == "model" && c.LLMURL == "":
				return fmt.Errorf("model needs --llm-url: the simulated customer is played by the language model")
			}
			c.SimCustomer = v
			return nil
		}},
	}
}

// positive reads a number above 0 and at most max.
func positive(v string, max float64, to *float64) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f <= 0 || f > max {
		return fmt.Errorf("want a number above 0 and at most %g", max)
	}
	*to = f
	return nil
}

// text is a free-text setting with an empty default.
func text(key, flag, usage string, field func(*Config) *string) setting {
	return setting{key, flag, usage, "", func(c *Config, v string) error { *field(c) = strings.TrimSpace(v); return nil }}
}

// parseNets reads IP addresses (one host) and CIDR ranges.
func parseNets(items []string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, it := range items {
		if !strings.Contains(it, "/") {
			ip := net.ParseIP(it)
			if ip == nil {
				return nil, fmt.Errorf("%q is not an IP address or a CIDR range", it)
			}
			bits := 128
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			out = append(out, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(it)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address or a CIDR range", it)
		}
		out = append(out, n)
	}
	return out, nil
}

// Default is the configuration with every default and nothing else set.
func Default() Config {
	c, err := Load(pflag.NewFlagSet("defaults", pflag.ContinueOnError), func(string) string { return "" })
	if err != nil {
		panic(err) // the defaults are valid; config_test checks it
	}
	return c
}

func duration(key, flag, usage, def string, set func(*Config, time.Duration)) setting {
	return setting{key, flag, usage, def, func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("want a duration such as 15m")
		}
		set(c, d)
		return nil
	}}
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func defaultDataDir() string {
	if dir, err := os.UserConfigDir(); err == nil && os.Getenv("HOME") != "" {
		return filepath.Join(filepath.Dir(dir), ".local", "share", "betty")
	}
	return "betty-data"
}

// EnvName is the environment variable of a key.
func EnvName(key string) string { return "BETTY_" + strings.ToUpper(key) }

// RegisterFlags adds every setting's flag, and --config, to fs.
func RegisterFlags(fs *pflag.FlagSet) {
	fs.String("config", "", "optional YAML configuration file (env "+EnvName("config")+")")
	for _, s := range settings() {
		fs.String(s.flag, s.def, s.usage+" (env "+EnvName(s.key)+")")
	}
}

// RegisterDatabaseFlags adds only --config, --data-dir and --database-url: for commands that
// work on the database on the server host without serving.
func RegisterDatabaseFlags(fs *pflag.FlagSet) {
	fs.String("config", "", "optional YAML configuration file (env "+EnvName("config")+")")
	for _, s := range settings() {
		if s.key == "data_dir" || s.key == "database_url" {
			fs.String(s.flag, s.def, s.usage+" (env "+EnvName(s.key)+")")
		}
	}
}

// Load builds the configuration from the defaults, the file named by --config or BETTY_CONFIG,
// the environment and the flags that were set. getenv is os.Getenv outside tests.
func Load(fs *pflag.FlagSet, getenv func(string) string) (Config, error) {
	var c Config
	file := map[string]string{}
	path := getenv(EnvName("config"))
	if f := fs.Lookup("config"); f != nil && f.Changed {
		path = f.Value.String()
	}
	if path != "" {
		var err error
		if file, err = readFile(path); err != nil {
			return c, err
		}
	}
	known := map[string]bool{}
	for _, s := range settings() {
		known[s.key] = true
		v, from := s.def, "default"
		if fv, ok := file[s.key]; ok {
			v, from = fv, path
		}
		if ev := getenv(EnvName(s.key)); ev != "" {
			v, from = ev, EnvName(s.key)
		}
		if f := fs.Lookup(s.flag); f != nil && f.Changed {
			v, from = f.Value.String(), "--"+s.flag
		}
		if err := s.set(&c, v); err != nil {
			return c, fmt.Errorf("%s (from %s): %q: %w", s.key, from, v, err)
		}
	}
	for k := range file {
		if !known[k] {
			return c, fmt.Errorf("%s: unknown setting %q", path, k)
		}
	}
	if c.BaseURL == "" {
		c.BaseURL = "http://" + displayHost(c.Addr)
	}
	return c, nil
}

func readFile(path string) (map[string]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	out := make(map[string]string, len(doc))
	for k, v := range doc {
		out[k] = fmt.Sprint(v)
	}
	return out, nil
}

// displayHost turns a listen address into a host:port people can open: a wildcard or missing
// host (":8080", "0.0.0.0:80", "[::]:8080") is this machine, localhost; any other host is kept,
// an IPv6 one in brackets ("[::1]:8080"). An address without a port is kept as it is.
func displayHost(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
