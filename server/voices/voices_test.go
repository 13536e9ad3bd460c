package voices_test

import (
	"context"
	"strings"
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

// Synthesize is what agents call: a preset, or a custom voice of the caller's team, spoken by
// the engine as MP3.
func TestSynthesizeWithATeamsVoice(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fake := openaitest.Start(t)
		sp := speech.New(openai.NewTTS(openai.Config{BaseURL: fake.URL, APIKey: openaitest.Key, Model: "tts-1"}), nil)
		svc := voices.New(db, sp, voices.UploadURLs{BaseURL: "http://betty.test"})
		a, b := team(t, db, "a@example.com"), team(t, db, "b@example.com")
		female := speech.Female
		name := "Front desk"
		p, err := svc.Create(ctx, a, voices.Input{Name: &name, Gender: &female, AudioURLs: []string{"http://betty.test/v1/uploads/1"}})
		if err != nil || p.Speaks == nil || p.Speaks.ID != "openai-nova" {
			t.Fatalf("create: %+v %v", p, err)
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
	})
}
