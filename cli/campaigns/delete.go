package campaigns

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// DeleteOptions are the inputs of `betty campaigns delete`.
type DeleteOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID  string
	Yes bool
}

// NewCmdDelete returns `betty campaigns delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "delete <id>",
		Short: "Delete a campaign",
		Long: `Delete a campaign with its workflows, their contacts and job history. Its agents are kept,
unlinked, and its phone number is freed. A campaign with a job in progress is not deleted:
end the job first. Asks first on a terminal; needs --yes otherwise. Any member but read-only
may do this.`,
		Example: `  betty campaigns delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty campaigns delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the id of the campaign to delete (see `betty campaigns list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runDelete(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	question := fmt.Sprintf("Delete campaign %s with its workflows and contacts?", opts.ID)
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, question); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if err := c.DeleteCampaign(ctx, opts.ID); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Deleted campaign %s.\n", opts.ID)
	return nil
}
