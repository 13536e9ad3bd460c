package speech

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bettyhq/betty/server/errs"
)

// MaxTextLength is the most characters spoken at once (OpenAI's limit, kept for every engine
// so a team cannot tie the local engine up with a book).
const MaxTextLength = 4096

// Service speaks and transcribes with the configured engines. It keeps the engine's voice list
// (read once, again after a failure) and the samples of the presets (made once each).
type Service struct {
	tts TextToSpeech
	stt SpeechToText

	mu       sync.Mutex
	voices   []Voice
	loadedAt time.Time
	samples  map[string]*sample
}

type sample struct {
	done chan struct{}
	mp3  []byte
	err  error
}

// New returns the service; stt may be NotConfigured.
func New(tts TextToSpeech, stt SpeechToText) *Service {
	if stt == nil {
		stt = NotConfigured{}
	}
	return &Service{tts: tts, stt: stt, samples: map[string]*sample{}}
}

// Engine names the text-to-speech engine.
func (s *Service) Engine() string { return s.tts.Engine() }

// Presets are the engine's voices in the order to show them.
func (s *Service) Presets(ctx context.Context) ([]Voice, error) {
	voices, _, err := s.catalogue(ctx)
	return voices, err
}

// PresetsLoadedAt is when the voice list was read from the engine (the presets' createdAt).
func (s *Service) PresetsLoadedAt(ctx context.Context) (time.Time, error) {
	_, at, err := s.catalogue(ctx)
	return at, err
}

func (s *Service) catalogue(ctx context.Context) ([]Voice, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.voices != nil {
		return s.voices, s.loadedAt, nil
	}
	voices, err := s.tts.Voices(ctx)
	if err != nil {
		return nil, time.Time{}, err
	}
	if voices == nil {
		voices = []Voice{}
	}
	s.voices, s.loadedAt = voices, time.Now().UTC().Truncate(time.Second)
	return s.voices, s.loadedAt, nil
}

// Preset finds a preset by id; NotFound when the engine has none by that id.
func (s *Service) Preset(ctx context.Context, id string) (Voice, error) {
	voices, err := s.Presets(ctx)
	if err != nil {
		return Voice{}, err
	}
	for _, v := range voices {
		if v.ID == id {
			return v, nil
		}
	}
	return Voice{}, errs.NotFoundf("Voice preset")
}

// Nearest is the preset closest to a gender and a language (BCP 47): the same language and
// region first, then the same language, then gender; ties go to the earlier preset. It
// answers false when the engine has no voice at all.
func (s *Service) Nearest(ctx context.Context, g Gender, language string) (Voice, bool, error) {
	voices, err := s.Presets(ctx)
	if err != nil || len(voices) == 0 {
		return Voice{}, false, err
	}
	best, bestScore := voices[0], -1
	for _, v := range voices {
		score := 0
		switch {
		case strings.EqualFold(v.Language, language):
			score += 4
		case strings.EqualFold(primary(v.Language), primary(language)):
			score += 2
		}
		if v.Gender == g {
			score++
		}
		if score > bestScore {
			best, bestScore = v, score
		}
	}
	return best, true, nil
}

// primary is the language of a BCP 47 tag without its region ("en" of "en-US").
func primary(tag string) string {
	p, _, _ := strings.Cut(tag, "-")
	return p
}

// Synthesize speaks text with v as MP3. The text is trimmed; empty or longer than
// MaxTextLength is Invalid.
func (s *Service) Synthesize(ctx context.Context, text string, v Voice) ([]byte, error) {
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return nil, errs.New(errs.Invalid, "There is no text to speak.")
	case n > MaxTextLength:
		return nil, errs.New(errs.Invalid, fmt.Sprintf("The text to speak has %d characters; at most %d are spoken at once.", n, MaxTextLength))
	case !utf8.ValidString(text) || strings.ContainsRune(text, 0):
		return nil, errs.New(errs.Invalid, "The text to speak must be UTF-8 without NUL characters.")
	}
	return s.tts.Synthesize(ctx, text, v)
}

// Sample is the preset's sample: a sentence in its language spoken by it, made on first use
// and kept. Callers asking for the same sample at once share one synthesis; a failure is not
// kept, so the next call tries again.
func (s *Service) Sample(ctx context.Context, id string) ([]byte, error) {
	v, err := s.Preset(ctx, id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	sm, ok := s.samples[id]
	if !ok {
		sm = &sample{done: make(chan struct{})}
		s.samples[id] = sm
		s.mu.Unlock()
		sm.mp3, sm.err = s.Synthesize(context.WithoutCancel(ctx), SampleText(v), v)
		if sm.err != nil {
			s.mu.Lock()
			delete(s.samples, id)
			s.mu.Unlock()
		}
		close(sm.done)
	} else {
		s.mu.Unlock()
	}
	select {
	case <-sm.done:
		return sm.mp3, sm.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// sampleSentences greet a caller in each language presets speak; {name} is the voice's.
var sampleSentences = map[string]string{
	"en": "Hello, this is {name}. Thanks for calling. How can I help you today?",
	"es": "Hola, soy {name}. Gracias por llamar. ¿En qué puedo ayudarle hoy?",
	"fr": "Bonjour, ici {name}. Merci de votre appel. Comment puis-je vous aider aujourd'hui ?",
	"de": "Hallo, hier ist {name}. Danke für Ihren Anruf. Wie kann ich Ihnen heute helfen?",
	"it": "Salve, sono {name}. Grazie per la chiamata. Come posso aiutarla oggi?",
	"pt": "Olá, aqui é {name}. Obrigado por ligar. Como posso ajudar hoje?",
	"nl": "Hallo, u spreekt met {name}. Bedankt voor uw telefoontje. Waarmee kan ik u helpen?",
}

// SampleText is what a voice's sample says: a greeting in its language (English when Betty
// has no sentence in it).
func SampleText(v Voice) string {
	s, ok := sampleSentences[primary(v.Language)]
	if !ok {
		s = sampleSentences["en"]
	}
	return strings.ReplaceAll(s, "{name}", v.Name)
}

// Transcribe turns recorded audio into text with the configured endpoint; without one it
// answers ErrSpeechToTextNotConfigured.
func (s *Service) Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error) {
	return s.stt.Transcribe(ctx, audio, fileName)
}

// Understander is a transcriber that understands some languages only (the offline engine).
type Understander interface {
	// Understands says whether speech in a language (BCP 47) is transcribed.
	Understands(language string) bool
}

// CheckTranscribes answers nil when speech in language (BCP 47) can be transcribed here:
// ErrSpeechToTextNotConfigured without a transcriber, Unprocessable when the transcriber does
// not understand the language (it would write English-sounding words for it).
func (s *Service) CheckTranscribes(language string) error {
	if !s.TranscribesSpeech() {
		return ErrSpeechToTextNotConfigured
	}
	if u, ok := s.stt.(Understander); ok && !u.Understands(language) {
		return errs.UnprocessableErr(fmt.Sprintf("Offline transcription on this server understands English only, not %s: "+
			"an operator must set --stt-url to an OpenAI-compatible transcription endpoint for other languages.", language))
	}
	return nil
}

// TranscribesSpeech says whether a transcription endpoint is configured.
func (s *Service) TranscribesSpeech() bool {
	_, off := s.stt.(NotConfigured)
	return !off
}
