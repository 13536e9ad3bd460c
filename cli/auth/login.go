// Package auth is `betty login`, `betty logout` and `betty whoami`: the credentials a profile
// holds.
package auth

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// DefaultServer is offered when no server is known: a local `betty serve`.
const DefaultServer = "http://localhost:8080"

// LoginOptions are the inputs of `betty login`.
type LoginOptions struct {
	IO        *cmdutil.IOStreams
	Profile   func() (*config.Config, *config.Profile, error)
	NewClient func(server string, opts ...betty.Option) (*betty.Client, error)
	Getenv    func(string) string

	ProfileName   string
	Server        string
	Email         string
	PasswordStdin bool
	WithToken     bool
}

// NewCmdLogin returns `betty login`; runF replaces the run in tests.
func NewCmdLogin(f *cmdutil.Factory, runF func(*LoginOptions) error) *cobra.Command {
	opts := &LoginOptions{IO: f.IO, Profile: f.Profile, NewClient: f.ClientFor, Getenv: f.Getenv}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in to a Betty server",
		Long: `Sign in to a Betty server and keep the session in the profile (--profile, else the
current one). On a terminal, asks for what the flags do not give: the server, the e-mail
address and the password (not echoed). In scripts, pipe the password with --password-stdin,
or store an organisation API key with --with-token.

The first profile you log in with becomes the current profile. Your oldest team becomes the
current team unless the profile's current team is still one of yours.`,
		Example: `  betty login
  betty login --server https://betty.example.com --email ada@example.com
  echo "$PASSWORD" | betty login --email ada@example.com --password-stdin
  echo "$BETTY_KEY" | betty login --server https://betty.example.com --with-token
  betty login --profile staging --server https://staging.betty.example.com`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.WithToken && (opts.PasswordStdin || opts.Email != "") {
				return cmdutil.FlagErrorf("--with-token cannot be used with --email or --password-stdin")
			}
			opts.ProfileName = f.ProfileName
			if runF != nil {
				return runF(opts)
			}
			return runLogin(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Server, "server", "", "The server's base `URL` (default: $BETTY_SERVER, the profile's server, or asked)")
	cmd.Flags().StringVar(&opts.Email, "email", "", "Your e-mail `address`")
	cmd.Flags().BoolVar(&opts.PasswordStdin, "password-stdin", false, "Read the password from stdin")
	cmd.Flags().BoolVar(&opts.WithToken, "with-token", false, "Read an organisation API key (betty_sk_…) from stdin and store it")
	return cmd
}

func runLogin(ctx context.Context, opts *LoginOptions) error {
	cfg, p, err := opts.Profile()
	if err != nil {
		return err
	}
	server := cmp.Or(opts.Server, opts.Getenv("BETTY_SERVER"), p.Server)
	if server == "" {
		if server, err = ask(opts.IO, "--server", "Betty server URL", DefaultServer); err != nil {
			return err
		}
	}

	var c *betty.Client
	if opts.WithToken {
		c, err = loginWithKey(ctx, opts, server, p)
	} else {
		c, err = loginWithPassword(ctx, opts, server, p)
	}
	if err != nil {
		return err
	}
	p.Server = server
	if cfg.CurrentProfile == "" {
		cfg.CurrentProfile = cfg.ProfileName(opts.ProfileName)
	}

	// The session is saved before anything else can fail: it cannot be had again without
	// the password.
	if err := cfg.Save(); err != nil {
		return err
	}
	if p.APIKey != "" {
		fmt.Fprintf(opts.IO.ErrOut, "Logged in to %s with an API key.\n", server)
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "Logged in to %s as %s.\n", server, p.Email)
	}

	teams, err := cmdutil.ListTeams(ctx, c, 0)
	if err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "warning: could not list your teams to pick the current one: %v\n", err)
		return nil
	}
	team := currentTeam(teams, p.Team)
	if team == nil {
		p.Team = ""
		fmt.Fprintln(opts.IO.ErrOut, "You are in no team yet: create one with `betty teams create <name>`.")
	} else {
		p.Team = team.Id
		fmt.Fprintf(opts.IO.ErrOut, "Current team: %s (%s).\n", team.Name, team.Id)
	}
	return cfg.Save()
}

func loginWithKey(ctx context.Context, opts *LoginOptions, server string, p *config.Profile) (*betty.Client, error) {
	line, err := opts.IO.ReadLine()
	key := strings.TrimSpace(line)
	if key == "" {
		return nil, cmdutil.FlagErrorf("--with-token reads an API key from stdin, and stdin was empty (%v)", err)
	}
	c, err := opts.NewClient(server, betty.WithAPIKey(key))
	if err != nil {
		return nil, err
	}
	if _, err := cmdutil.ListTeams(ctx, c, 1); err != nil {
		return nil, err
	}
	p.ClearCredentials()
	p.APIKey = key
	return c, nil
}

// loginWithPassword signs in and stores the session's tokens in p.
func loginWithPassword(ctx context.Context, opts *LoginOptions, server string, p *config.Profile) (*betty.Client, error) {
	email := opts.Email
	if email == "" {
		var err error
		if email, err = ask(opts.IO, "--email", "E-mail", p.Email); err != nil {
			return nil, err
		}
	}
	var password string
	var err error
	switch {
	case opts.PasswordStdin:
		password, err = opts.IO.ReadLine()
	case opts.IO.CanPrompt():
		password, err = opts.IO.PromptPassword("Password")
	default:
		return nil, cmdutil.FlagErrorf("--password-stdin is required when not running interactively")
	}
	if err != nil {
		return nil, fmt.Errorf("read the password: %w", err)
	}
	if err := cmp.Or(cmdutil.Email.Check(email), cmdutil.Password.Check(password)); err != nil {
		return nil, err
	}
	c, err := opts.NewClient(server)
	if err != nil {
		return nil, err
	}
	s, err := c.SignIn(ctx, email, password)
	if err != nil {
		return nil, err
	}
	p.ClearCredentials()
	p.AccessToken, p.RefreshToken, p.Email = s.AccessToken, s.RefreshToken, string(s.User.Email)
	return c, nil
}

// ask prompts for a value the flag did not give; without a terminal the flag is required.
func ask(io *cmdutil.IOStreams, flag, question, def string) (string, error) {
	if !io.CanPrompt() {
		return "", cmdutil.FlagErrorf("%s is required when not running interactively", flag)
	}
	answer, err := io.Prompt(question, def)
	if err != nil {
		return "", err
	}
	if answer == "" {
		return "", cmdutil.FlagErrorf("%s is required", flag)
	}
	return answer, nil
}

// currentTeam keeps the profile's team when it is still one of the caller's, else takes the
// oldest; nil when the caller has none.
func currentTeam(teams []client.Organization, current string) *client.Organization {
	for i := range teams {
		if teams[i].Id == current {
			return &teams[i]
		}
	}
	if len(teams) > 0 {
		return &teams[0]
	}
	return nil
}
