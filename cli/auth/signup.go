package auth

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// SignupOptions are the inputs of `betty signup`.
type SignupOptions struct {
	account
	Name string
}

// NewCmdSignup returns `betty signup`; runF replaces the run in tests.
func NewCmdSignup(f *cmdutil.Factory, runF func(*SignupOptions) error) *cobra.Command {
	opts := &SignupOptions{account: newAccount(f)}
	cmd := &cobra.Command{
		Use:   "signup",
		Short: "Create an account on a Betty server",
		Long: `Create an account on a Betty server. On a terminal, asks for what the flags do not
give: the server, the e-mail address and a password of 8 characters or more (twice, not
echoed). In scripts, pipe the password with --password-stdin.

When the server does not ask new accounts to confirm their e-mail address (it sends no
e-mail), you are logged in at once and the session is kept in the profile, as betty login
does. Otherwise confirm the address from the link the server sends, then run betty login.`,
		Example: `  betty signup --server http://localhost:8080
  betty signup --email ada@example.com --name "Ada Lovelace"
  echo "$PASSWORD" | betty signup --server https://betty.example.com --email ada@example.com --password-stdin`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.ProfileName = f.ProfileName
			if runF != nil {
				return runF(opts)
			}
			return runSignup(cmd.Context(), opts)
		},
	}
	addAccountFlags(cmd, &opts.account)
	cmdutil.UserName.Var(cmd.Flags(), &opts.Name, "name", "Your `name` as your teammates see it (optional)")
	return cmd
}

func runSignup(ctx context.Context, opts *SignupOptions) error {
	cfg, p, err := opts.Profile()
	if err != nil {
		return err
	}
	server, err := opts.server(p)
	if err != nil {
		return err
	}
	email, err := opts.email(p)
	if err != nil {
		return err
	}
	password, err := opts.password(cmdutil.NewPassword, true)
	if err != nil {
		return err
	}
	c, err := opts.NewClient(server)
	if err != nil {
		return err
	}
	req := client.SignUpRequest{Email: client.Email(email), Password: password}
	if opts.Name != "" {
		req.Name = &opts.Name
	}
	r, err := c.SignUp(ctx, req)
	if err != nil {
		return err
	}
	if r.Session == nil {
		fmt.Fprintln(opts.IO.ErrOut, confirmFirst(ctx, c, server, email))
		return nil
	}
	keepSession(p, *r.Session)
	return opts.keep(ctx, cfg, p, server, c, fmt.Sprintf("Signed up and logged in to %s as %s.", server, email))
}

// confirmFirst says how the new account's e-mail address gets confirmed, from what the
// server says it does with e-mail: with no relay, nothing was sent.
func confirmFirst(ctx context.Context, c *betty.Client, server, email string) string {
	created := fmt.Sprintf("Created your account on %s. ", server)
	info, err := c.ServerInfo(ctx)
	switch {
	case err != nil:
		return created + fmt.Sprintf("Confirm your e-mail with the link the server made for %s, then run `betty login`. "+
			"(The server did not say whether it sends e-mail: %v.)", email, err)
	case info.MailDelivery == client.Outbox:
		return created + fmt.Sprintf("This server sends no e-mail: the link to confirm %s is in the server's log, "+
			"and a site admin can read it with `betty admin mail list --recipient %s`. Open it, then run `betty login`.", email, email)
	}
	return created + fmt.Sprintf("Confirm your e-mail from the link we sent to %s, then run `betty login`.", email)
}
