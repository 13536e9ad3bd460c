package apps

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// DisconnectOptions are the inputs of `betty apps disconnect`.
type DisconnectOptions struct {
	Options
	ID  string
	Yes bool
}

// NewCmdDisconnect returns `betty apps disconnect`; runF replaces the run in tests.
func NewCmdDisconnect(f *cmdutil.Factory, runF func(*DisconnectOptions) error) *cobra.Command {
	opts := &DisconnectOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "disconnect <id>",
		Short: "Disconnect a connected app",
		Long: `Disconnect a connected app of the team, whatever its integration: its tokens are revoked
and deleted, and it stays listed as disconnected (it can be connected again). Workflows whose
Contacts node uses a disconnected HubSpot app stop syncing. Owner, admin or developer. Asks
first on a terminal; needs --yes otherwise.`,
		Example: `  betty apps disconnect 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Args:    cmdutil.ExactArgs(1, "give the id of the connected app (betty apps list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runDisconnect(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Disconnect without asking")
	return cmd
}

func runDisconnect(ctx context.Context, opts *DisconnectOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, fmt.Sprintf("Disconnect the connected app %s? Its workflows stop syncing.", opts.ID)); err != nil {
		return err
	}
	a, err := c.DisconnectApp(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(opts.IO.ErrOut, "Disconnected %s (%s).\n", a.Name, a.IntegrationId)
	return err
}
