package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/openai/openaitest"
	"github.com/bettyhq/betty/server/speech/speechtest"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

type presetJSON struct {
	ID, Name, Gender, Description, Language, Engine, Kind, Status string
	PreviewURL                                                    string `json:"previewUrl"`
}

type voiceJSON struct {
	ID, OrganizationID, Name, Gender, Description, Language, Kind, Status, Engine, Note string
	EngineVoice                                                                         *string
	AudioURLs                                                                           []string `json:"audioUrls"`
}

// samplePath is the path of a preset's sample from its absolute previewUrl.
func samplePath(t *testing.T, preview string) string {
	t.Helper()
	u, err := url.Parse(preview)
	if err != nil || u.Host != "betty.test" {
		t.Fatalf("previewUrl %q", preview)
	}
	return u.Path
}

// wantMP3 checks an answer is a playable MP3.
func wantMP3(t *testing.T, res *apitest.Response) time.Duration {
	t.Helper()
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "audio/mpeg" {
		t.Fatalf("%d %s: %.200s", res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	b := res.Body
	if !(string(b[:3]) == "ID3" || b[0] == 0xff && b[1]&0xe0 == 0xe0) {
		t.Fatalf("not MP3: % x", b[:4])
	}
	d, err := speech.MP3Duration(b)
	if err != nil || d <= 0 {
		t.Fatalf("duration %s %v", d, err)
	}
	return d
}

func TestVoicePresets(t *testing.T) {
	speechtest.Require(t, append(speechtest.Flite, speechtest.Espeak...)...)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		key := env.APIKey(t, env.Team(t, owner, "Acme"), "readonly")

		var page struct {
			Data []presetJSON
			Meta metaJSON
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/voice/presets/list", nil, &page)
		if len(page.Data) != 9 || page.Meta.Page != 1 || page.Meta.TotalSize < 9 || !page.Meta.HasNext == (page.Meta.TotalSize > 9) {
			t.Fatalf("first page: %d presets, %+v", len(page.Data), page.Meta)
		}
		first := page.Data[0]
		if first.ID != "flite-en-us-slt" || first.Name != "Sarah" || first.Gender != "female" || first.Language != "en-US" ||
			first.Engine != "flite" || first.Kind != "preset" || first.Status != "approved" {
			t.Fatalf("first preset %+v", first)
		}
		total := page.Meta.TotalSize

		// Any caller may list them, an API key too; a page past the last is the last.
		a.want(http.StatusOK, key, "GET", "/v1/voice/presets/list?page=99&sizePerPage=10", nil, &page)
		if page.Meta.Page != (total+9)/10 || len(page.Data) != total-(page.Meta.Page-1)*10 {
			t.Fatalf("last page: %d presets, %+v", len(page.Data), page.Meta)
		}

		// The sample is real speech, public (an <audio> element sends no credentials) and
		// cacheable; asking again answers the same bytes.
		path := samplePath(t, first.PreviewURL)
		if path != "/v1/voice/presets/flite-en-us-slt/sample" {
			t.Fatalf("sample path %s", path)
		}
		res := env.Get(path)
		if d := wantMP3(t, res); d < time.Second {
			t.Errorf("sample plays %s", d)
		}
		if res.Header.Get("Cache-Control") != "public, max-age=86400" {
			t.Errorf("Cache-Control %q", res.Header.Get("Cache-Control"))
		}
		if again := env.Get(path); string(again.Body) != string(res.Body) {
			t.Error("the sample changed between two requests")
		}
		if p := a.problem(http.StatusNotFound, "", "GET", "/v1/voice/presets/no-such-voice/sample", nil); p.Detail != "Voice preset not found." {
			t.Errorf("unknown preset: %+v", p)
		}
		a.problem(http.StatusUnauthorized, "", "GET", "/v1/voice/presets/list", nil)
	})
}

// sample uploads a voice sample to org and answers its fileUrl.
func sample(a teamAPI, c apitest.Caller, org string) string {
	a.t.Helper()
	_, link := finishedUpload(a.t, a.env, c.Access, org, "voice-sample", "sample.mp3", uploadstest.MP3(2000))
	return link
}

// createVoice creates a custom voice in org and returns it.
func createVoice(a teamAPI, c apitest.Caller, org, name, gender, language string) voiceJSON {
	a.t.Helper()
	var body struct{ Data voiceJSON }
	req := map[string]any{"organizationId": org, "name": name, "gender": gender, "audioUrls": []string{sample(a, c, org)}}
	if language != "" {
		req["language"] = language
	}
	a.want(http.StatusCreated, c.Access, "POST", "/v1/voice/create", req, &body)
	return body.Data
}

func TestVoiceProfiles(t *testing.T) {
	speechtest.Require(t, append(speechtest.Flite, speechtest.Espeak...)...)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		if err := env.DB.SetSubscriptionTier(context.Background(), org, store.Tier4); err != nil {
			t.Fatal(err)
		}

		// Approved at once, speaking with the nearest preset, and saying so.
		ceo := createVoice(a, owner, org, "  Our CEO ", "female", "")
		if ceo.Name != "Our CEO" || ceo.Status != "approved" || ceo.Kind != "custom" || ceo.Language != "en-US" || ceo.Engine != "flite" ||
			ceo.EngineVoice == nil || *ceo.EngineVoice != "flite-en-us-slt" || len(ceo.AudioURLs) != 1 ||
			!strings.Contains(ceo.Note, "Without a voice-cloning engine") || !strings.Contains(ceo.Note, "Sarah (flite, en-US, female)") {
			t.Fatalf("created %+v", ceo)
		}
		german := createVoice(a, owner, org, "Berlin desk", "male", "de-AT")
		if german.EngineVoice == nil || *german.EngineVoice != "espeak-de-norbert" || german.Engine != "espeak-ng" {
			t.Fatalf("German male voice speaks with %v", german.EngineVoice)
		}

		var list struct {
			Data []voiceJSON
			Meta metaJSON
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/voice/list/"+org, nil, &list)
		if len(list.Data) != 2 || list.Data[0].ID != german.ID || list.Data[1].ID != ceo.ID || list.Meta.TotalSize != 2 {
			t.Fatalf("list %+v %+v", list.Data, list.Meta)
		}

		// A new gender changes the preset; the name is unique in the team without case.
		var updated struct{ Data voiceJSON }
		a.want(http.StatusOK, owner.Access, "PATCH", "/v1/voice/"+ceo.ID, map[string]any{"organizationId": org, "gender": "male",
			"language": "en-GB", "description": "Calm", "audioUrls": []string{sample(a, owner, org), sample(a, owner, org)}}, &updated)
		if u := updated.Data; u.Name != "Our CEO" || u.Gender != "male" || u.Language != "en-GB" || u.Description != "Calm" ||
			len(u.AudioURLs) != 2 || u.EngineVoice == nil || *u.EngineVoice != "flite-en-gb-awb" || u.Status != "approved" {
			t.Fatalf("updated %+v", u)
		}
		if p := a.problem(http.StatusConflict, owner.Access, "PATCH", "/v1/voice/"+ceo.ID,
			map[string]any{"organizationId": org, "name": "BERLIN DESK"}); !strings.Contains(p.Detail, `"BERLIN DESK"`) {
			t.Errorf("rename onto another voice: %+v", p)
		}
		ours := sample(a, owner, org)
		a.problem(http.StatusConflict, owner.Access, "POST", "/v1/voice/create", map[string]any{"organizationId": org, "name": "our ceo",
			"gender": "female", "audioUrls": []string{ours}})

		// Samples must be voice-sample uploads of this team: nothing else is fetched.
		other := env.SignUp(t, "other@example.com")
		otherOrg := env.Team(t, other, "Other")
		_, csv := finishedUpload(t, env, owner.Access, org, "contacts-csv", "c.csv", uploadstest.CSV(10))
		for _, bad := range []string{"https://evil.example/a.mp3", sample(a, other, otherOrg), csv} {
			p := a.problem(http.StatusUnprocessableEntity, owner.Access, "POST", "/v1/voice/create", map[string]any{"organizationId": org,
				"name": "Other", "gender": "female", "audioUrls": []string{ours, bad}})
			if len(p.Errors) != 1 || p.Errors[0].Field != "body.audioUrls[1]" {
				t.Errorf("sample %s: %+v", bad, p)
			}
		}
		// A name of spaces is no name.
		if p := a.problem(http.StatusBadRequest, owner.Access, "POST", "/v1/voice/create", map[string]any{"organizationId": org,
			"name": "   ", "gender": "female", "audioUrls": []string{ours}}); len(p.Errors) != 1 || p.Errors[0].Field != "body.name" {
			t.Errorf("blank name: %+v", p)
		}

		// A read-only member lists but does not change.
		reader := env.SignUp(t, "reader@example.com")
		addMember(t, env, org, store.User{ID: reader.UserID, Email: reader.Email}, "readonly")
		a.want(http.StatusOK, reader.Access, "GET", "/v1/voice/list/"+org, nil, nil)
		a.problem(http.StatusForbidden, reader.Access, "DELETE", "/v1/voice/delete/"+ceo.ID+"?organizationId="+org, nil)

		// Another team naming its own organisation cannot reach this team's voice.
		a.problem(http.StatusNotFound, other.Access, "PATCH", "/v1/voice/"+ceo.ID, map[string]any{"organizationId": otherOrg, "name": "Mine"})
		a.problem(http.StatusNotFound, other.Access, "DELETE", "/v1/voice/delete/"+ceo.ID+"?organizationId="+otherOrg, nil)
		a.want(http.StatusOK, other.Access, "GET", "/v1/voice/list/"+otherOrg, nil, &list)
		if len(list.Data) != 0 {
			t.Fatalf("the other team sees %+v", list.Data)
		}

		var deleted struct{ Data struct{ ID string } }
		a.want(http.StatusOK, owner.Access, "DELETE", "/v1/voice/delete/"+ceo.ID+"?organizationId="+org, nil, &deleted)
		if deleted.Data.ID != ceo.ID {
			t.Fatalf("deleted %+v", deleted)
		}
		a.problem(http.StatusNotFound, owner.Access, "DELETE", "/v1/voice/delete/"+ceo.ID+"?organizationId="+org, nil)
		a.problem(http.StatusNotFound, owner.Access, "PATCH", "/v1/voice/"+ceo.ID, map[string]any{"organizationId": org, "name": "Back"})
	})
}

// A team holds 1 custom voice, 3 on tier4 (spec section 9); past that, 403 limit_reached names
// the plan that allows more. Deleting one frees its place.
func TestCustomVoiceLimit(t *testing.T) {
	speechtest.Require(t, append(speechtest.Flite, speechtest.Espeak...)...)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		first := createVoice(a, owner, org, "One", "female", "")
		body := map[string]any{"organizationId": org, "name": "Two", "gender": "male", "audioUrls": []string{sample(a, owner, org)}}
		p := a.problem(http.StatusForbidden, owner.Access, "POST", "/v1/voice/create", body)
		if p.Code != "limit_reached" || p.Detail != "Your plan (Free) allows 1 custom voice profiles and this team has 1. The Custom plan (tier4) allows 3." {
			t.Fatalf("over the free limit: %+v", p)
		}

		if err := env.DB.SetSubscriptionTier(context.Background(), org, store.Tier4); err != nil {
			t.Fatal(err)
		}
		createVoice(a, owner, org, "Two", "male", "")
		createVoice(a, owner, org, "Three", "female", "en-GB")
		body["name"] = "Four"
		p = a.problem(http.StatusForbidden, owner.Access, "POST", "/v1/voice/create", body)
		if p.Code != "limit_reached" || p.Detail != "Your plan (Custom) allows 3 custom voice profiles and this team has 3." {
			t.Fatalf("over the tier4 limit: %+v", p)
		}
		a.want(http.StatusOK, owner.Access, "DELETE", fmt.Sprintf("/v1/voice/delete/%s?organizationId=%s", first.ID, org), nil, nil)
		createVoice(a, owner, org, "Four", "male", "")

		// Creates racing for the last place: exactly one gets it.
		racer := env.SignUp(t, "racer@example.com")
		raceOrg := env.Team(t, racer, "Racing")
		racerSample := sample(a, racer, raceOrg)
		statuses := make(chan int, 6)
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Go(func() {
				statuses <- a.do(racer.Access, "POST", "/v1/voice/create", map[string]any{"organizationId": raceOrg,
					"name": fmt.Sprintf("Racer %d", i), "gender": "female", "audioUrls": []string{racerSample}}).Status
			})
		}
		wg.Wait()
		close(statuses)
		// Connections the client dialled for the race but never used would hold up the
		// server's shutdown.
		env.Client.CloseIdleConnections()
		created := 0
		for s := range statuses {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusForbidden:
			default:
				t.Errorf("racing create answered %d", s)
			}
		}
		if created != 1 {
			t.Errorf("%d racing creates succeeded on the free plan", created)
		}
	})
}

// With --tts-url the presets are the OpenAI-compatible engine's voices, and their samples are
// spoken by it.
func TestVoicesWithAnOpenAICompatibleEngine(t *testing.T) {
	fake := openaitest.Start(t)
	env := apitest.New(t, store.SQLite, apitest.WithConfig(func(c *config.Config) {
		c.TTSURL, c.TTSAPIKey, c.TTSModel = fake.URL, openaitest.Key, "tts-1"
	}))
	a := newTeamAPI(t, env)
	owner := env.SignUp(t, "owner@example.com")
	var page struct{ Data []presetJSON }
	a.want(http.StatusOK, owner.Access, "GET", "/v1/voice/presets/list", nil, &page)
	if len(page.Data) != 9 || page.Data[0].ID != "openai-alloy" || page.Data[0].Engine != "openai-compatible" {
		t.Fatalf("presets %+v", page.Data)
	}
	wantMP3(t, env.Get(samplePath(t, page.Data[1].PreviewURL)))
	got := fake.Requests()
	if len(got) != 1 || got[0].Voice != "nova" || got[0].Model != "tts-1" || !strings.HasPrefix(got[0].Input, "Hello, this is Nova.") {
		t.Fatalf("engine requests %+v", got)
	}
	org := env.Team(t, owner, "Acme")
	v := createVoice(a, owner, org, "Ours", "male", "")
	if v.Engine != "openai-compatible" || v.EngineVoice == nil || *v.EngineVoice != "openai-onyx" {
		t.Fatalf("custom voice %+v", v)
	}

	// The engine failing is a 503 naming the setting, not a 500.
	fake.Fail(openaitest.Failure{Status: 401, Type: "invalid_request_error", Code: "invalid_api_key", Message: "Incorrect API key provided"})
	p := a.problem(http.StatusServiceUnavailable, "", "GET", samplePath(t, page.Data[2].PreviewURL), nil)
	if p.Code != "speech_unavailable" || !strings.Contains(p.Detail, "--tts-api-key") {
		t.Fatalf("engine refused the key: %+v", p)
	}
}

// Without a local engine the presets answer 503 saying what to install.
func TestVoicesWithoutTheLocalEngine(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	env := apitest.New(t, store.SQLite)
	a := newTeamAPI(t, env)
	owner := env.SignUp(t, "owner@example.com")
	p := a.problem(http.StatusServiceUnavailable, owner.Access, "GET", "/v1/voice/presets/list", nil)
	if p.Code != "speech_unavailable" || !strings.Contains(p.Detail, "espeak-ng is not installed") || !strings.Contains(p.Detail, "flite is not installed") ||
		!strings.Contains(p.Detail, "--tts-url") {
		t.Fatalf("%+v", p)
	}
	// The team's voices stay listed, saying they cannot speak now.
	org := env.Team(t, owner, "Acme")
	v := createVoice(a, owner, org, "Ours", "male", "")
	if v.EngineVoice != nil || v.Engine != "" || !strings.Contains(v.Note, "not available") {
		t.Fatalf("custom voice %+v", v)
	}
}
