package inbox

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ListOptions are the inputs of `betty inbox list` and `betty inbox search`.
type ListOptions struct {
	Options
	Query  string
	Order  betty.InboxOrder
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty inbox list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List inbox items",
		Long:  `List a team's inbox items, newest first unless --sort says otherwise; deleted items are left out.`,
		Example: `  betty inbox list
  betty inbox list --sort priority -L 10
  betty inbox list --json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	orderFlags(cmd, &opts.Order)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

// query is the rule of a search's text, copied from the contract.
var query = cmdutil.Rule{Name: "search text", Schema: "searchInboxItems?query", Min: 1, Max: 200}

// NewCmdSearch returns `betty inbox search`; runF replaces the run in tests.
func NewCmdSearch(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "search <text>",
		Short: "Search inbox items",
		Long: `List a team's inbox items whose title or summary match the text: every word of it must
begin a word of the title or summary, ignoring case ("deliv resched" finds "Customer asked
to reschedule delivery").`,
		Example: `  betty inbox search refund
  betty inbox search "call back" --sort priority --json`,
		Args: cmdutil.ExactArgs(1, "give the text to look for"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Query = args[0]
			if err := query.Check(opts.Query); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	orderFlags(cmd, &opts.Order)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	seq := c.InboxItems(ctx, team, opts.Order)
	if opts.Query != "" {
		seq = c.SearchInbox(ctx, team, opts.Query, opts.Order)
	}
	items, err := cmdutil.Collect(seq, opts.Limit)
	if err != nil {
		return err
	}
	return printItems(opts.IO, opts.Output, items)
}
