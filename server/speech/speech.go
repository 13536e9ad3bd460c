// Package speech is Betty's speech provider: text to speech (an engine that lists its voices
// and speaks a text with one of them as MP3) and speech to text (transcribing recorded audio).
//
// The engines live in sub-packages, chosen by configuration in server/app:
//
//   - speech/espeak: the local engine, offline. espeak-ng speaks, lame (or ffmpeg) encodes the
//     MP3; both run as processes with a timeout and a bounded number at once.
//
//   - speech/openai: an OpenAI-compatible endpoint (`--tts-url`: POST {base}/audio/speech;
//     `--stt-url`: POST {base}/audio/transcriptions), for OpenAI and servers that speak its
//     wire format. speech/openai/openaitest is a fake of that format for tests.
//
//   - speech/flite: the second local engine, offline: flite speaks (clearer than espeak-ng,
//     English only), lame encodes. Combine offers both engines' voices as one list.
//
//   - speech/sphinx: offline speech to text with PocketSphinx (US English, modest accuracy),
//     used without `--stt-url` when it is installed.
//
// With neither `--stt-url` nor PocketSphinx the transcriber is NotConfigured, which answers
// 503 with code speech_to_text_not_configured naming what to install or set. Nothing here
// makes up a transcript.
//
// Service is what the rest of the server calls:
//
//	func (s *Service) Presets(ctx context.Context) ([]Voice, error)
//	func (s *Service) Preset(ctx context.Context, id string) (Voice, error)
//	func (s *Service) Nearest(ctx context.Context, g Gender, language string) (Voice, bool, error)
//	func (s *Service) Sample(ctx context.Context, id string) ([]byte, error)
//	func (s *Service) Synthesize(ctx context.Context, text string, v Voice) ([]byte, error)
//	func (s *Service) Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error)
//
// A team's voices (presets and custom voice profiles) are resolved by server/voices, whose
// Service.Synthesize(ctx, actor, text, voices.Ref) is the call for features that speak with
// the voice an agent was given.
//
// Errors are errs.Error values: Invalid for a text that is empty or too long, NotFound for an
// unknown preset, Unavailable with code speech_unavailable when the engine is missing, failed
// or took too long (the message names the setting to check), Unavailable with Retry-After
// when the local engine is at capacity.
package speech

import (
	"context"
	"io"

	"github.com/bettyhq/betty/server/errs"
)

// Gender is how a voice sounds (the contract's VoiceGender).
type Gender string

const (
	Female  Gender = "female"
	Male    Gender = "male"
	Neutral Gender = "neutral"
)

// Voice is one voice of an engine, offered to teams as a preset.
type Voice struct {
	// ID is the preset's id: stable, URL-safe and unique across engines
	// ("espeak-en-us-linda", "openai-alloy"). Agents keep it.
	ID string
	// Name is shown to people ("Linda").
	Name        string
	Gender      Gender
	Language    string // BCP 47 ("en-US")
	Description string
	// EngineVoice is what the engine is given to speak with it ("en-us+linda", "alloy").
	EngineVoice string
	// Engine names the engine that speaks it (TextToSpeech.Engine: "espeak-ng", "flite").
	Engine string
}

// TextToSpeech is an engine that speaks.
type TextToSpeech interface {
	// Engine names the engine for people ("espeak-ng", "openai-compatible").
	Engine() string
	// Voices are the engine's voices offered as presets, in the order to show them.
	Voices(ctx context.Context) ([]Voice, error)
	// Synthesize speaks text with v and answers MP3 bytes.
	Synthesize(ctx context.Context, text string, v Voice) ([]byte, error)
}

// SpeechToText transcribes recorded audio (MP3, WAV, M4A…; fileName's extension says which).
type SpeechToText interface {
	Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error)
}

// NotConfigured is the transcriber without `--stt-url` and without PocketSphinx: every call
// answers 503 with code speech_to_text_not_configured, naming what to install or set.
type NotConfigured struct{}

// ErrSpeechToTextNotConfigured is what NotConfigured answers.
var ErrSpeechToTextNotConfigured = errs.WithCode(errs.Unavailable, errs.CodeSpeechToTextNotConfigured,
	"Speech to text is not configured on this server: an operator must install PocketSphinx for offline transcription "+
		"(apt-get install pocketsphinx pocketsphinx-en-us sox lame, then restart Betty), or set --stt-url (BETTY_STT_URL) "+
		"to an OpenAI-compatible transcription endpoint, with --stt-api-key when it needs one.")

// Transcribe answers ErrSpeechToTextNotConfigured.
func (NotConfigured) Transcribe(context.Context, io.Reader, string) (string, error) {
	return "", ErrSpeechToTextNotConfigured
}

// Unavailable is the error of an engine that could not speak or transcribe: message says
// what happened and which setting to check; cause is kept for the log.
func Unavailable(message string, cause error) error {
	e := errs.WithCode(errs.Unavailable, errs.CodeSpeechUnavailable, message)
	e.Err = cause
	return e
}
