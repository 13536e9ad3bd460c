package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/voices"
)

// MaxSpeechText is the longest text Speak says at once.
const MaxSpeechText = 1000

// SpeakInput asks for speech: Text in the voice VoiceID (a custom voice of the team) or
// VoicePresetID; what is missing comes from the agent AgentID (its greeting, its voice).
type SpeakInput struct {
	AgentID, Text, VoiceID, VoicePresetID string
}

// Speak answers text spoken as MP3 (the greeting preview of the agent editor).
func (s *Service) Speak(ctx context.Context, a auth.Actor, in SpeakInput) ([]byte, error) {
	if in.VoiceID != "" && in.VoicePresetID != "" {
		return nil, errs.InvalidField("query.voicePresetId", "send voiceId or voicePresetId, not both")
	}
	if in.AgentID == "" {
		switch {
		case in.Text == "":
			return nil, errs.InvalidField("query.text", "send a text to speak, or an agentProfileId whose greeting to speak")
		case in.VoiceID == "" && in.VoicePresetID == "":
			return nil, errs.InvalidField("query.voicePresetId", "send voiceId or voicePresetId, or an agentProfileId whose voice to speak with")
		}
	}
	text, ref := in.Text, voices.Ref{PresetID: in.VoicePresetID, ProfileID: in.VoiceID}
	if in.AgentID != "" {
		ag, err := s.db.AgentByID(ctx, a.OrganizationID, in.AgentID)
		if err != nil {
			return nil, notFound(err)
		}
		if text == "" {
			if text = ag.Greeting; text == "" {
				return nil, errs.UnprocessableErr(fmt.Sprintf("The agent %q has no greeting to speak: write one, or send a text.", ag.Name))
			}
		}
		if ref == (voices.Ref{}) {
			ref = voiceOf(ag)
		}
	}
	if n := len([]rune(text)); n > MaxSpeechText {
		return nil, errs.InvalidField("query.text", fmt.Sprintf("the text to speak must have at most %d characters, not %d", MaxSpeechText, n))
	}
	return s.voices.Synthesize(ctx, a, text, ref)
}

// voiceOf is the voice an agent speaks with: its custom voice or preset, else the default
// preset of its language.
func voiceOf(ag store.Agent) voices.Ref {
	r := voices.Ref{DefaultFor: cmp.Or(ag.Language, voices.DefaultLanguage)}
	if ag.VoiceID != nil {
		r.ProfileID = *ag.VoiceID
	}
	if ag.VoicePresetID != nil {
		r.PresetID = *ag.VoicePresetID
	}
	return r
}

// ---- teaching audio ----------------------------------------------------------------------

// audioUser is how a teaching audio file marks its upload as used.
func audioUser(audioID string) string { return "agent-audio:" + audioID }

// summaryAttempts is how often the summary of one file is tried before it is marked failed.
const summaryAttempts = 4

// AddAudio adds a finished agent-audio upload (its fileUrl) to an agent's teaching audio and
// queues its summary, in one transaction; name defaults to the upload's file name.
//
// The summary is the transcript of the recording from the configured speech to text (the
// --stt-url endpoint, else PocketSphinx offline): Betty writes no summary it did not hear.
// Without either it answers 503 speech_to_text_not_configured, and for an agent whose language
// the offline engine does not understand 422, adding nothing rather than keeping a file whose
// summary would never come or be gibberish.
func (s *Service) AddAudio(ctx context.Context, a auth.Actor, agentID, fileURL, name string) (Audio, error) {
	var f store.AudioFile
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		ag, err := s.db.AgentByID(ctx, a.OrganizationID, agentID)
		if err != nil {
			return notFound(err)
		}
		uploadID, uploaded, err := s.files.Audio(ctx, a.OrganizationID, fileURL)
		if err != nil {
			return err
		}
		if err := s.voices.CheckTranscribes(cmp.Or(ag.Language, voices.DefaultLanguage)); err != nil {
			return err
		}
		if name = strings.TrimSpace(name); name == "" {
			name = uploaded
		}
		f = store.AudioFile{OrganizationID: a.OrganizationID, AgentID: agentID, UploadID: uploadID, FileName: name}
		if err := s.db.CreateAudioFile(ctx, &f); err != nil {
			return err
		}
		if err := s.files.Use(ctx, a.OrganizationID, uploadID, audioUser(f.ID)); err != nil {
			return err
		}
		return s.jobs.Insert(ctx, summarizeArgs{OrganizationID: a.OrganizationID, AudioID: f.ID},
			&river.InsertOpts{MaxAttempts: summaryAttempts})
	})
	if err != nil {
		return Audio{}, err
	}
	out, err := s.withURLs(ctx, a.OrganizationID, []store.AudioFile{f})
	if err != nil {
		return Audio{}, err
	}
	return out[0], nil
}

// Summarize transcribes one teaching audio file and records the result. A file already
// summarised, or gone with its agent, is left alone (River works a job at least once). It
// answers the error to try again after; a failure that trying again cannot mend is recorded on
// the file and answers nil.
func (s *Service) Summarize(ctx context.Context, orgID, audioID string, lastAttempt bool) error {
	f, err := s.db.AudioFileByID(ctx, orgID, audioID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if f.SummaryStatus != store.SummaryInProgress {
		return nil
	}
	text, err := s.transcribe(ctx, f)
	switch {
	case err == nil && text == "":
		return s.failSummary(ctx, f, "No speech was heard in this recording.")
	case err == nil:
		return s.db.FinishAudioSummary(ctx, orgID, f.ID, store.SummarySuccess, &text, "")
	case errs.Is(err, errs.NotFound):
		return s.failSummary(ctx, f, "The uploaded file is gone.")
	case lastAttempt || !errs.Is(err, errs.Unavailable):
		return s.failSummary(ctx, f, messageOf(err))
	}
	return err
}

func (s *Service) transcribe(ctx context.Context, f store.AudioFile) (string, error) {
	r, name, err := s.files.ReadAudio(ctx, f.OrganizationID, f.UploadID)
	if err != nil {
		return "", err
	}
	defer r.Close()
	text, err := s.voices.Transcribe(ctx, r, name)
	return strings.TrimSpace(text), err
}

func (s *Service) failSummary(ctx context.Context, f store.AudioFile, why string) error {
	return s.db.FinishAudioSummary(ctx, f.OrganizationID, f.ID, store.SummaryError, nil, why)
}

// messageOf is the message people may read of an error (never an internal one).
func messageOf(err error) string {
	if e, ok := errs.As(err); ok && e.Message != "" {
		return e.Message
	}
	return "The recording could not be transcribed."
}

// summarizeArgs is the job that summarises one teaching audio file.
type summarizeArgs struct {
	OrganizationID string `json:"organizationId"`
	AudioID        string `json:"audioId"`
}

func (summarizeArgs) Kind() string { return "agent_audio_summary" }

type summarizer struct {
	river.WorkerDefaults[summarizeArgs]
	s *Service
}

// Timeout leaves room for a long recording at a slow transcription endpoint.
func (w *summarizer) Timeout(*river.Job[summarizeArgs]) time.Duration { return 10 * time.Minute }

func (w *summarizer) Work(ctx context.Context, job *river.Job[summarizeArgs]) error {
	return w.s.Summarize(ctx, job.Args.OrganizationID, job.Args.AudioID, job.Attempt >= job.MaxAttempts)
}
