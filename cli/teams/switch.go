package teams

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
)

// SwitchOptions are the inputs of `betty teams switch`.
type SwitchOptions struct {
	IO      *cmdutil.IOStreams
	Client  func() (*betty.Client, error)
	Profile func() (*config.Config, *config.Profile, error)

	Team string
}

// NewCmdSwitch returns `betty teams switch`; runF replaces the run in tests.
func NewCmdSwitch(f *cmdutil.Factory, runF func(*SwitchOptions) error) *cobra.Command {
	opts := &SwitchOptions{IO: f.IO, Client: f.Client, Profile: f.Profile}
	cmd := &cobra.Command{
		Use:   "switch <id>",
		Short: "Set the current team",
		Long: `Set the team that commands act on when --team is not given. It is kept in the
profile, so each profile has its own current team.`,
		Example: `  betty teams switch 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty teams switch "$(betty teams list --json | jq -r '.[0].id')"`,
		Args: cmdutil.ExactArgs(1, "give the id of the team to switch to (see `betty teams list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Team = args[0]
			if err := cmdutil.ID.Check(opts.Team); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runSwitch(cmd.Context(), opts)
		},
	}
	return cmd
}

func runSwitch(ctx context.Context, opts *SwitchOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := cmdutil.FindTeam(ctx, c, opts.Team)
	if err != nil {
		return err
	}
	cfg, p, err := opts.Profile()
	if err != nil {
		return err
	}
	p.Team = org.Id
	if err := cfg.Save(); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Switched to team %s (%s).\n", org.Name, org.Id)
	return nil
}
