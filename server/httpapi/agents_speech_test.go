package httpapi_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak/espeaktest"
	"github.com/bettyhq/betty/server/speech/flite"
	"github.com/bettyhq/betty/server/speech/openai/openaitest"
	"github.com/bettyhq/betty/server/speech/speechtest"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

// speak asks GET /v1/agent/text-to-speech and answers the MP3 it carries.
func speak(t *testing.T, a teamAPI, token string, q url.Values) []byte {
	t.Helper()
	var body struct {
		Data struct {
			Audio    []byte
			MimeType string
		}
	}
	a.want(http.StatusOK, token, "GET", "/v1/agent/text-to-speech?"+q.Encode(), nil, &body)
	d, err := speech.MP3Duration(body.Data.Audio)
	if body.Data.MimeType != "audio/mpeg" || err != nil || d <= 0 {
		t.Fatalf("not a playable MP3: %s, %d bytes, %s %v", body.Data.MimeType, len(body.Data.Audio), d, err)
	}
	return body.Data.Audio
}

// The greeting preview speaks an agent's greeting with its voice (a preset or a custom voice),
// or any text with any voice; what cannot be spoken says why.
func TestAgentTextToSpeech(t *testing.T) {
	espeaktest.Require(t)
	env := apitest.New(t, store.SQLite)
	a := newTeamAPI(t, env)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	var presets struct{ Data []presetJSON }
	a.want(http.StatusOK, ada.Access, "GET", "/v1/voice/presets/list", nil, &presets)
	preset := presets.Data[0].ID

	greeter := createAgent(t, a, ada, org, map[string]any{"greeting": "Hello, this is Acme.", "voicePresetId": preset})
	short := speak(t, a, ada.Access, url.Values{"organizationId": {org}, "agentProfileId": {greeter.ID}})
	long := speak(t, a, ada.Access, url.Values{"organizationId": {org}, "agentProfileId": {greeter.ID},
		"text": {"Hello, this is Acme. We are calling about the appointment you booked for next Tuesday afternoon."}})
	if d1, _ := speech.MP3Duration(short); func() bool { d2, _ := speech.MP3Duration(long); return d2 <= d1 }() {
		t.Error("the text given was not what was spoken: the longer text is not longer")
	}
	speak(t, a, ada.Access, url.Values{"organizationId": {org}, "text": {"Hi"}, "voicePresetId": {preset}})

	// A custom voice speaks with its nearest preset; deleting it while an agent speaks with it
	// is refused.
	v := createVoice(a, ada, org, "Ours", "female", "")
	custom := createAgent(t, a, ada, org, map[string]any{"name": "Custom", "greeting": "Hi there.", "voiceId": v.ID})
	speak(t, a, ada.Access, url.Values{"organizationId": {org}, "agentProfileId": {custom.ID}})
	if p := a.problem(http.StatusConflict, ada.Access, "DELETE", "/v1/voice/delete/"+v.ID+"?organizationId="+org, nil); !strings.Contains(p.Detail, "agent") {
		t.Errorf("deleting a voice in use: %+v", p)
	}
	a.want(http.StatusOK, ada.Access, "PATCH", "/v1/agent/"+custom.ID, map[string]any{"organizationId": org, "voicePresetId": preset}, nil)
	a.want(http.StatusOK, ada.Access, "DELETE", "/v1/voice/delete/"+v.ID+"?organizationId="+org, nil, nil)

	silent := createAgent(t, a, ada, org, map[string]any{"name": "Silent", "voicePresetId": preset})
	mute := createAgent(t, a, ada, org, map[string]any{"name": "Mute", "greeting": "Hello."})
	bad := []struct {
		status int
		q      url.Values
		want   string
	}{
		{http.StatusBadRequest, url.Values{"voicePresetId": {preset}, "voiceId": {v.ID}, "text": {"x"}}, "query.voicePresetId"},
		{http.StatusBadRequest, url.Values{"voicePresetId": {preset}}, "query.text"},
		{http.StatusBadRequest, url.Values{"text": {"Hi"}}, "query.voicePresetId"},
		{http.StatusUnprocessableEntity, url.Values{"agentProfileId": {silent.ID}}, "no greeting"},
		{http.StatusNotFound, url.Values{"text": {"Hi"}, "voicePresetId": {"no-such-preset"}}, "Voice preset not found."},
		{http.StatusNotFound, url.Values{"text": {"Hi"}, "voiceId": {v.ID}}, "Voice profile not found."},
	}
	for _, c := range bad {
		c.q.Set("organizationId", org)
		p := a.problem(c.status, ada.Access, "GET", "/v1/agent/text-to-speech?"+c.q.Encode(), nil)
		field := ""
		if len(p.Errors) > 0 {
			field = p.Errors[0].Field
		}
		if !strings.Contains(p.Detail, c.want) && field != c.want {
			t.Errorf("%v: %+v, want %q", c.q, p, c.want)
		}
	}

	// An agent without a voice speaks with the platform's default preset, as the contract says:
	// the first preset in its language (its region first).
	firstIn := func(language string) string {
		for _, p := range presets.Data {
			if p.Language == language {
				return p.ID
			}
		}
		t.Fatalf("no %s preset in %+v", language, presets.Data)
		return ""
	}
	a.want(http.StatusOK, ada.Access, "GET", "/v1/voice/presets/list?sizePerPage=100", nil, &presets)
	if got, want := speak(t, a, ada.Access, url.Values{"organizationId": {org}, "agentProfileId": {mute.ID}}),
		speak(t, a, ada.Access, url.Values{"organizationId": {org}, "text": {"Hello."}, "voicePresetId": {firstIn("en-US")}}); !bytes.Equal(got, want) {
		t.Errorf("an agent without a voice does not speak with the first en-US preset %s", firstIn("en-US"))
	}
	german := createAgent(t, a, ada, org, map[string]any{"name": "Stumm", "greeting": "Guten Tag.", "language": "de-DE"})
	if got, want := speak(t, a, ada.Access, url.Values{"organizationId": {org}, "agentProfileId": {german.ID}}),
		speak(t, a, ada.Access, url.Values{"organizationId": {org}, "text": {"Guten Tag."}, "voicePresetId": {firstIn("de-DE")}}); !bytes.Equal(got, want) {
		t.Errorf("a German agent without a voice does not speak with the first de-DE preset %s", firstIn("de-DE"))
	}

	// Another team's agent is not found.
	zed := env.SignUp(t, "zed@example.com")
	zorg := env.Team(t, zed, "Other")
	a.problem(http.StatusNotFound, zed.Access, "GET", "/v1/agent/text-to-speech?"+url.Values{"organizationId": {zorg}, "agentProfileId": {greeter.ID}}.Encode(), nil)
}

func init() {
	// The fuzz test's team A gets an agent and a teaching audio upload to add to it.
	resourceFixtures["summarizeAgentAudio"] = func(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
		ag := createAgent(t, newTeamAPI(t, env), owner, org, map[string]any{})
		_, link := finishedUpload(t, env, owner.Access, org, "agent-audio", "call.mp3", uploadstest.MP3(3000))
		return map[string]string{"agentId": ag.ID, "url": link}
	}
}

type audioJSON struct {
	ID, AgentID, URL, FileName, SummaryStatus string
	Summary                                   *string
}

// Teaching audio is transcribed by the speech-to-text endpoint in the background; its summary
// is what was heard, never made up.
func TestAgentTeachingAudio(t *testing.T) {
	fake := openaitest.Start(t)
	fake.SetTranscript("Customers mostly ask whether the clinic is open on Saturdays. It is, from nine to one.")
	env := apitest.New(t, store.SQLite, apitest.WithConfig(func(c *config.Config) {
		c.STTURL, c.STTAPIKey, c.STTModel = fake.URL, openaitest.Key, "whisper-1"
	}))
	a := newTeamAPI(t, env)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	ag := createAgent(t, a, ada, org, map[string]any{})
	uploadID, link := finishedUpload(t, env, ada.Access, org, "agent-audio", "model-call.mp3", uploadstest.MP3(4000))

	var added struct{ Data audioJSON }
	a.want(http.StatusCreated, ada.Access, "POST", "/v1/agent/summary?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(),
		map[string]any{"url": link}, &added)
	if added.Data.SummaryStatus != "in-progress" || added.Data.FileName != "model-call.mp3" || added.Data.Summary != nil || added.Data.AgentID != ag.ID {
		t.Fatalf("added %+v", added.Data)
	}
	done := waitForSummary(t, a, ada.Access, org, added.Data.ID)
	if done.Status != "success" || done.Summary == nil || !strings.HasPrefix(*done.Summary, "Customers mostly ask") {
		t.Fatalf("summary %+v", done)
	}
	if got := fake.Requests(); len(got) != 1 || got[0].Model != "whisper-1" || got[0].File != "model-call.mp3" || len(got[0].Audio) != 4000 {
		t.Fatalf("transcription requests %+v", got)
	}
	var list struct{ Data []audioJSON }
	a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/audio-list?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(), nil, &list)
	if len(list.Data) != 1 || list.Data[0].SummaryStatus != "success" {
		t.Fatalf("audio list %+v", list.Data)
	}

	// A recording with no speech in it fails its summary, saying so.
	fake.SetTranscript("  ")
	_, quiet := finishedUpload(t, env, ada.Access, org, "agent-audio", "silence.wav", uploadstest.WAV(3000))
	a.want(http.StatusCreated, ada.Access, "POST", "/v1/agent/summary?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(),
		map[string]any{"url": quiet, "fileName": "Silence"}, &added)
	if s := waitForSummary(t, a, ada.Access, org, added.Data.ID); s.Status != "error" || s.Summary != nil || s.Error == nil || !strings.Contains(*s.Error, "No speech") {
		t.Fatalf("silent recording %+v\n%s", s, env.Logs.String())
	}

	// Only agent-audio uploads of the team are teaching audio.
	_, voice := finishedUpload(t, env, ada.Access, org, "voice-sample", "me.mp3", uploadstest.MP3(2000))
	a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/agent/summary?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(),
		map[string]any{"url": voice})
	a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/agent/summary?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(),
		map[string]any{"url": "https://example.com/files/x.mp3"})

	// The agent's uploads are in use while it has them: they cannot be deleted; once the agent
	// is gone they can.
	del := func() int {
		return env.Do(apitest.Request{Method: http.MethodDelete, Path: "/v1/uploads/" + uploadID, Token: ada.Access, Header: tus(nil)}).Status
	}
	if s := del(); s != http.StatusConflict {
		t.Fatalf("deleting teaching audio in use: %d", s)
	}
	a.want(http.StatusOK, ada.Access, "DELETE", "/v1/agent/delete/"+ag.ID+"?organizationId="+org, nil, nil)
	if s := del(); s != http.StatusNoContent {
		t.Fatalf("deleting the upload of a deleted agent: %d", s)
	}
}

type summaryJSON struct {
	ID, Status     string
	Summary, Error *string
}

// waitForSummary polls audio-summary until the file's summary is no longer in progress.
func waitForSummary(t *testing.T, a teamAPI, token, org, id string) summaryJSON {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var body struct{ Data []summaryJSON }
		a.want(http.StatusOK, token, "GET", "/v1/agent/audio-summary?"+url.Values{"organizationId": {org}, "formIds": {id}}.Encode(), nil, &body)
		if len(body.Data) != 1 {
			t.Fatalf("audio-summary %+v", body.Data)
		}
		if body.Data[0].Status != "in-progress" || time.Now().After(deadline) {
			return body.Data[0]
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Without --stt-url, teaching audio is transcribed offline by PocketSphinx: the summary is
// what it heard, in words close to what was said.
func TestAgentTeachingAudioOffline(t *testing.T) {
	speechtest.Require(t, append(speechtest.Sphinx, speechtest.Flite...)...)
	said := "Our office is open from nine in the morning until five in the evening."
	tts := flite.New(flite.Options{})
	voices, err := tts.Voices(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	mp3, err := tts.Synthesize(t.Context(), said, voices[0])
	if err != nil {
		t.Fatal(err)
	}
	env := apitest.New(t, store.SQLite)
	a := newTeamAPI(t, env)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	ag := createAgent(t, a, ada, org, map[string]any{})
	_, link := finishedUpload(t, env, ada.Access, org, "agent-audio", "hours.mp3", mp3)
	var added struct{ Data audioJSON }
	a.want(http.StatusCreated, ada.Access, "POST", "/v1/agent/summary?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(),
		map[string]any{"url": link}, &added)
	done := waitForSummary(t, a, ada.Access, org, added.Data.ID)
	if done.Status != "success" || done.Summary == nil {
		t.Fatalf("summary %+v\n%s", done, env.Logs.String())
	}
	heard := 0
	for _, w := range []string{"office", "open", "morning", "evening"} {
		if strings.Contains(*done.Summary, w) {
			heard++
		}
	}
	if heard < 3 {
		t.Errorf("said %q, heard %q", said, *done.Summary)
	}

	// The offline model understands English only: a German agent's teaching audio is refused
	// with what to set, and nothing is kept.
	german := createAgent(t, a, ada, org, map[string]any{"name": "Berlin", "language": "de-DE"})
	p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/agent/summary?"+url.Values{"organizationId": {org}, "agentId": {german.ID}}.Encode(),
		map[string]any{"url": link})
	if !strings.Contains(p.Detail, "English only, not de-DE") || !strings.Contains(p.Detail, "--stt-url") {
		t.Errorf("German teaching audio: %+v", p)
	}
}

// Without a speech-to-text endpoint or PocketSphinx, teaching audio is refused naming what to
// install or set, and nothing is kept.
func TestAgentTeachingAudioWithoutSpeechToText(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no pocketsphinx_continuous
	env := apitest.New(t, store.SQLite)
	a := newTeamAPI(t, env)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	ag := createAgent(t, a, ada, org, map[string]any{})
	_, link := finishedUpload(t, env, ada.Access, org, "agent-audio", "model-call.mp3", uploadstest.MP3(4000))
	p := a.problem(http.StatusServiceUnavailable, ada.Access, "POST", "/v1/agent/summary?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(),
		map[string]any{"url": link})
	if p.Code != "speech_to_text_not_configured" || !strings.Contains(p.Detail, "--stt-url") || !strings.Contains(p.Detail, "apt-get install pocketsphinx") {
		t.Fatalf("%+v", p)
	}
	var list struct{ Data []audioJSON }
	a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/audio-list?"+url.Values{"organizationId": {org}, "agentId": {ag.ID}}.Encode(), nil, &list)
	if len(list.Data) != 0 {
		t.Fatalf("kept %+v", list.Data)
	}
}
