package teams

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// DeleteOptions are the inputs of `betty teams delete`.
type DeleteOptions struct {
	IO      *cmdutil.IOStreams
	Client  func() (*betty.Client, error)
	Profile func() (*config.Config, *config.Profile, error)

	Team string
	Yes  bool
}

// NewCmdDelete returns `betty teams delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IO, Client: f.Client, Profile: f.Profile}
	cmd := &cobra.Command{
		Use:   "delete <id>",
		Short: "Delete a team",
		Long: `Delete a team with its agents, campaigns, workflows, knowledge bases, API keys and
memberships. Its remaining credits are forfeited. Only the owner may do this, and only once
the team's subscriptions are cancelled. Asks first on a terminal; needs --yes otherwise.`,
		Example: `  betty teams delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty teams delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Args: cmdutil.ExactArgs(1, "give the id of the team to delete"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Team = args[0]
			if err := cmdutil.ID.Check(opts.Team); err != nil {
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
	question := fmt.Sprintf("Delete team %s and everything in it? This cannot be undone.", opts.Team)
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, question); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	err = betty.NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteTeam(ctx, opts.Team)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Deleted team %s.\n", opts.Team)
	cfg, p, err := opts.Profile()
	if err != nil {
		return err
	}
	if p.Team == opts.Team {
		p.Team = ""
		fmt.Fprintln(opts.IO.ErrOut, "It was the current team; pick another with `betty teams switch`.")
		return cfg.Save()
	}
	return nil
}
