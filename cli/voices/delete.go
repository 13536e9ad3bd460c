package voices

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// DeleteOptions are the inputs of `betty voices delete`.
type DeleteOptions = cmdutil.RemoveOptions

// NewCmdDelete returns `betty voices delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	return cmdutil.NewCmdRemove(f, cmdutil.Remove{
		Use:   "delete <id>",
		Short: "Delete a custom voice",
		Long: `Delete a custom voice profile of a team, freeing its place under the team's limit. A
voice an agent still speaks with is not deleted: give the agent another voice first. Asks
first on a terminal; needs --yes otherwise.`,
		Example: `  betty voices delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty voices delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Aliases:  []string{"rm"},
		NoID:     "give the id of the voice to delete (see `betty voices list`)",
		Verb:     "Delete",
		Question: func(id string) string { return fmt.Sprintf("Delete voice %s?", id) },
		Done:     func(id string) string { return fmt.Sprintf("Deleted voice %s.", id) },
		Call: func(ctx context.Context, c *betty.Client, team, id string) error {
			return betty.NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
				return api.DeleteVoiceProfile(ctx, id, &client.DeleteVoiceProfileParams{OrganizationId: team})
			})
		},
	}, runF)
}
