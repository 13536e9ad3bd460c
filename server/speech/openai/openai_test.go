package openai_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/openai"
	"github.com/bettyhq/betty/server/speech/openai/openaitest"
)

func tts(fake *openaitest.Server, key string) *openai.TTS {
	return openai.NewTTS(openai.Config{BaseURL: fake.URL + "/", APIKey: key, Model: "tts-1", Timeout: 2 * time.Second})
}

func stt(fake *openaitest.Server, key string) *openai.STT {
	return openai.NewSTT(openai.Config{BaseURL: fake.URL, APIKey: key, Model: "whisper-1", Timeout: 2 * time.Second})
}

// wantUnavailable checks err is a 503 speech_unavailable whose message says each of want.
func wantUnavailable(t *testing.T, err error, want ...string) *errs.Error {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Unavailable || e.Code != errs.CodeSpeechUnavailable {
		t.Fatalf("err %v, want unavailable speech_unavailable", err)
	}
	for _, w := range want {
		if !strings.Contains(e.Message, w) {
			t.Errorf("message %q does not say %q", e.Message, w)
		}
	}
	return e
}

func TestSpeech(t *testing.T) {
	fake := openaitest.Start(t)
	e := tts(fake, openaitest.Key)
	voices, err := e.Voices(context.Background())
	if err != nil || len(voices) != 9 || voices[0].ID != "openai-alloy" || voices[0].EngineVoice != "alloy" || voices[1].Gender != speech.Female {
		t.Fatalf("voices %+v %v", voices, err)
	}
	mp3, err := e.Synthesize(context.Background(), "Hello there", voices[2])
	if err != nil {
		t.Fatal(err)
	}
	if d, err := speech.MP3Duration(mp3); err != nil || d <= 0 {
		t.Fatalf("duration %s %v", d, err)
	}
	got := fake.Requests()
	want := openaitest.Request{Path: "/v1/audio/speech", Auth: "Bearer " + openaitest.Key, Model: "tts-1", Input: "Hello there", Voice: "onyx", Format: "mp3"}
	if len(got) != 1 || got[0].Path != want.Path || got[0].Auth != want.Auth || got[0].Model != want.Model || got[0].Input != want.Input ||
		got[0].Voice != want.Voice || got[0].Format != want.Format {
		t.Fatalf("requests %+v, want %+v", got, want)
	}
}

func TestSpeechErrors(t *testing.T) {
	fake := openaitest.Start(t)
	voice := speech.Voice{EngineVoice: "alloy"}
	ctx := context.Background()

	// A refused key names the setting; the provider's message (which quotes the key) is for
	// the log only.
	_, err := tts(fake, "sk-wrong").Synthesize(ctx, "hi", voice)
	e := wantUnavailable(t, err, "refused Betty's credentials", "401 invalid_api_key", "--tts-api-key")
	if strings.Contains(e.Message, "Incorrect API key") || !strings.Contains(e.Err.Error(), "Incorrect API key") {
		t.Errorf("message %q, cause %v", e.Message, e.Err)
	}

	fake.Fail(openaitest.Failure{Status: 404, Type: "invalid_request_error", Code: "model_not_found", Message: "The model `tts-9` does not exist"})
	_, err = tts(fake, openaitest.Key).Synthesize(ctx, "hi", voice)
	wantUnavailable(t, err, "404 model_not_found", "--tts-url", "--tts-model")

	fake.Fail(openaitest.Failure{Status: 500, Type: "server_error", Message: "The server had an error while processing your request."})
	_, err = tts(fake, openaitest.Key).Synthesize(ctx, "hi", voice)
	wantUnavailable(t, err, "failed (500 server_error)", "try again later")

	fake.Fail(openaitest.Failure{Status: 429, Type: "requests", Code: "rate_limit_exceeded", Message: "Rate limit reached", RetryAfter: "7"})
	_, err = tts(fake, openaitest.Key).Synthesize(ctx, "hi", voice)
	if e := wantUnavailable(t, err, "rate limiting", "429 rate_limit_exceeded"); e.RetryAfter != 7*time.Second {
		t.Errorf("retry after %s", e.RetryAfter)
	}

	fake.Fail(openaitest.Failure{Status: 400, Type: "invalid_request_error", Message: "Input should be 'alloy', 'ash'…"})
	_, err = tts(fake, openaitest.Key).Synthesize(ctx, "hi", voice)
	wantUnavailable(t, err, "refused the request (400 invalid_request_error)")

	fake.Delay(3 * time.Second)
	start := time.Now()
	_, err = tts(fake, openaitest.Key).Synthesize(ctx, "hi", voice)
	wantUnavailable(t, err, "did not answer within 2s", "--tts-url")
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("took %s", took)
	}

	// Nobody listening.
	_, err = openai.NewTTS(openai.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "tts-1"}).Synthesize(ctx, "hi", voice)
	wantUnavailable(t, err, "could not be reached", "--tts-url")
}

func TestTranscription(t *testing.T) {
	fake := openaitest.Start(t)
	fake.SetTranscript("  I'd like to move my appointment.  ")
	text, err := stt(fake, openaitest.Key).Transcribe(context.Background(), strings.NewReader("ID3 pretend audio"), "/tmp/uploads/call.mp3")
	if err != nil || text != "I'd like to move my appointment." {
		t.Fatalf("%q %v", text, err)
	}
	got := fake.Requests()
	if len(got) != 1 || got[0].Path != "/v1/audio/transcriptions" || got[0].Model != "whisper-1" || got[0].File != "call.mp3" ||
		string(got[0].Audio) != "ID3 pretend audio" || got[0].Auth != "Bearer "+openaitest.Key || got[0].Format != "json" {
		t.Fatalf("requests %+v", got)
	}
}

func TestTranscriptionErrors(t *testing.T) {
	fake := openaitest.Start(t)
	ctx := context.Background()
	_, err := stt(fake, "").Transcribe(ctx, strings.NewReader("x"), "a.mp3")
	wantUnavailable(t, err, "speech-to-text", "--stt-api-key")

	fake.Fail(openaitest.Failure{Status: 503, Type: "server_error", Message: "overloaded"})
	_, err = stt(fake, openaitest.Key).Transcribe(ctx, strings.NewReader("x"), "a.mp3")
	wantUnavailable(t, err, "failed (503 server_error)", "--stt-url")

	fake.Delay(3 * time.Second)
	_, err = stt(fake, openaitest.Key).Transcribe(ctx, strings.NewReader("x"), "a.mp3")
	wantUnavailable(t, err, "did not answer within 2s", "--stt-url")
}

// Without --stt-url nothing transcribes: a 503 naming the setting, never a made-up text.
func TestNotConfigured(t *testing.T) {
	text, err := speech.New(nil, nil).Transcribe(context.Background(), strings.NewReader("x"), "a.mp3")
	e, ok := errs.As(err)
	if text != "" || !ok || e.Kind != errs.Unavailable || e.Code != errs.CodeSpeechToTextNotConfigured || !strings.Contains(e.Message, "--stt-url") {
		t.Fatalf("%q %v", text, err)
	}
}
