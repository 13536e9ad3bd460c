package auth

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
)

// LogoutOptions are the inputs of `betty logout`.
type LogoutOptions struct {
	IO        *cmdutil.IOStreams
	Profile   func() (*config.Config, *config.Profile, error)
	NewClient func(server string, opts ...betty.Option) (*betty.Client, error)
	Getenv    func(string) string
}

// NewCmdLogout returns `betty logout`; runF replaces the run in tests.
func NewCmdLogout(f *cmdutil.Factory, runF func(*LogoutOptions) error) *cobra.Command {
	opts := &LogoutOptions{IO: f.IO, Profile: f.Profile, NewClient: f.ClientFor, Getenv: f.Getenv}
	cmd := &cobra.Command{
		Use:   "logout",
		Short: "Sign out and forget the profile's credentials",
		Long: `Close the profile's session on the server and remove its credentials from the
configuration file; the server and current team are kept for the next login. A stored API key
is only forgotten: revoke it with betty api-keys delete.`,
		Example: `  betty logout
  betty logout --profile staging`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runLogout(cmd.Context(), opts)
		},
	}
	return cmd
}

func runLogout(ctx context.Context, opts *LogoutOptions) error {
	cfg, p, err := opts.Profile()
	if err != nil {
		return err
	}
	if !p.LoggedIn() {
		return cmdutil.ErrNotLoggedIn
	}
	if p.AccessToken != "" || p.RefreshToken != "" {
		c, err := opts.NewClient(p.Server, betty.WithTokens(p.AccessToken, p.RefreshToken))
		if err == nil {
			err = c.SignOut(ctx)
		}
		if err != nil {
			// The local credentials go anyway: the person asked to be logged out here.
			fmt.Fprintf(opts.IO.ErrOut, "warning: the server did not close the session: %v\n", err)
		}
	}
	p.ClearCredentials()
	if err := cfg.Save(); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Logged out of %s.\n", p.Server)
	if opts.Getenv("BETTY_API_KEY") != "" {
		fmt.Fprintln(opts.IO.ErrOut, "BETTY_API_KEY is still set in the environment; commands keep using it.")
	}
	return nil
}
