package admin

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ViewOptions are the inputs of `betty admin orgs view`.
type ViewOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID      string
	Refresh bool
	Output  cmdutil.Output
}

// NewCmdView returns `betty admin orgs view`; runF replaces the run in tests.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "view <id>",
		Short: "Show any organisation",
		Long: `Show an organisation with what site admins need: member count, credit balance,
subscription end and a pending verification request. --refresh first re-reads subscription
and balance from the payment provider (slower).`,
		Example: `  betty admin orgs view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --refresh`,
		Args:    cmdutil.ExactArgs(1, "give the organisation's id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Refresh, "refresh", false, "Re-read subscription and balance from the payment provider first")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := betty.Do[client.AdminOrganization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetAdminOrganization(ctx, opts.ID, &client.GetAdminOrganizationParams{Refresh: &opts.Refresh})
	})
	if err != nil {
		return err
	}
	return printOrg(opts.IO, opts.Output, org)
}
