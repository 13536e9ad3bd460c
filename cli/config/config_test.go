package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bettyhq/betty/cli/config"
	_ "github.com/bettyhq/betty/cli/internal/clitest" // defines -update for `go test ./cli/... -update`
)

func TestDir(t *testing.T) {
	home, _ := os.UserHomeDir()
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{name: "override", env: map[string]string{"BETTY_CONFIG_DIR": "/tmp/b", "XDG_CONFIG_HOME": "/x"}, want: "/tmp/b"},
		{name: "XDG", env: map[string]string{"XDG_CONFIG_HOME": "/x"}, want: "/x/betty"},
		{name: "home", want: filepath.Join(home, ".config", "betty")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := config.Dir(func(k string) string { return tt.env[k] })
			if err != nil || got != tt.want {
				t.Errorf("Dir = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestSaveAndLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "betty")
	cfg, err := config.Load(dir)
	if err != nil {
		t.Fatalf("a missing file is an empty configuration: %v", err)
	}
	if cfg.ProfileName("") != config.DefaultProfile {
		t.Errorf("profile name %q", cfg.ProfileName(""))
	}
	*cfg.Profile("staging") = config.Profile{Server: "https://s.example.com", AccessToken: "a", RefreshToken: "r", Email: "ada@example.com", Team: "team-1"}
	cfg.CurrentProfile = "staging"
	if err := cfg.Save(); err != nil {
		t.Fatal(err)
	}

	info, err := os.Stat(cfg.Path())
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("mode %o, want 600: the file holds secrets", mode)
	}
	raw, _ := os.ReadFile(cfg.Path())
	want := `current_profile: staging
profiles:
  staging:
    server: https://s.example.com
    accessToken: a
    refreshToken: r
    email: ada@example.com
    team: team-1
`
	if string(raw) != want {
		t.Errorf("file:\n%s\nwant:\n%s", raw, want)
	}

	again, err := config.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := again.Profile(""); p.Server != "https://s.example.com" || !p.LoggedIn() {
		t.Errorf("the current profile read back as %+v", p)
	}
	p := again.Profile("")
	p.ClearCredentials()
	if p.LoggedIn() || p.Server == "" || p.Team == "" {
		t.Errorf("ClearCredentials left %+v; want the server and team only", p)
	}
}

func TestLoadRejectsBadYAML(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("profiles: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(dir); err == nil {
		t.Error("want an error naming the file")
	}
}
