package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// WhoamiOptions are the inputs of `betty whoami`.
type WhoamiOptions struct {
	IO          *cmdutil.IOStreams
	Client      func() (*betty.Client, error)
	Credentials func() (cmdutil.Credentials, error)
	TeamID      func(ctx context.Context, flag string) (string, error)
}

// NewCmdWhoami returns `betty whoami`; runF replaces the run in tests.
func NewCmdWhoami(f *cmdutil.Factory, runF func(*WhoamiOptions) error) *cobra.Command {
	opts := &WhoamiOptions{IO: f.IO, Client: f.Client, Credentials: f.Credentials, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "whoami",
		Short: "Show who the CLI acts as",
		Long: `Show the server, the signed-in user (e-mail, name, id) and the current team. With an
API key, show that it is one and which team it acts in.`,
		Example: `  betty whoami
  betty whoami --profile staging`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runWhoami(cmd.Context(), opts)
		},
	}
	return cmd
}

func runWhoami(ctx context.Context, opts *WhoamiOptions) error {
	creds, err := opts.Credentials()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var rows [][2]string
	if creds.APIKey != "" {
		rows = append(rows, [2]string{"Server", c.Server()}, [2]string{"API key", keyPrefix(creds.APIKey) + "…"})
	} else {
		u, err := c.Me(ctx)
		if err != nil {
			return err
		}
		rows = append(rows,
			[2]string{"Server", c.Server()},
			[2]string{"E-mail", string(u.Email)},
			[2]string{"Name", cmdutil.Str(u.Profile.Name)},
			[2]string{"User ID", u.Id},
		)
		if u.IsSiteAdmin {
			rows = append(rows, [2]string{"Site admin", "yes"})
		}
	}
	team, err := whoamiTeam(ctx, opts, c)
	if err != nil {
		return err
	}
	rows = append(rows, [2]string{"Team", team})
	return cmdutil.PrintTable(opts.IO, func(t *cmdutil.Table) {
		for _, r := range rows {
			t.Row(r[0], r[1])
		}
	})
}

// whoamiTeam describes the current team and the caller's role there.
func whoamiTeam(ctx context.Context, opts *WhoamiOptions, c *betty.Client) (string, error) {
	id, err := opts.TeamID(ctx, "")
	var flagErr *cmdutil.FlagError
	if errors.As(err, &flagErr) {
		return "none (see `betty teams switch`)", nil
	}
	if err != nil {
		return "", err
	}
	org, err := cmdutil.FindTeam(ctx, c, id)
	if errors.Is(err, betty.ErrNotFound) {
		return id + " (no longer one of yours)", nil
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (%s), role %s", org.Name, org.Id, cmdutil.Str(org.MyRole)), nil
}

// keyPrefix is as much of an API key as its listing shows: betty_sk_ and 8 characters.
func keyPrefix(key string) string {
	return key[:min(len(key), len("betty_sk_")+8)]
}
