package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// WhoamiOptions are the inputs of `betty whoami`.
type WhoamiOptions struct {
	IO          *cmdutil.IOStreams
	Client      func() (*betty.Client, error)
	Credentials func() (cmdutil.Credentials, error)
	TeamID      func(ctx context.Context, flag string) (string, error)

	Output cmdutil.Output
}

// NewCmdWhoami returns `betty whoami`; runF replaces the run in tests.
func NewCmdWhoami(f *cmdutil.Factory, runF func(*WhoamiOptions) error) *cobra.Command {
	opts := &WhoamiOptions{IO: f.IO, Client: f.Client, Credentials: f.Credentials, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "whoami",
		Short: "Show who the CLI acts as",
		Long: `Show the server, the signed-in user (e-mail, name, id) and the current team with your
role there. With an API key, show that it is one, the team it belongs to (the only one it acts
for) and the key's role, as the server tells it.`,
		Example: `  betty whoami
  betty whoami --profile staging
  betty whoami --json | jq -r .team.id`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runWhoami(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

// identity is who the CLI acts as, as --json prints it.
type identity struct {
	Server string `json:"server"`
	// User is the signed-in user; null with an API key.
	User *client.User `json:"user"`
	// APIKey is the key's prefix; null with a session.
	APIKey *string `json:"apiKey"`
	// TeamID is the current team; null when none is selected.
	TeamID *string `json:"teamId"`
	// Team is the current team as the API sends it; null when none is selected or it is no
	// longer one of the caller's.
	Team *client.Organization `json:"team"`
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
	who := identity{Server: c.Server()}
	if creds.APIKey != "" {
		prefix := keyPrefix(creds.APIKey)
		who.APIKey = &prefix
		err = keyTeam(ctx, opts, c, &who)
	} else {
		var u client.User
		if u, err = c.Me(ctx); err == nil {
			who.User = &u
			err = whoamiTeam(ctx, opts, c, &who)
		}
	}
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, who, func(t *cmdutil.Table) { whoamiRows(t, who) })
}

func whoamiRows(t *cmdutil.Table, who identity) {
	t.Row("Server", who.Server)
	if who.APIKey != nil {
		t.Row("API key", *who.APIKey+"…")
	}
	if u := who.User; u != nil {
		t.Row("E-mail", string(u.Email))
		t.Row("Name", cmdutil.Str(u.Profile.Name))
		t.Row("User ID", u.Id)
		if u.IsSiteAdmin {
			t.Row("Site admin", "yes")
		}
	}
	switch {
	case who.Team != nil:
		t.Row("Team", fmt.Sprintf("%s (%s), role %s", who.Team.Name, who.Team.Id, cmdutil.Str(who.Team.MyRole)))
	case who.TeamID != nil:
		t.Row("Team", *who.TeamID+" (no longer one of yours)")
	default:
		t.Row("Team", "none (see `betty teams switch`)")
	}
}

// keyTeam fills in the team an API key belongs to, which is the only one it acts for, and says
// so when the profile names another.
func keyTeam(ctx context.Context, opts *WhoamiOptions, c *betty.Client, who *identity) error {
	org, err := c.KeyTeam(ctx)
	if err != nil {
		return err
	}
	who.TeamID, who.Team = &org.Id, &org
	if id, err := opts.TeamID(ctx, ""); err == nil && id != org.Id {
		fmt.Fprintf(opts.IO.ErrOut, "The profile's current team %s is not this key's: run `betty teams switch %s`.\n", id, org.Id)
	}
	return nil
}

// whoamiTeam fills in the current team and, when it is still one of the caller's, its
// details.
func whoamiTeam(ctx context.Context, opts *WhoamiOptions, c *betty.Client, who *identity) error {
	id, err := opts.TeamID(ctx, "")
	var flagErr *cmdutil.FlagError
	if errors.As(err, &flagErr) {
		return nil
	}
	if err != nil {
		return err
	}
	who.TeamID = &id
	org, err := cmdutil.FindTeam(ctx, c, id)
	if errors.Is(err, betty.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	who.Team = &org
	return nil
}

// keyPrefix is as much of an API key as its listing shows: betty_sk_ and 8 characters.
func keyPrefix(key string) string {
	return key[:min(len(key), len("betty_sk_")+8)]
}
