// Package voices is the voices of a team: the presets of the server's speech engine, and the
// team's custom voice profiles (name, gender, language, recorded samples), at most as many as
// its tier allows.
//
// None of the engines Betty drives can clone a voice from recordings (flite and espeak-ng
// synthesise; an OpenAI-compatible /audio/speech offers fixed voices), so a custom voice is
// approved at once and speaks with the preset nearest to its language and gender; each
// profile says so (Profile.Speaks, Profile.Note), and so does the answer that creates it. The
// samples are kept for an engine that can clone. Refusing custom voices instead would take
// away a team's way to name and keep its voice settings for nothing.
//
// Features that speak with a team's voice call:
//
//	func (s *Service) Synthesize(ctx context.Context, a auth.Actor, text string, ref Ref) ([]byte, error) // MP3
//	func (s *Service) Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error)
//
// where Ref names a preset (PresetID) or a custom voice profile of the actor's team
// (ProfileID). Synthesize answers Invalid for a Ref naming both or neither, NotFound for an
// unknown preset or a profile of another team, Unprocessable for a profile not approved, and
// the speech engine's errors (package speech). Transcribe answers 503
// speech_to_text_not_configured without --stt-url and without PocketSphinx.
package voices

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/store"
)

// Samples are the recorded samples of custom voices: finished uploads of the team (the uploads
// feature). A voice keeps the uploads' ids and marks them used, so they are neither cleaned up
// nor deleted while it has them, and its samples' URLs are always fresh.
type Samples interface {
	// Resolve answers the upload a sample URL names when it is a finished voice-sample upload of
	// the organisation, and an errs.Error (Unprocessable) saying why not otherwise.
	Resolve(ctx context.Context, orgID, url string) (uploadID string, err error)
	// URL is a fresh download URL of an upload.
	URL(ctx context.Context, orgID, uploadID string) (string, error)
	// Use and Release record that the voice by uses an upload, or no longer does.
	Use(ctx context.Context, orgID, uploadID, by string) error
	Release(ctx context.Context, orgID, uploadID, by string) error
}

// Service is the voices domain.
type Service struct {
	db      *store.DB
	speech  *speech.Service
	samples Samples
}

// New returns the service.
func New(db *store.DB, sp *speech.Service, samples Samples) *Service {
	return &Service{db: db, speech: sp, samples: samples}
}

// DefaultLanguage is the language of a custom voice that names none.
const DefaultLanguage = "en-US"

// ---- presets -----------------------------------------------------------------------------

// Presets is a window of the engine's presets and how many there are in all.
func (s *Service) Presets(ctx context.Context, limit, offset int) ([]speech.Voice, int, error) {
	all, err := s.speech.Presets(ctx)
	if err != nil {
		return nil, 0, err
	}
	start := min(offset, len(all))
	return all[start:min(start+limit, len(all))], len(all), nil
}

// PresetsListedAt is when the engine's voices were read.
func (s *Service) PresetsListedAt(ctx context.Context) (time.Time, error) {
	return s.speech.PresetsLoadedAt(ctx)
}

// PresetSample is the MP3 sample of a preset.
func (s *Service) PresetSample(ctx context.Context, id string) ([]byte, error) {
	return s.speech.Sample(ctx, id)
}

// ---- custom voice profiles ---------------------------------------------------------------

// Profile is a custom voice with what it speaks with on this server.
type Profile struct {
	store.VoiceProfile
	// Speaks is the preset the voice speaks with (its Engine speaks it); nil when the server
	// has no voice.
	Speaks *speech.Voice
	// Note says in words what the voice sounds like here and why.
	Note string
	// SampleURLs are fresh download URLs of the samples.
	SampleURLs []string
}

// Input is what a custom voice is made of; nil fields of an update keep their value.
type Input struct {
	Name        *string
	Gender      *speech.Gender
	Description *string
	Language    *string
	AudioURLs   []string // nil: unchanged (an update)
}

// Profiles lists a window of the team's custom voices, newest first.
func (s *Service) Profiles(ctx context.Context, a auth.Actor, limit, offset int) ([]Profile, int, error) {
	rows, total, err := s.db.ListVoiceProfiles(ctx, a.OrganizationID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Profile, 0, len(rows))
	for _, v := range rows {
		p, err := s.profile(ctx, v)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, p)
	}
	return out, total, nil
}

// Create makes a custom voice, approved at once, if the team's tier has a place for it.
func (s *Service) Create(ctx context.Context, a auth.Actor, in Input) (Profile, error) {
	v := store.VoiceProfile{OrganizationID: a.OrganizationID, Language: DefaultLanguage, Status: store.VoiceApproved}
	if a.UserID != "" {
		uid := a.UserID
		v.CreatedBy = &uid
	}
	if err := s.apply(ctx, &v, in); err != nil {
		return Profile{}, err
	}
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		tier, err := s.db.LockVoiceQuota(ctx, a.OrganizationID)
		if err != nil {
			return err
		}
		used, err := s.db.CountVoiceProfiles(ctx, a.OrganizationID)
		if err != nil {
			return err
		}
		if err := billing.Check(tier, billing.LimitCustomVoices, used); err != nil {
			return err
		}
		if err := s.db.CreateVoiceProfile(ctx, &v); err != nil {
			return err
		}
		return s.keepSamples(ctx, v, nil)
	})
	if err != nil {
		return Profile{}, nameTaken(err, v.Name)
	}
	return s.profile(ctx, v)
}

// Update changes the fields given of a custom voice of the team.
func (s *Service) Update(ctx context.Context, a auth.Actor, id string, in Input) (Profile, error) {
	v, err := s.db.VoiceProfile(ctx, a.OrganizationID, id)
	if errors.Is(err, store.ErrNotFound) {
		return Profile{}, errs.NotFoundf("Voice profile")
	}
	if err != nil {
		return Profile{}, err
	}
	before := append(store.Strings(nil), v.SampleUploadIDs...)
	if err := s.apply(ctx, &v, in); err != nil {
		return Profile{}, err
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.UpdateVoiceProfile(ctx, &v); err != nil {
			return err
		}
		return s.keepSamples(ctx, v, before)
	})
	if errors.Is(err, store.ErrNotFound) {
		return Profile{}, errs.NotFoundf("Voice profile")
	}
	if err != nil {
		return Profile{}, nameTaken(err, v.Name)
	}
	return s.profile(ctx, v)
}

// keepSamples marks the voice's samples used and releases those it no longer has.
func (s *Service) keepSamples(ctx context.Context, v store.VoiceProfile, before []string) error {
	by := "voice:" + v.ID
	now := map[string]bool{}
	for _, id := range v.SampleUploadIDs {
		now[id] = true
		if err := s.samples.Use(ctx, v.OrganizationID, id, by); err != nil {
			return err
		}
	}
	for _, id := range before {
		if !now[id] {
			if err := s.samples.Release(ctx, v.OrganizationID, id, by); err != nil {
				return err
			}
		}
	}
	return nil
}

// Delete deletes a custom voice of the team, unless an agent still speaks with it.
func (s *Service) Delete(ctx context.Context, a auth.Actor, id string) error {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		v, err := s.db.VoiceProfile(ctx, a.OrganizationID, id)
		if err != nil {
			return err
		}
		if err := s.db.DeleteVoiceProfile(ctx, a.OrganizationID, id); err != nil {
			return err
		}
		for _, up := range v.SampleUploadIDs {
			if err := s.samples.Release(ctx, a.OrganizationID, up, "voice:"+id); err != nil {
				return err
			}
		}
		return nil
	})
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errs.NotFoundf("Voice profile")
	case errors.Is(err, store.ErrReference):
		return errs.ConflictErr("An agent still speaks with this voice: give the agent another voice first.")
	}
	return err
}

// apply checks the input and writes it into v.
func (s *Service) apply(ctx context.Context, v *store.VoiceProfile, in Input) error {
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if name == "" {
			return errs.InvalidField("body.name", "name is required")
		}
		v.Name = name
	}
	if in.Gender != nil {
		v.Gender = string(*in.Gender)
	}
	if in.Description != nil {
		v.Description = strings.TrimSpace(*in.Description)
	}
	if in.Language != nil {
		v.Language = *in.Language
	}
	if in.AudioURLs != nil {
		ids := store.Strings{}
		for i, u := range in.AudioURLs {
			id, err := s.samples.Resolve(ctx, v.OrganizationID, u)
			if err != nil {
				if e, ok := errs.As(err); ok && len(e.Fields) == 0 {
					e.Fields = []errs.Field{{Name: fmt.Sprintf("body.audioUrls[%d]", i), Message: e.Message}}
				}
				return err
			}
			ids = append(ids, id)
		}
		v.SampleUploadIDs = ids
	}
	return nil
}

func nameTaken(err error, name string) error {
	if errors.Is(err, store.ErrConflict) {
		return errs.ConflictErr(fmt.Sprintf("This team already has a voice named %q.", name))
	}
	return err
}

// profile adds to a stored voice the preset it speaks with. A speech engine that cannot be
// asked does not hide the team's voices: the profile then says the engine is unavailable.
func (s *Service) profile(ctx context.Context, v store.VoiceProfile) (Profile, error) {
	p := Profile{VoiceProfile: v, SampleURLs: []string{}}
	for _, id := range v.SampleUploadIDs {
		u, err := s.samples.URL(ctx, v.OrganizationID, id)
		if err != nil {
			return Profile{}, err
		}
		p.SampleURLs = append(p.SampleURLs, u)
	}
	preset, ok, err := s.speech.Nearest(ctx, speech.Gender(v.Gender), v.Language)
	switch {
	case err != nil:
		p.Note = "The speech engine is not available on this server, so this voice cannot speak now: " + messageOf(err)
	case !ok:
		p.Note = fmt.Sprintf("The %s engine has no voice on this server, so this voice cannot speak now.", s.speech.Engine())
	default:
		p.Speaks = &preset
		p.Note = Note(preset)
	}
	return p, nil
}

// Note says what a custom voice sounds like when it speaks with preset: no engine Betty
// drives clones voices.
func Note(preset speech.Voice) string {
	return fmt.Sprintf("Without a voice-cloning engine, Betty speaks this voice with the preset %s (%s, %s, %s), "+
		"the nearest to its language and gender. Its recordings are kept but not used.", preset.Name, preset.Engine, preset.Language, preset.Gender)
}

func messageOf(err error) string {
	if e, ok := errs.As(err); ok {
		return e.Message
	}
	return "it failed."
}

// ---- speaking ----------------------------------------------------------------------------

// Ref names the voice to speak with: a preset, or a custom voice profile of the team; with
// neither, DefaultFor asks for the default preset of a language (an agent without a voice).
type Ref struct {
	PresetID   string
	ProfileID  string
	DefaultFor string // a BCP 47 language tag
}

// Resolve finds the engine voice a Ref speaks with.
func (s *Service) Resolve(ctx context.Context, a auth.Actor, ref Ref) (speech.Voice, error) {
	switch {
	case ref.PresetID != "" && ref.ProfileID != "":
		return speech.Voice{}, errs.New(errs.Invalid, "Name either a voice preset or a custom voice, not both.")
	case ref.PresetID != "":
		return s.speech.Preset(ctx, ref.PresetID)
	case ref.ProfileID == "" && ref.DefaultFor != "":
		return s.DefaultPreset(ctx, ref.DefaultFor)
	case ref.ProfileID == "":
		return speech.Voice{}, errs.New(errs.Invalid, "Name a voice preset or a custom voice to speak with.")
	}
	v, err := s.db.VoiceProfile(ctx, a.OrganizationID, ref.ProfileID)
	if errors.Is(err, store.ErrNotFound) {
		return speech.Voice{}, errs.NotFoundf("Voice profile")
	}
	if err != nil {
		return speech.Voice{}, err
	}
	if v.Status != store.VoiceApproved {
		return speech.Voice{}, errs.UnprocessableErr(fmt.Sprintf("The voice %q is %s, not approved: it cannot speak yet.", v.Name, v.Status))
	}
	preset, ok, err := s.speech.Nearest(ctx, speech.Gender(v.Gender), v.Language)
	if err != nil {
		return speech.Voice{}, err
	}
	if !ok {
		return speech.Voice{}, speech.Unavailable(fmt.Sprintf("The %s engine has no voice on this server.", s.speech.Engine()), nil)
	}
	return preset, nil
}

// DefaultPreset is the platform's default preset for a language, what an agent without a voice
// speaks with: the first preset in the presets' order that speaks the language (its region
// first), the first preset of all when none does.
func (s *Service) DefaultPreset(ctx context.Context, language string) (speech.Voice, error) {
	v, ok, err := s.speech.Nearest(ctx, speech.Neutral, language)
	if err != nil {
		return speech.Voice{}, err
	}
	if !ok {
		return speech.Voice{}, speech.Unavailable(fmt.Sprintf("The %s engine has no voice on this server.", s.speech.Engine()), nil)
	}
	return v, nil
}

// CheckPreset answers nil when the engine has a preset by that id (for an agent to speak with).
func (s *Service) CheckPreset(ctx context.Context, presetID string) error {
	_, err := s.speech.Preset(ctx, presetID)
	return err
}

// CheckCustom answers nil when voiceID is an approved custom voice of the team, and keeps it
// from being deleted until the transaction in ctx ends (an agent is about to speak with it).
func (s *Service) CheckCustom(ctx context.Context, orgID, voiceID string) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		v, err := s.db.VoiceProfileForAgent(ctx, orgID, voiceID)
		if errors.Is(err, store.ErrNotFound) {
			return errs.NotFoundf("Voice profile")
		}
		if err != nil {
			return err
		}
		if v.Status != store.VoiceApproved {
			return errs.UnprocessableErr(fmt.Sprintf("The voice %q is %s, not approved: an agent cannot speak with it yet.", v.Name, v.Status))
		}
		return nil
	})
}

// Synthesize speaks text with the voice ref names, as MP3.
func (s *Service) Synthesize(ctx context.Context, a auth.Actor, text string, ref Ref) ([]byte, error) {
	v, err := s.Resolve(ctx, a, ref)
	if err != nil {
		return nil, err
	}
	return s.speech.Synthesize(ctx, text, v)
}

// Transcribe turns recorded audio into text (503 speech_to_text_not_configured without
// --stt-url and without PocketSphinx).
func (s *Service) Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error) {
	return s.speech.Transcribe(ctx, audio, fileName)
}

// CheckTranscribes answers nil when speech in language can be transcribed (package speech).
func (s *Service) CheckTranscribes(language string) error { return s.speech.CheckTranscribes(language) }
