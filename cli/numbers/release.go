package numbers

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ReleaseOptions are the inputs of `betty numbers release`.
type ReleaseOptions = cmdutil.RemoveOptions

// NewCmdRelease returns `betty numbers release`; runF replaces the run in tests.
func NewCmdRelease(f *cmdutil.Factory, runF func(*ReleaseOptions) error) *cobra.Command {
	return cmdutil.NewCmdRemove(f, cmdutil.Remove{
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
		NoID:    "give the id of the number to release (see `betty numbers list`)",
		Verb:    "Release",
		Question: func(id string) string {
			return fmt.Sprintf("Release phone number %s? Calls to it stop reaching the team.", id)
		},
		Done: func(id string) string { return fmt.Sprintf("Released phone number %s.", id) },
		Call: func(ctx context.Context, c *betty.Client, team, id string) error {
			return c.ReleasePhoneNumber(ctx, team, id)
		},
	}, runF)
}
