package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// LoginOptions are the inputs of `betty login`.
type LoginOptions struct {
	account
	WithToken bool
}

// NewCmdLogin returns `betty login`; runF replaces the run in tests.
func NewCmdLogin(f *cmdutil.Factory, runF func(*LoginOptions) error) *cobra.Command {
	opts := &LoginOptions{account: newAccount(f)}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in to a Betty server",
		Long: `Sign in to a Betty server and keep the session in the profile (--profile, else the
current one). On a terminal, asks for what the flags do not give: the server, the e-mail
address and the password (not echoed). In scripts, pipe the password with --password-stdin,
or store an organisation API key with --with-token. No account yet? See betty signup.

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
	addAccountFlags(cmd, &opts.account)
	cmd.Flags().BoolVar(&opts.WithToken, "with-token", false, "Read an organisation API key (betty_sk_…) from stdin and store it")
	return cmd
}

// addAccountFlags adds the flags login and signup share.
func addAccountFlags(cmd *cobra.Command, a *account) {
	cmd.Flags().StringVar(&a.Server, "server", "", "The server's base `URL` (default: $BETTY_SERVER, the profile's server, or asked)")
	cmd.Flags().StringVar(&a.Email, "email", "", "Your e-mail `address`")
	cmd.Flags().BoolVar(&a.PasswordStdin, "password-stdin", false, "Read the password from stdin")
}

func runLogin(ctx context.Context, opts *LoginOptions) error {
	cfg, p, err := opts.Profile()
	if err != nil {
		return err
	}
	server, err := opts.server(p)
	if err != nil {
		return err
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
	done := fmt.Sprintf("Logged in to %s as %s.", server, p.Email)
	if p.APIKey != "" {
		done = fmt.Sprintf("Logged in to %s with an API key.", server)
	}
	return opts.keep(ctx, cfg, p, server, c, done)
}

func loginWithKey(ctx context.Context, opts *LoginOptions, server string, p *config.Profile) (*betty.Client, error) {
	line, err := opts.IO.ReadLine()
	key := strings.TrimSpace(line)
	if key == "" {
		return nil, cmdutil.FlagErrorf("--with-token reads an API key from stdin, and stdin was empty (%v)", err)
	}
	if err := cmdutil.APIKey.Check(key); err != nil {
		return nil, err
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
	email, err := opts.email(p)
	if err != nil {
		return nil, err
	}
	password, err := opts.password(cmdutil.Password, false)
	if err != nil {
		return nil, err
	}
	c, err := opts.NewClient(server)
	if err != nil {
		return nil, err
	}
	s, err := c.SignIn(ctx, email, password)
	var apiErr *betty.APIError
	if errors.As(err, &apiErr) && apiErr.Code == string(client.ProblemCodeInvalidCredentials) {
		// The server does not say whether the address has an account; a newcomer may have none.
		return nil, cmdutil.WithHint(err, "No account on this server yet? Create one with `betty signup`.")
	}
	if err != nil {
		return nil, err
	}
	keepSession(p, s)
	return c, nil
}
