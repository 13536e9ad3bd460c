// Package config is the CLI's configuration file: named profiles, each a server and the
// credentials to reach it, in config.yaml under the user's configuration directory.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// DefaultProfile is the profile used when none is named and none is current.
const DefaultProfile = "default"

// Profile is one server and the credentials the CLI uses there. A profile holds either an API
// key or a session's access and refresh tokens.
type Profile struct {
	Server       string `yaml:"server,omitempty"`
	APIKey       string `yaml:"apiKey,omitempty"`
	AccessToken  string `yaml:"accessToken,omitempty"`
	RefreshToken string `yaml:"refreshToken,omitempty"`
	Email        string `yaml:"email,omitempty"`
	// Team is the organizationId that team commands act on when --team is not given.
	Team string `yaml:"team,omitempty"`
}

// LoggedIn reports whether the profile holds credentials.
func (p *Profile) LoggedIn() bool {
	return p.APIKey != "" || p.AccessToken != "" || p.RefreshToken != ""
}

// ClearCredentials forgets the profile's API key and tokens, keeping its server and team.
func (p *Profile) ClearCredentials() {
	p.APIKey, p.AccessToken, p.RefreshToken, p.Email = "", "", "", ""
}

// Config is the whole file.
type Config struct {
	CurrentProfile string              `yaml:"current_profile,omitempty"`
	Profiles       map[string]*Profile `yaml:"profiles,omitempty"`

	path string
}

// Dir is the directory of the configuration file: $BETTY_CONFIG_DIR, else
// $XDG_CONFIG_HOME/betty, else ~/.config/betty.
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("BETTY_CONFIG_DIR"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "betty"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the configuration directory: %w (set BETTY_CONFIG_DIR)", err)
	}
	return filepath.Join(home, ".config", "betty"), nil
}

// Load reads config.yaml from dir; a missing file is an empty configuration.
func Load(dir string) (*Config, error) {
	c := &Config{path: filepath.Join(dir, "config.yaml")}
	raw, err := os.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(raw, c); err != nil {
		return nil, fmt.Errorf("read %s: %w", c.path, err)
	}
	return c, nil
}

// Path is where the configuration is read from and saved to.
func (c *Config) Path() string { return c.path }

// ProfileName is the profile to use: name when given, else the current one, else "default".
func (c *Config) ProfileName(name string) string {
	switch {
	case name != "":
		return name
	case c.CurrentProfile != "":
		return c.CurrentProfile
	default:
		return DefaultProfile
	}
}

// Profile returns the named profile (see ProfileName), adding an empty one when it does not
// exist yet; it is written only by Save.
func (c *Config) Profile(name string) *Profile {
	name = c.ProfileName(name)
	if c.Profiles == nil {
		c.Profiles = map[string]*Profile{}
	}
	p, ok := c.Profiles[name]
	if !ok {
		p = &Profile{}
		c.Profiles[name] = p
	}
	return p
}

// Save writes the file readable by its owner only (it holds secrets), replacing it atomically
// so a crash never leaves half a file.
func (c *Config) Save() error {
	var raw bytes.Buffer
	enc := yaml.NewEncoder(&raw)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return err
	}
	dir := filepath.Dir(c.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".config-*.yaml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(raw.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		return fmt.Errorf("save %s: %w", c.path, err)
	}
	return nil
}
