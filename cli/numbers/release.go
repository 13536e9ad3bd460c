package numbers

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ReleaseOptions are the inputs of `betty numbers release`.
type ReleaseOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team string
	ID   string
	Yes  bool
}

// NewCmdRelease returns `betty numbers release`; runF replaces the run in tests.
func NewCmdRelease(f *cmdutil.Factory, runF func(*ReleaseOptions) error) *cobra.Command {
	opts := &ReleaseOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "release <id>",
		Short: "Release a phone number",
		Long: `Remove a number from a team: a bought number goes back to the carrier and its
subscription ends; a number of the team's own loses its verification. The agent answering
it is unpaired. A number a campaign still uses is refused: give the campaign another number
first. Asks first on a terminal; needs --yes otherwise. Needs the admin or owner role and a
signed-in user.`,
		Example: `  betty numbers release 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty numbers release 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Aliases: []string{"rm", "delete"},
		Args:    cmdutil.ExactArgs(1, "give the id of the number to release (see `betty numbers list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRelease(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Release without asking")
	return cmd
}

func runRelease(ctx context.Context, opts *ReleaseOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	question := fmt.Sprintf("Release phone number %s? Calls to it stop reaching the team.", opts.ID)
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, question); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if err := c.ReleasePhoneNumber(ctx, team, opts.ID); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Released phone number %s.\n", opts.ID)
	return nil
}
