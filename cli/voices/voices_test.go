package voices

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
)

func ptr[T any](v T) *T { return &v }

// The voice commands' rules copy the contract's.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []cmdutil.Rule{voiceName, voiceDescription, voiceLanguage, sampleURL} {
		name, prop, _ := strings.Cut(r.Schema, ".")
		s := spec.Components.Schemas[name].Value.Properties[strings.TrimSuffix(prop, "[]")].Value
		if strings.HasSuffix(prop, "[]") {
			s = s.Items.Value
		}
		var maxLen uint64
		if s.MaxLength != nil {
			maxLen = *s.MaxLength
		}
		if int(s.MinLength) != r.Min || int(maxLen) != r.Max || s.Pattern != r.Pattern || (s.Format == "uri") != r.URL {
			t.Errorf("%s: rule %+v, contract min %d max %d pattern %q format %q", r.Schema, r, s.MinLength, maxLen, s.Pattern, s.Format)
		}
	}
	var want []string
	for _, v := range spec.Components.Schemas["VoiceGender"].Value.Enum {
		want = append(want, v.(string))
	}
	if got := []string{string(genders[0]), string(genders[1]), string(genders[2])}; !slices.Equal(got, want) {
		t.Errorf("genders %v, contract %v", got, want)
	}
	if n := spec.Components.Schemas["CreateVoiceProfileRequest"].Value.Properties["audioUrls"].Value.MaxItems; n == nil || int(*n) != maxSamples {
		t.Errorf("at most %d samples, the contract %v", maxSamples, n)
	}
}

func TestNewCmdCreate(t *testing.T) {
	const sample = "https://betty.example.com/v1/uploads/a"
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{name: "ok", args: []string{"Front desk", "-g", "female", "-s", sample, "--language", "es-419", "--description", "Warm"}},
		{name: "no gender", args: []string{"Front desk", "-s", sample}, wantErr: "give how the voice sounds with --gender female, male or neutral"},
		{name: "bad gender", args: []string{"Front desk", "-g", "robot", "-s", sample}, wantErr: `invalid gender "robot"`},
		{name: "no sample", args: []string{"Front desk", "-g", "male"}, wantErr: "give at least one recorded sample"},
		{name: "too many samples", args: append([]string{"Front desk", "-g", "male"}, slices.Repeat([]string{"-s", sample}, 11)...), wantErr: "at most 10 samples, not 11"},
		{name: "bad sample", args: []string{"Front desk", "-g", "male", "-s", "file.mp3"}, wantErr: `sample "file.mp3" is neither a file nor an http(s) URL`},
		{name: "bad sample URL", args: []string{"Front desk", "-g", "male", "-s", "https://exa mple.com/a.mp3"}, wantErr: `invalid sample URL`},
		{name: "bad language", args: []string{"Front desk", "-g", "male", "-s", sample, "--language", "english"}, wantErr: "want a language tag such as en-US"},
		{name: "blank name", args: []string{"  ", "-g", "male", "-s", sample}, wantErr: "must not be empty"},
		{name: "no name", wantErr: "give a name for the voice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *CreateOptions
			err := clitest.Run(NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				// Flag values are refused while parsing, which the root command turns into
				// usage errors; the checks of RunE are usage errors themselves.
				if !strings.Contains(tt.name, "language") && cmdutil.ExitCode(err) != cmdutil.ExitUsage {
					t.Errorf("exit %d, want a usage error", cmdutil.ExitCode(err))
				}
				return
			}
			if got.Name != "Front desk" || got.Gender != client.Female || got.Language != "es-419" || got.Description != "Warm" ||
				!slices.Equal(got.Samples, []string{sample}) {
				t.Errorf("options %+v", got)
			}
		})
	}
}

var profile = client.VoiceProfile{Id: "voice-1", OrganizationId: "team-1", Name: "Front desk", Gender: client.Female,
	Language: "en-US", AudioUrls: []string{"https://betty.example.com/v1/uploads/a"}, Kind: client.Custom,
	Status: client.VoiceStatusApproved, Engine: ptr(client.Flite), EngineVoice: ptr("flite-en-us-slt"),
	Note:      "Without a voice-cloning engine, Betty speaks this voice with the preset Sarah (flite, en-US, female), the nearest to its language and gender. Its recordings are kept but not used.",
	CreatedAt: clitest.When, UpdatedAt: clitest.When}

func TestListRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/voice/list/team-1", clitest.Page([]client.VoiceProfile{profile}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
}

func TestPresetsRun(t *testing.T) {
	stub := clitest.NewStub(t)
	preview := "http://betty.example.com/v1/voice/presets/espeak-en-us-linda/sample"
	stub.Handle("GET /v1/voice/presets/list", clitest.Page([]client.Voice{
		{Id: "espeak-en-us-linda", Name: "Linda", Gender: client.Female, Language: "en-US", Engine: client.EspeakNg, Kind: client.Preset,
			Status: client.VoiceStatusApproved, PreviewUrl: &preview, Description: "espeak-ng's English (America) voice", CreatedAt: clitest.When, UpdatedAt: clitest.When},
		{Id: "espeak-en-us-adam", Name: "Adam", Gender: client.Male, Language: "en-US", Engine: client.EspeakNg, Kind: client.Preset,
			Status: client.VoiceStatusApproved, Description: "espeak-ng's English (America) voice", CreatedAt: clitest.When, UpdatedAt: clitest.When},
	}))
	clitest.GoldenOutputs(t, "presets", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdPresets(f, nil) })

	stub.Handle("GET /v1/voice/presets/espeak-en-us-linda/sample", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "audio/mpeg")
		_, _ = w.Write([]byte("ID3 mp3 bytes"))
	})
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdPresets(f, nil), "--sample", "espeak-en-us-linda"); err != nil || s.Out.String() != "ID3 mp3 bytes" {
		t.Fatalf("sample: %q %v", s.Out, err)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true})
	if err := clitest.Run(NewCmdPresets(f, nil), "--sample", "espeak-en-us-linda"); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Fatalf("sample to a terminal: %v", err)
	}
}

func TestCreateRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/voice/create", clitest.Data(http.StatusCreated, profile))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdCreate(f, nil), "Front desk", "-g", "female", "-s", profile.AudioUrls[0]); err != nil {
		t.Fatal(err)
	}
	if s.Out.String() != "voice-1\n" || !strings.Contains(s.ErrOut.String(), `Created voice "Front desk" (voice-1), approved.`) ||
		!strings.Contains(s.ErrOut.String(), "Without a voice-cloning engine, Betty speaks this voice with the preset Sarah") {
		t.Errorf("out %q, err %q", s.Out, s.ErrOut)
	}
	want := `{"audioUrls":["https://betty.example.com/v1/uploads/a"],"gender":"female","name":"Front desk","organizationId":"team-1"}`
	if body := string(stub.Last().Body); body != want {
		t.Errorf("sent %s, want %s", body, want)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdCreate(f, nil), "Front desk", "-g", "female", "-s", profile.AudioUrls[0], "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "create.json", s.Out.Bytes())
}

func TestDeleteRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("DELETE /v1/voice/delete/voice-1", clitest.Data(http.StatusOK, client.Deleted{Id: "voice-1"}))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDelete(f, nil), "voice-1"); err == nil {
		t.Fatal("deleted without --yes off a terminal")
	}
	if err := clitest.Run(NewCmdDelete(f, nil), "voice-1", "--yes"); err != nil {
		t.Fatal(err)
	}
	if got := stub.Last().Query.Get("organizationId"); got != "team-1" || s.ErrOut.String() != "Deleted voice voice-1.\n" {
		t.Errorf("organizationId %q, stderr %q", got, s.ErrOut)
	}
}
