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
type DeleteOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team string
	ID   string
	Yes  bool
}

// NewCmdDelete returns `betty voices delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "delete <id>",
		Short: "Delete a custom voice",
		Long: `Delete a custom voice profile of a team, freeing its place under the team's limit. A
voice an agent still speaks with is not deleted: give the agent another voice first. Asks
first on a terminal; needs --yes otherwise.`,
		Example: `  betty voices delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty voices delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the id of the voice to delete (see `betty voices list`)"),
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
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, fmt.Sprintf("Delete voice %s?", opts.ID)); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	err = betty.NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteVoiceProfile(ctx, opts.ID, &client.DeleteVoiceProfileParams{OrganizationId: team})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Deleted voice %s.\n", opts.ID)
	return nil
}
