package apikeys

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// DeleteOptions are the inputs of `betty api-keys delete`.
type DeleteOptions = cmdutil.RemoveOptions

// NewCmdDelete returns `betty api-keys delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	return cmdutil.NewCmdRemove(f, cmdutil.Remove{
		Use:   "delete <id>",
		Short: "Revoke an API key",
		Long: `Revoke an API key: calls made with it are refused from then on. Asks first on a
terminal; needs --yes otherwise.`,
		Example: `  betty api-keys delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty api-keys delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Aliases:  []string{"rm", "revoke"},
		NoID:     "give the id of the key to revoke (see `betty api-keys list`)",
		Verb:     "Revoke",
		Question: func(id string) string { return fmt.Sprintf("Revoke API key %s? Whatever uses it stops working.", id) },
		Done:     func(id string) string { return fmt.Sprintf("Revoked API key %s.", id) },
		Call: func(ctx context.Context, c *betty.Client, team, id string) error {
			return betty.NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
				return api.DeleteTeamApiKey(ctx, id, &client.DeleteTeamApiKeyParams{OrganizationId: team})
			})
		},
	}, runF)
}
