package telnyx

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/speech"
)

// Calls is Telnyx Call Control v2 (POST /calls and POST /calls/{call_control_id}/actions/…):
// it implements phones.CallControl. Every command carries a command_id (the caller's key), so
// asking again — after a timeout, a 5xx or a crash, or from another replica — is carried out
// once by Telnyx; Calls itself retries commands that met a timeout, a 429 or a 5xx, with the
// same command_id, within the caller's context. A dial's client_state is the base64 of the
// attempt id, which comes back on every webhook of the call (Webhooks).
//
// Listening is Telnyx's live transcription (transcription_start): the person's words come back
// as call.transcription webhooks; the first final one is the phones.EventHeard. Telnyx does
// not end a transcription on silence, so Calls keeps the listen's timeout itself and gives the
// handler an empty EventHeard when no words came in time (a timer of this process: after a
// restart the conversation engine's own timeout applies).
type Calls struct {
	c      *Client
	key    ed25519.PublicKey // verifies webhooks; nil: not configured
	log    *slog.Logger
	voices VoiceCatalogue
	// Retries is how many times a command is retried after a timeout, 429 or 5xx.
	retries int
	backoff time.Duration

	mu      sync.Mutex
	handler phones.CallEventHandler
	listens map[string]*listening // by call control id
}

// VoiceCatalogue finds a voice preset by id (speech.Service).
type VoiceCatalogue interface {
	Preset(ctx context.Context, id string) (speech.Voice, error)
}

type listening struct {
	key   string
	timer *time.Timer
}

var _ phones.CallControl = (*Calls)(nil)

// CallsOptions tunes Calls.
type CallsOptions struct {
	// Log receives Telnyx's own words on failures.
	Log *slog.Logger
	// Voices resolves the voice ids Speak is given (nil: ids are read as they are, see
	// VoiceFor).
	Voices VoiceCatalogue
	// Retries after a timeout, 429 or 5xx (default 3; negative: none).
	Retries int
	// Backoff is the first wait between tries, doubled each time (default 200 ms).
	Backoff time.Duration
	// PublicKey verifies the webhooks (--telnyx-public-key, base64); "" leaves them
	// unverifiable: Receive answers 503 naming the setting.
	PublicKey string
	// Handler receives the calls' events (SetHandler sets it later).
	Handler phones.CallEventHandler
}

// NewCalls is the call control of the client's account and Call Control application; a
// public key that is not one is an error naming the setting.
func NewCalls(c *Client, o CallsOptions) (*Calls, error) {
	var key ed25519.PublicKey
	if o.PublicKey != "" {
		k, err := ParsePublicKey(o.PublicKey)
		if err != nil {
			return nil, err
		}
		key = k
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Retries == 0 {
		o.Retries = 3
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.Backoff <= 0 {
		o.Backoff = 200 * time.Millisecond
	}
	return &Calls{c: c, key: key, log: o.Log, voices: o.Voices, retries: o.Retries, backoff: o.Backoff,
		handler: o.Handler, listens: map[string]*listening{}}, nil
}

// SetHandler gives the calls' events to h (the dialer). Until it is set, webhooks answer 503
// and Telnyx delivers them again later.
func (k *Calls) SetHandler(h phones.CallEventHandler) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.handler = h
}

func (k *Calls) eventHandler() phones.CallEventHandler {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.handler
}

// EncodeClientState is the client_state of an attempt's call.
func EncodeClientState(attemptID string) string {
	return base64.StdEncoding.EncodeToString([]byte(attemptID))
}

// DecodeClientState is the attempt id a client_state carries ("" and false when it is not
// one Betty set).
func DecodeClientState(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw) == 0 || len(raw) > 256 {
		return "", false
	}
	for _, r := range string(raw) {
		if r < 0x21 || r > 0x7e {
			return "", false
		}
	}
	return string(raw), true
}

// do sends one command, retrying what may be retried with the same body (whose command_id
// makes it idempotent).
func (k *Calls) do(ctx context.Context, path string, body map[string]any, out any) error {
	wait := k.backoff
	for attempt := 0; ; attempt++ {
		err := k.c.call(ctx, http.MethodPost, path, nil, body, out)
		if err == nil || !errors.Is(err, phones.ErrCarrierDown) || attempt >= k.retries || ctx.Err() != nil {
			if err != nil {
				k.log.WarnContext(ctx, "telnyx refused a call control command", "path", path,
					"command_id", body["command_id"], "tries", attempt+1, "err", err)
			}
			return err
		}
		k.log.InfoContext(ctx, "telnyx call control command retried", "path", path, "command_id", body["command_id"], "err", err)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", phones.ErrCarrierDown, ctx.Err())
		}
		wait *= 2
	}
}

// Dial places an outbound call (POST /calls).
func (k *Calls) Dial(ctx context.Context, req phones.DialRequest) (phones.Call, error) {
	if req.Key == "" || req.AttemptID == "" {
		return phones.Call{}, errors.New("telnyx: a dial needs a key and an attempt id")
	}
	body := map[string]any{
		"connection_id": k.c.cfg.ConnectionID,
		"to":            req.To,
		"from":          req.From,
		"command_id":    req.Key,
		"client_state":  EncodeClientState(req.AttemptID),
	}
	if req.RingTimeout > 0 {
		// Telnyx accepts 5 to 600 seconds.
		body["timeout_secs"] = min(max(int(math.Ceil(req.RingTimeout.Seconds())), 5), 600)
	}
	if req.DetectMachine {
		body["answering_machine_detection"] = "detect"
	}
	if req.Record {
		body["record"] = "record-from-answer"
		body["record_format"] = "mp3"
		body["record_channels"] = "single"
	}
	var doc struct {
		Data struct {
			CallControlID string `json:"call_control_id"`
		} `json:"data"`
	}
	if err := k.do(ctx, "/calls", body, &doc); err != nil {
		return phones.Call{}, err
	}
	if doc.Data.CallControlID == "" {
		return phones.Call{}, fmt.Errorf("%w: the dial answer has no call_control_id", phones.ErrCarrierDown)
	}
	return phones.Call{CallControlID: doc.Data.CallControlID}, nil
}

func actionPath(callControlID, action string) string {
	return "/calls/" + url.PathEscape(callControlID) + "/actions/" + action
}

// Speak says text with a voice (POST …/actions/speak).
func (k *Calls) Speak(ctx context.Context, callControlID, text, voice, key string) error {
	v := speech.Voice{ID: voice}
	if k.voices != nil && voice != "" {
		if found, err := k.voices.Preset(ctx, voice); err == nil {
			v = found
		}
	}
	name, lang := VoiceFor(v)
	body := map[string]any{"payload": text, "payload_type": "text", "voice": name, "command_id": key}
	if lang != "" {
		body["language"] = lang
	}
	return k.do(ctx, actionPath(callControlID, "speak"), body, nil)
}

// Listen starts live transcription (POST …/actions/transcription_start); the first final
// transcript is the EventHeard, or an empty one after timeout.
func (k *Calls) Listen(ctx context.Context, callControlID string, timeout time.Duration, key string) error {
	err := k.do(ctx, actionPath(callControlID, "transcription_start"), map[string]any{
		"language": "en", "transcription_engine": "B", "transcription_tracks": "inbound", "command_id": key}, nil)
	if err != nil {
		return err
	}
	if timeout > 0 {
		k.mu.Lock()
		if l := k.listens[callControlID]; l != nil {
			l.timer.Stop()
		}
		l := &listening{key: key}
		l.timer = time.AfterFunc(timeout, func() { k.silence(callControlID, l) })
		k.listens[callControlID] = l
		k.mu.Unlock()
	}
	return nil
}

// silence ends a listen nobody answered: an empty EventHeard.
func (k *Calls) silence(callControlID string, l *listening) {
	k.mu.Lock()
	if k.listens[callControlID] != l {
		k.mu.Unlock()
		return
	}
	delete(k.listens, callControlID)
	h := k.handler
	k.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = k.c.call(ctx, http.MethodPost, actionPath(callControlID, "transcription_stop"), nil,
		map[string]any{"command_id": l.key + ":stop"}, nil)
	if h == nil {
		return
	}
	e := phones.CallEvent{ID: "silence:" + callControlID + ":" + l.key, Kind: phones.EventHeard, CallControlID: callControlID,
		At: time.Now().UTC()}
	if err := h.HandleCallEvent(ctx, e); err != nil {
		k.log.Warn("the end of a silent listen was not handled", "call_control_id", callControlID, "err", err)
	}
}

// heard ends the listen of a call (its words arrived); false when none was going on.
func (k *Calls) heard(ctx context.Context, callControlID string) bool {
	k.mu.Lock()
	l := k.listens[callControlID]
	if l != nil {
		l.timer.Stop()
		delete(k.listens, callControlID)
	}
	k.mu.Unlock()
	if l != nil {
		_ = k.c.call(ctx, http.MethodPost, actionPath(callControlID, "transcription_stop"), nil,
			map[string]any{"command_id": l.key + ":stop"}, nil)
	}
	return l != nil
}

// forget drops the listen of a call that ended.
func (k *Calls) forget(callControlID string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if l := k.listens[callControlID]; l != nil {
		l.timer.Stop()
		delete(k.listens, callControlID)
	}
}

// Transfer forwards the call (POST …/actions/transfer).
func (k *Calls) Transfer(ctx context.Context, callControlID, to, key string) error {
	return k.do(ctx, actionPath(callControlID, "transfer"), map[string]any{"to": to, "command_id": key}, nil)
}

// Answer picks up an inbound call (POST …/actions/answer) with the attempt id as its
// client_state, which Telnyx puts on every later webhook of the call; record records it from
// the answer (MP3, like a dial's).
func (k *Calls) Answer(ctx context.Context, callControlID, attemptID string, record bool, key string) error {
	if attemptID == "" {
		return errors.New("telnyx: answering a call needs the attempt id")
	}
	body := map[string]any{"client_state": EncodeClientState(attemptID), "command_id": key}
	if record {
		body["record"] = "record-from-answer"
		body["record_format"] = "mp3"
		body["record_channels"] = "single"
	}
	return k.do(ctx, actionPath(callControlID, "answer"), body, nil)
}

// Hangup ends the call (POST …/actions/hangup); a call already over is nil.
func (k *Calls) Hangup(ctx context.Context, callControlID, key string) error {
	err := k.do(ctx, actionPath(callControlID, "hangup"), map[string]any{"command_id": key}, nil)
	if ended(err) {
		return nil
	}
	return err
}

// Status asks Telnyx about a call (GET /calls/{call_control_id}, "Retrieve a call status"):
// data.is_alive says whether it is up, and an ended call's data.end_time when it ended.
// Telnyx keeps an ended call's details for 10 minutes; after that, and for a call it never
// had, it answers 404: a call it no longer has, not alive — when the answer is Telnyx's own
// (its errors list), so that a wrong --telnyx-api-url answering 404 to everything ends no
// call. It is not retried here: the dialer's sweep asks again on its next round, and a
// failure (an error) ends nothing.
func (k *Calls) Status(ctx context.Context, callControlID string) (phones.CallStatus, error) {
	var doc struct {
		Data struct {
			IsAlive *bool  `json:"is_alive"`
			EndTime string `json:"end_time"`
		} `json:"data"`
	}
	err := k.c.call(ctx, http.MethodGet, "/calls/"+url.PathEscape(callControlID), nil, nil, &doc)
	var said *Error
	if ended(err) && errors.As(err, &said) && len(said.Errors) > 0 {
		return phones.CallStatus{}, nil
	}
	if err != nil {
		return phones.CallStatus{}, err
	}
	if doc.Data.IsAlive == nil {
		return phones.CallStatus{}, fmt.Errorf("%w: the call status has no is_alive", phones.ErrCarrierDown)
	}
	st := phones.CallStatus{Alive: *doc.Data.IsAlive}
	if !st.Alive && doc.Data.EndTime != "" {
		if t, err := time.Parse(time.RFC3339Nano, doc.Data.EndTime); err == nil {
			st.EndedAt = t.UTC()
		}
	}
	return st, nil
}

// ended says whether Telnyx refused a command because the call is over (90018) or unknown.
func ended(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	if e.Status == http.StatusNotFound {
		return true
	}
	for _, o := range e.Errors {
		if o.Code == "90018" {
			return true
		}
	}
	return false
}

// telnyxVoices are Amazon Polly neural voices Telnyx speaks, per language and gender.
var telnyxVoices = map[string][2]string{ // language → {female, male}
	"en-us": {"AWS.Polly.Joanna-Neural", "AWS.Polly.Matthew-Neural"},
	"en-gb": {"AWS.Polly.Amy-Neural", "AWS.Polly.Brian-Neural"},
	"en-au": {"AWS.Polly.Olivia-Neural", "AWS.Polly.Olivia-Neural"},
	"es-es": {"AWS.Polly.Lucia-Neural", "AWS.Polly.Sergio-Neural"},
	"es-us": {"AWS.Polly.Lupe-Neural", "AWS.Polly.Pedro-Neural"},
	"fr-fr": {"AWS.Polly.Lea-Neural", "AWS.Polly.Remi-Neural"},
	"de-de": {"AWS.Polly.Vicki-Neural", "AWS.Polly.Daniel-Neural"},
	"it-it": {"AWS.Polly.Bianca-Neural", "AWS.Polly.Adriano-Neural"},
	"pt-br": {"AWS.Polly.Camila-Neural", "AWS.Polly.Thiago-Neural"},
}

// VoiceFor is the Telnyx voice (and language, "" when the voice implies it) that speaks like
// a Betty voice preset: a preset that names a Telnyx voice ("Telnyx.…", "AWS.Polly.…",
// "Azure.…", as its id or engine voice) is used as it is; otherwise a neural voice of the
// preset's language and gender, else Telnyx's basic female or male voice in the language.
func VoiceFor(v speech.Voice) (voice, language string) {
	for _, name := range []string{v.EngineVoice, v.ID} {
		for _, p := range []string{"Telnyx.", "AWS.Polly.", "Polly.", "Azure.", "ElevenLabs."} {
			if strings.HasPrefix(name, p) {
				return name, ""
			}
		}
	}
	lang := v.Language
	if lang == "" {
		lang = "en-US"
	}
	male := v.Gender == speech.Male
	if pair, ok := telnyxVoices[strings.ToLower(lang)]; ok {
		if male {
			return pair[1], ""
		}
		return pair[0], ""
	}
	if male {
		return "male", lang
	}
	return "female", lang
}
