package voices_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/root"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/speechtest"
	"github.com/bettyhq/betty/server/testserver"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

// The voice commands against the real server in process, speaking with flite and espeak-ng.
func TestVoicesAgainstTheRealServer(t *testing.T) {
	speechtest.Require(t, append(speechtest.Flite, speechtest.Espeak...)...)
	env := testserver.Start(t)
	dir := t.TempDir()
	betty := func(args ...string) (int, string, string) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Stdin: "correct horse battery\n", Env: map[string]string{"BETTY_CONFIG_DIR": dir}})
		code := root.Run(context.Background(), f, args)
		return code, s.Out.String(), s.ErrOut.String()
	}
	if code, _, errOut := betty("signup", "--server", env.URL, "--email", "ada@example.com", "--password-stdin"); code != 0 {
		t.Fatalf("signup: %d %s", code, errOut)
	}
	if code, _, errOut := betty("teams", "create", "Acme", "--switch"); code != 0 {
		t.Fatalf("teams create: %d %s", code, errOut)
	}

	code, out, errOut := betty("voices", "presets", "--limit", "3")
	if code != 0 || !strings.HasPrefix(out, "flite-en-us-slt\tSarah\tfemale\ten-US\tflite\n") || strings.Count(out, "\n") != 3 {
		t.Fatalf("presets: %d %q %s", code, out, errOut)
	}
	code, out, errOut = betty("voices", "presets", "--sample", "espeak-en-us-adam")
	if d, err := speech.MP3Duration([]byte(out)); code != 0 || err != nil || d <= 0 {
		t.Fatalf("sample: %d %v %s", code, err, errOut)
	}

	// A local file is uploaded as a voice sample first.
	recording := filepath.Join(t.TempDir(), "front-desk.mp3")
	if err := os.WriteFile(recording, uploadstest.MP3(4000), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = betty("voices", "create", "Front desk", "--gender", "male", "--language", "en-GB", "--sample", recording)
	id := strings.TrimSpace(out)
	if code != 0 || id == "" || !strings.Contains(errOut, "Uploaded front-desk.mp3 (4000 bytes, audio/mpeg).") ||
		!strings.Contains(errOut, "Without a voice-cloning engine, Betty speaks this voice with the preset Alastair (flite, en-GB, male)") {
		t.Fatalf("create: %d %q %s", code, out, errOut)
	}
	code, out, _ = betty("voices", "list", "--json")
	var listed []struct{ ID, Name, EngineVoice string }
	if err := json.Unmarshal([]byte(out), &listed); code != 0 || err != nil || len(listed) != 1 || listed[0].ID != id || listed[0].EngineVoice != "flite-en-gb-awb" {
		t.Fatalf("list: %d %v %s", code, err, out)
	}
	code, _, errOut = betty("voices", "create", "Second", "-g", "female", "-s", recording)
	if code != cmdutil.ExitError || !strings.Contains(errOut, "The Custom plan (tier4) allows 3.") {
		t.Fatalf("over the limit: %d %s", code, errOut)
	}
	if code, _, errOut := betty("voices", "delete", id, "--yes"); code != 0 {
		t.Fatalf("delete: %d %s", code, errOut)
	}
	if code, _, _ := betty("voices", "delete", id, "--yes"); code != cmdutil.ExitNotFound {
		t.Fatalf("delete again: %d", code)
	}
	if code, out, _ := betty("voices", "list"); code != 0 || out != "" {
		t.Fatalf("list after delete: %d %q", code, out)
	}
}
