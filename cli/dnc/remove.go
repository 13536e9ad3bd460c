package dnc

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// RemoveOptions are the inputs of `betty dnc remove`.
type RemoveOptions struct {
	Options
	Target string // an entry's id, or a number in E.164
	Yes    bool
}

// NewCmdRemove returns `betty dnc remove`; runF replaces the run in tests.
func NewCmdRemove(f *cmdutil.Factory, runF func(*RemoveOptions) error) *cobra.Command {
	opts := &RemoveOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "remove {<id> | <+number>}",
		Short: "Remove a number from the do-not-call list",
		Long: `Remove an entry from the do-not-call list, by its id or by its number in E.164 (+…): jobs
may call the number again (contacts already suppressed stay so). Only admins and the owner
may. Asks first on a terminal; needs --yes otherwise.`,
		Example: `  betty dnc remove +14155550123 --yes
  betty dnc remove 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b50 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the entry's id or its number (see betty dnc list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Target = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runRemove(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Remove without asking")
	return cmd
}

func runRemove(ctx context.Context, opts *RemoveOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	id, what := opts.Target, "entry "+opts.Target
	if strings.HasPrefix(opts.Target, "+") {
		e, err := find(ctx, c, team, opts.Target)
		if err != nil {
			return err
		}
		id, what = e.Id, e.PhoneNumber
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, fmt.Sprintf("Remove %s from the do-not-call list? Jobs may call it again.", what)); err != nil {
		return err
	}
	if err := c.RemoveDoNotCall(ctx, team, id); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Removed %s from the do-not-call list.\n", what)
	return nil
}

// find looks up the entry of a number in E.164.
func find(ctx context.Context, c *betty.Client, team, e164 string) (client.DoNotCallEntry, error) {
	digits := strings.TrimPrefix(e164, "+")
	for e, err := range c.DoNotCall(ctx, team, digits) {
		if err != nil {
			return client.DoNotCallEntry{}, err
		}
		if e.PhoneNumber == e164 {
			return e, nil
		}
	}
	return client.DoNotCallEntry{}, cmdutil.NotFoundf("%s is not on the do-not-call list", e164)
}
