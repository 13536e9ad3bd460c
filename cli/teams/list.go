package teams

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ListOptions are the inputs of `betty teams list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty teams list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List your teams",
		Long: `List the teams you are an active member of, oldest first, with your role in each.
The current team is marked with *. With an API key, the list holds the key's own team.`,
		Example: `  betty teams list
  betty teams list --json | jq -r '.[].id'`,
		Aliases: []string{"ls"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	teams, err := cmdutil.ListTeams(ctx, c, opts.Limit)
	if err != nil {
		return err
	}
	// Without a current team there is nothing to mark.
	current, _ := opts.TeamID(ctx, "")
	return opts.Output.Print(opts.IO, teams, func(t *cmdutil.Table) {
		t.Header("", "ID", "NAME", "ROLE", "TIER", "VERIFICATION")
		for _, org := range teams {
			mark := ""
			if org.Id == current {
				mark = "*"
			}
			t.Row(mark, org.Id, org.Name, cmdutil.Str(org.MyRole), string(org.SubscriptionTier), string(org.VerificationLevel))
		}
	})
}
