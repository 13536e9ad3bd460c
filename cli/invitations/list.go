package invitations

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty invitations list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Output cmdutil.Output
}

// NewCmdList returns `betty invitations list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List your pending invitations",
		Long: `List the invitations addressed to your e-mail address that can still be accepted,
newest first. Needs a signed-in user (not an API key).`,
		Example: `  betty invitations list`,
		Aliases: []string{"ls"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	invitations, err := betty.Do[[]client.Invitation](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListPendingTeamInvitations(ctx)
	})
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, invitations, func(t *cmdutil.Table) {
		t.Header("ID", "TEAM", "ROLE", "INVITED BY", "EXPIRES")
		for _, inv := range invitations {
			by := ""
			if inv.InvitedBy != nil {
				by = string(inv.InvitedBy.Email)
			}
			t.Row(inv.Id, inv.OrganizationName, string(inv.Role), by, cmdutil.Time(&inv.ExpiresAt))
		}
	})
}
