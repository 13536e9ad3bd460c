package voices_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/openai"
	"github.com/bettyhq/betty/server/speech/openai/openaitest"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/voices"
)

func team(t *testing.T, db *store.DB, email string) auth.Actor {
	t.Helper()
	ctx := context.Background()
	u := store.User{Email: email}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	o := store.Organization{Name: "Team of " + email, OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		t.Fatal(err)
	}
	return auth.Actor{Principal: auth.Principal{UserID: u.ID}, Grant: auth.Grant{OrganizationID: o.ID, Role: auth.Owner}}
}

// samples is the team's uploads as the voices feature sees them: any URL under
// http://betty.test/v1/uploads/<id> of the team names the upload <id>, and uses are counted.
type samples struct {
	mu   sync.Mutex
	uses map[string]map[string]bool // upload id → users
}

func (s *samples) Resolve(_ context.Context, orgID, url string) (string, error) {
	id, ok := strings.CutPrefix(url, "http://betty.test/v1/uploads/")
	if !ok || id == "" {
		return "", errs.UnprocessableErr("not an upload of this team")
	}
	return orgID + "/" + id, nil
}

func (s *samples) URL(_ context.Context, orgID, uploadID string) (string, error) {
	return "http://betty.test/v1/uploads/" + strings.TrimPrefix(uploadID, orgID+"/"), nil
}

func (s *samples) Use(_ context.Context, _, uploadID, by string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uses == nil {
		s.uses = map[string]map[string]bool{}
	}
	if s.uses[uploadID] == nil {
		s.uses[uploadID] = map[string]bool{}
	}
	s.uses[uploadID][by] = true
	return nil
}

func (s *samples) Release(_ context.Context, _, uploadID, by string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.uses[uploadID], by)
	return nil
}

func (s *samples) users(uploadID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.uses[uploadID])
}

// Synthesize is what agents call: a preset, or a custom voice of the caller's team, spoken by
// the engine as MP3.
func TestSynthesizeWithATeamsVoice(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fake := openaitest.Start(t)
		sp := speech.New(openai.NewTTS(openai.Config{BaseURL: fake.URL, APIKey: openaitest.Key, Model: "tts-1"}), nil)
		files := &samples{}
		svc := voices.New(db, sp, files)
		a, b := team(t, db, "a@example.com"), team(t, db, "b@example.com")
		female := speech.Female
		name := "Front desk"
		p, err := svc.Create(ctx, a, voices.Input{Name: &name, Gender: &female, AudioURLs: []string{"http://betty.test/v1/uploads/1"}})
		if err != nil || p.Speaks == nil || p.Speaks.ID != "openai-nova" ||
			len(p.SampleURLs) != 1 || p.SampleURLs[0] != "http://betty.test/v1/uploads/1" {
			t.Fatalf("create: %+v %v", p, err)
		}
		if p.Speaks.Engine != "openai-compatible" || !strings.HasPrefix(p.Note, "Without a voice-cloning engine, Betty speaks this voice with the preset Nova (openai-compatible, en-US, female)") {
			t.Errorf("note %q", p.Note)
		}
		sample := a.OrganizationID + "/1"
		if files.users(sample) != 1 {
			t.Fatalf("the voice does not hold its sample")
		}

		mp3, err := svc.Synthesize(ctx, a, "Hello there", voices.Ref{ProfileID: p.ID})
		if err != nil {
			t.Fatal(err)
		}
		if d, err := speech.MP3Duration(mp3); err != nil || d <= 0 {
			t.Fatalf("duration %s %v", d, err)
		}
		if _, err := svc.Synthesize(ctx, a, "Hello", voices.Ref{PresetID: "openai-onyx"}); err != nil {
			t.Fatal(err)
		}
		reqs := fake.Requests()
		if len(reqs) != 2 || reqs[0].Voice != "nova" || reqs[1].Voice != "onyx" {
			t.Fatalf("engine requests %+v", reqs)
		}

		for _, c := range []struct {
			who  auth.Actor
			ref  voices.Ref
			text string
			kind errs.Kind
		}{
			{b, voices.Ref{ProfileID: p.ID}, "hi", errs.NotFound}, // another team's voice
			{a, voices.Ref{PresetID: "espeak-en-us-linda"}, "hi", errs.NotFound},
			{a, voices.Ref{PresetID: "openai-nova", ProfileID: p.ID}, "hi", errs.Invalid},
			{a, voices.Ref{}, "hi", errs.Invalid},
			{a, voices.Ref{PresetID: "openai-nova"}, "  ", errs.Invalid},
		} {
			if _, err := svc.Synthesize(ctx, c.who, c.text, c.ref); !errs.Is(err, c.kind) {
				t.Errorf("%+v: %v, want %s", c.ref, err, c.kind)
			}
		}

		// A voice not approved (set by an engine that reviews) does not speak.
		v, _ := db.VoiceProfile(ctx, a.OrganizationID, p.ID)
		v.Status = store.VoicePending
		if err := db.UpdateVoiceProfile(ctx, &v); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Synthesize(ctx, a, "hi", voices.Ref{ProfileID: p.ID}); !errs.Is(err, errs.Unprocessable) ||
			!strings.Contains(err.Error(), "not approved") {
			t.Errorf("pending voice: %v", err)
		}

		if _, err := svc.Transcribe(ctx, strings.NewReader("audio"), "call.mp3"); !errs.Is(err, errs.Unavailable) {
			t.Errorf("transcribe without --stt-url: %v", err)
		}

		// Changing the samples releases the ones the voice no longer has; deleting it releases all.
		if _, err := svc.Update(ctx, a, p.ID, voices.Input{AudioURLs: []string{"http://betty.test/v1/uploads/2"}}); err != nil {
			t.Fatal(err)
		}
		if files.users(sample) != 0 || files.users(a.OrganizationID+"/2") != 1 {
			t.Fatalf("after update: %d, %d users", files.users(sample), files.users(a.OrganizationID+"/2"))
		}
		if err := svc.Delete(ctx, b, p.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("another team deletes: %v", err)
		}
		if err := svc.Delete(ctx, a, p.ID); err != nil || files.users(a.OrganizationID+"/2") != 0 {
			t.Fatalf("delete: %v, %d users", err, files.users(a.OrganizationID+"/2"))
		}
	})
}

// The default preset of a language is the first preset that speaks it, the first of all when
// none does; an agent without a voice speaks with it (Ref.DefaultFor).
func TestDefaultPreset(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fake := openaitest.Start(t)
		sp := speech.New(openai.NewTTS(openai.Config{BaseURL: fake.URL, APIKey: openaitest.Key, Model: "tts-1"}), nil)
		svc := voices.New(db, sp, &samples{})
		a := team(t, db, "a@example.com")
		for _, lang := range []string{"en-US", "en-GB", "ja-JP"} {
			v, err := svc.DefaultPreset(ctx, lang)
			if err != nil || v.ID != "openai-alloy" {
				t.Errorf("%s: %s %v", lang, v.ID, err)
			}
		}
		if _, err := svc.Synthesize(ctx, a, "Hello", voices.Ref{DefaultFor: "en-US"}); err != nil {
			t.Fatal(err)
		}
		if reqs := fake.Requests(); len(reqs) != 1 || reqs[0].Voice != "alloy" {
			t.Errorf("spoke with %+v", reqs)
		}
		// A preset or a custom voice named wins over the default.
		if _, err := svc.Synthesize(ctx, a, "Hello", voices.Ref{PresetID: "openai-onyx", DefaultFor: "en-US"}); err != nil {
			t.Fatal(err)
		}
		if reqs := fake.Requests(); len(reqs) != 2 || reqs[1].Voice != "onyx" {
			t.Errorf("spoke with %+v", reqs)
		}
	})
}
