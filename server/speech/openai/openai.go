// Package openai speaks and transcribes through an OpenAI-compatible HTTP API: OpenAI itself
// or any server that offers the same two endpoints (`--tts-url`, `--stt-url`, each the API's
// base such as https://api.openai.com/v1):
//
//   - POST {base}/audio/speech with JSON {model, input, voice, response_format: "mp3"}
//     answers the MP3 bytes;
//   - POST {base}/audio/transcriptions with multipart/form-data `file` and `model` answers
//     JSON {"text": …}.
//
// Both send `Authorization: Bearer <key>` when a key is set. An error answer has the body
// {"error": {"message", "type", "code"}}; every failure (refused key, unknown model, 429, 5xx,
// no answer in time) becomes a 503 speech_unavailable naming the setting to check; the
// provider's own message goes to the log, not to people.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech"
)

// Config is one endpoint.
type Config struct {
	// BaseURL is the API's base, ending in /v1 for OpenAI.
	BaseURL string
	APIKey  string
	Model   string
	// Timeout bounds one call (default 60 s for speech, 120 s for transcription).
	Timeout time.Duration
	// Client sends the requests (default: a client of its own).
	Client *http.Client
}

func (c Config) withDefaults(timeout time.Duration) Config {
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Timeout <= 0 {
		c.Timeout = timeout
	}
	if c.Client == nil {
		c.Client = &http.Client{}
	}
	return c
}

// maxAudio bounds the audio answered by the speech endpoint; maxJSON a transcription.
const (
	maxAudio = 32 << 20
	maxJSON  = 4 << 20
)

// TTS speaks through POST {base}/audio/speech.
type TTS struct{ c Config }

var _ speech.TextToSpeech = (*TTS)(nil)

// NewTTS returns the text-to-speech adapter.
func NewTTS(c Config) *TTS { return &TTS{c: c.withDefaults(60 * time.Second)} }

// Engine names the engine.
func (t *TTS) Engine() string { return "openai-compatible" }

// voices are OpenAI's voices that every speech model takes (tts-1, tts-1-hd and
// gpt-4o-mini-tts), with how they are usually heard. They speak many languages; English
// best.
var voices = []struct{ name, gender, description string }{
	{"alloy", "neutral", "Balanced and even."},
	{"nova", "female", "Bright and friendly."},
	{"onyx", "male", "Deep and authoritative."},
	{"shimmer", "female", "Clear and warm."},
	{"echo", "male", "Calm and measured."},
	{"coral", "female", "Lively and conversational."},
	{"ash", "male", "Steady and friendly."},
	{"sage", "female", "Soft and thoughtful."},
	{"fable", "male", "Expressive, a storyteller's voice."},
}

// Voices are the endpoint's voices, in a fixed order. The API has no call listing voices;
// these are OpenAI's, which compatible servers map to their own.
func (t *TTS) Voices(context.Context) ([]speech.Voice, error) {
	out := make([]speech.Voice, 0, len(voices))
	for _, v := range voices {
		out = append(out, speech.Voice{ID: "openai-" + v.name, Name: strings.ToUpper(v.name[:1]) + v.name[1:],
			Gender: speech.Gender(v.gender), Language: "en-US", Description: v.description, EngineVoice: v.name, Engine: t.Engine()})
	}
	return out, nil
}

type speechRequest struct {
	Model          string `json:"model"`
	Input          string `json:"input"`
	Voice          string `json:"voice"`
	ResponseFormat string `json:"response_format"`
}

// Synthesize asks the endpoint to speak text with v as MP3, and checks that MP3 came back.
func (t *TTS) Synthesize(ctx context.Context, text string, v speech.Voice) ([]byte, error) {
	body, err := json.Marshal(speechRequest{Model: t.c.Model, Input: text, Voice: v.EngineVoice, ResponseFormat: "mp3"})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, t.c.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.c.BaseURL+"/audio/speech", bytes.NewReader(body))
	if err != nil {
		return nil, speech.Unavailable("Text to speech is misconfigured: --tts-url is not a valid URL.", err)
	}
	req.Header.Set("Content-Type", "application/json")
	audio, err := call(ctx, t.c, req, maxAudio, ttsSettings)
	if err != nil {
		return nil, err
	}
	if _, err := speech.MP3Duration(audio); err != nil {
		return nil, speech.Unavailable("The text-to-speech service (--tts-url) did not answer MP3 audio.", err)
	}
	return audio, nil
}

// STT transcribes through POST {base}/audio/transcriptions.
type STT struct{ c Config }

var _ speech.SpeechToText = (*STT)(nil)

// NewSTT returns the speech-to-text adapter.
func NewSTT(c Config) *STT { return &STT{c: c.withDefaults(120 * time.Second)} }

// Transcribe sends the audio as the multipart field `file` (named fileName) with `model`,
// and answers the `text` of the JSON answer.
func (s *STT) Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.c.Timeout)
	defer cancel()
	pr, pw := io.Pipe()
	form := multipart.NewWriter(pw)
	go func() {
		pw.CloseWithError(writeForm(form, audio, filepath.Base(fileName), s.c.Model))
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.c.BaseURL+"/audio/transcriptions", pr)
	if err != nil {
		pr.Close()
		return "", speech.Unavailable("Speech to text is misconfigured: --stt-url is not a valid URL.", err)
	}
	req.Header.Set("Content-Type", form.FormDataContentType())
	raw, err := call(ctx, s.c, req, maxJSON, sttSettings)
	if err != nil {
		return "", err
	}
	var answer struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Text == nil {
		return "", speech.Unavailable("The speech-to-text service (--stt-url) did not answer a transcript.",
			fmt.Errorf("decode %q: %v", truncate(string(raw), 200), err))
	}
	return strings.TrimSpace(*answer.Text), nil
}

func writeForm(form *multipart.Writer, audio io.Reader, fileName, model string) error {
	if err := form.WriteField("model", model); err != nil {
		return err
	}
	if err := form.WriteField("response_format", "json"); err != nil {
		return err
	}
	part, err := form.CreateFormFile("file", fileName)
	if err != nil {
		return err
	}
	if _, err := io.Copy(part, audio); err != nil {
		return err
	}
	return form.Close()
}

// settings name, for messages, the flags of one endpoint.
type settings struct{ what, url, key, model string }

var (
	ttsSettings = settings{"text-to-speech", "--tts-url", "--tts-api-key", "--tts-model"}
	sttSettings = settings{"speech-to-text", "--stt-url", "--stt-api-key", "--stt-model"}
)

// apiError is the body of an error answer.
type apiError struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"` // a string for OpenAI; some compatible servers send a number
	} `json:"error"`
}

// call sends req with the key and answers the body of a 2xx answer (at most limit bytes), or
// the error people see, naming the setting to check.
func call(ctx context.Context, c Config, req *http.Request, limit int64, s settings) ([]byte, error) {
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	res, err := c.Client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, speech.Unavailable(fmt.Sprintf("The %s service (%s) did not answer within %s.", s.what, s.url, c.Timeout), err)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, speech.Unavailable(fmt.Sprintf("The %s service (%s) could not be reached.", s.what, s.url), err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, speech.Unavailable(fmt.Sprintf("The %s service (%s) did not answer within %s.", s.what, s.url, c.Timeout), err)
	case err != nil:
		return nil, speech.Unavailable(fmt.Sprintf("The %s service (%s) broke off its answer.", s.what, s.url), err)
	case int64(len(raw)) > limit:
		return nil, speech.Unavailable(fmt.Sprintf("The %s service (%s) answered more than %d bytes.", s.what, s.url, limit), nil)
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return raw, nil
	}
	return nil, failure(res, raw, s)
}

// failure turns an error answer into what people see; the provider's message is kept for
// the log only (it may quote part of the key).
func failure(res *http.Response, raw []byte, s settings) error {
	var body apiError
	_ = json.Unmarshal(raw, &body)
	label := strings.TrimSpace(fmt.Sprint(res.StatusCode, " ", codeOf(body)))
	cause := fmt.Errorf("%s %s: %d %s: %s", res.Request.Method, res.Request.URL.Redacted(), res.StatusCode,
		codeOf(body), truncate(body.Error.Message, 500))
	if body.Error.Message == "" {
		cause = fmt.Errorf("%s %s: %d: %s", res.Request.Method, res.Request.URL.Redacted(), res.StatusCode, truncate(string(raw), 200))
	}
	var msg string
	switch {
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		msg = fmt.Sprintf("The %s service refused Betty's credentials (%s): an operator should check %s.", s.what, label, s.key)
	case res.StatusCode == http.StatusNotFound:
		msg = fmt.Sprintf("The %s service answered %s: an operator should check %s (the API's base, such as https://api.openai.com/v1) and %s.",
			s.what, label, s.url, s.model)
	case res.StatusCode == http.StatusTooManyRequests:
		e := errs.Retry(errs.Unavailable, fmt.Sprintf("The %s service is rate limiting Betty (%s); try again shortly.", s.what, label), retryAfter(res))
		e.Code, e.Err = errs.CodeSpeechUnavailable, cause
		return e
	case res.StatusCode >= 500:
		msg = fmt.Sprintf("The %s service (%s) failed (%s); try again later.", s.what, s.url, label)
	default:
		msg = fmt.Sprintf("The %s service (%s) refused the request (%s); an operator should check %s.", s.what, s.url, label, s.model)
	}
	return speech.Unavailable(msg, cause)
}

// codeOf is the error's code, else its type.
func codeOf(b apiError) string {
	if c, ok := b.Error.Code.(string); ok && c != "" {
		return c
	}
	if f, ok := b.Error.Code.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return b.Error.Type
}

func retryAfter(res *http.Response) time.Duration {
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 && s < 3600 {
		return time.Duration(s) * time.Second
	}
	return 5 * time.Second
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
