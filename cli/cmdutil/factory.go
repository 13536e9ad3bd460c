// Package cmdutil holds what every command shares: the IO streams and, lazily, what commands
// need from outside (configuration, clients), so a command's tests can swap any of it.
package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
)

// Factory builds what commands need. Fields are set once by main (or a test); Config and
// Client do their work on first use, so `betty --help` never reads a file or dials a server.
type Factory struct {
	IO      *IOStreams
	Version string
	// Dashboard returns the built dashboard to embed in `betty serve` (nil when not built).
	Dashboard func() fs.FS
	// Getenv reads the environment (os.Getenv outside tests).
	Getenv func(string) string
	// ProfileName is the --profile flag: the profile to use instead of the current one.
	ProfileName string

	// Config returns the configuration file's content.
	Config func() (*config.Config, error)
	// Client returns a client of the active profile's server with its credentials.
	Client func() (*betty.Client, error)

	saveMu sync.Mutex
}

// NewFactory returns the factory of a real process.
func NewFactory(version string, dashboard func() fs.FS) *Factory {
	f := New(System(), os.Getenv)
	f.Version, f.Dashboard = version, dashboard
	return f
}

// New returns a factory on the given streams and environment whose Config reads the
// configuration directory the environment names and whose Client uses the active profile.
func New(streams *IOStreams, getenv func(string) string) *Factory {
	f := &Factory{IO: streams, Getenv: getenv}
	f.Config = sync.OnceValues(func() (*config.Config, error) {
		dir, err := config.Dir(f.Getenv)
		if err != nil {
			return nil, err
		}
		return config.Load(dir)
	})
	f.Client = sync.OnceValues(f.NewClient)
	return f
}

// Profile returns the configuration and its active profile: --profile, else the current
// one (added empty when it does not exist yet; Save writes it).
func (f *Factory) Profile() (*config.Config, *config.Profile, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, nil, err
	}
	return cfg, cfg.Profile(f.ProfileName), nil
}

// ErrNotLoggedIn means the active profile has no server or no credentials, and the
// environment gives none.
var ErrNotLoggedIn = errors.New("not logged in: run `betty login` or set BETTY_API_KEY")

// Credentials are what a client of the active profile signs in with, after the environment's
// overrides: BETTY_SERVER replaces the server, BETTY_API_KEY the profile's credentials.
type Credentials struct {
	Server string
	APIKey string
	// FromEnv is true when the API key came from BETTY_API_KEY, so the profile's own team
	// may belong to another account.
	FromEnv                   bool
	AccessToken, RefreshToken string
}

// Credentials resolves the server and credentials of the active profile; ErrNotLoggedIn
// when there are none.
func (f *Factory) Credentials() (Credentials, error) {
	_, p, err := f.Profile()
	if err != nil {
		return Credentials{}, err
	}
	c := Credentials{Server: p.Server, APIKey: p.APIKey, AccessToken: p.AccessToken, RefreshToken: p.RefreshToken}
	if s := f.Getenv("BETTY_SERVER"); s != "" {
		c.Server = s
	}
	if k := f.Getenv("BETTY_API_KEY"); k != "" {
		c = Credentials{Server: c.Server, APIKey: k, FromEnv: true}
	}
	if c.Server == "" || (c.APIKey == "" && c.AccessToken == "" && c.RefreshToken == "") {
		return c, ErrNotLoggedIn
	}
	return c, nil
}

// ClientFor returns a client of server with the CLI's user agent; login uses it before the
// profile has credentials. A server that is not an http(s) URL is a usage error: it came
// from a flag, BETTY_SERVER or the profile.
func (f *Factory) ClientFor(server string, opts ...betty.Option) (*betty.Client, error) {
	c, err := betty.New(server, append([]betty.Option{betty.WithUserAgent("betty-cli/" + f.Version)}, opts...)...)
	return c, FlagErrorWrap(err)
}

// NewClient builds a client from the active profile. Tokens the server rotates are written
// back to the profile at once: a refresh token works only once, so an unsaved one is lost.
func (f *Factory) NewClient() (*betty.Client, error) {
	creds, err := f.Credentials()
	if err != nil {
		return nil, err
	}
	if creds.APIKey != "" {
		return f.ClientFor(creds.Server, betty.WithAPIKey(creds.APIKey))
	}
	return f.ClientFor(creds.Server, betty.WithTokens(creds.AccessToken, creds.RefreshToken), betty.WithTokenSaver(f.SaveTokens))
}

// SaveTokens stores a session's tokens in the active profile.
func (f *Factory) SaveTokens(access, refresh string) {
	f.saveMu.Lock()
	defer f.saveMu.Unlock()
	cfg, p, err := f.Profile()
	if err == nil {
		p.AccessToken, p.RefreshToken = access, refresh
		err = cfg.Save()
	}
	if err != nil {
		fmt.Fprintf(f.IO.ErrOut, "warning: could not save the renewed session (run `betty login` next time): %v\n", err)
	}
}
