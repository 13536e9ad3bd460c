package inbox

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// ViewOptions are the inputs of `betty inbox view`.
type ViewOptions struct {
	Options
	ID     string
	Output cmdutil.Output
}

// NewCmdView returns `betty inbox view`; runF replaces the run in tests.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "view <id>",
		Short: "Show an inbox item",
		Long: `Show an inbox item with its summary and the call it comes from (see betty calls view and
betty calls transcript). A deleted item is shown as deleted.`,
		Example: `  betty inbox view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b40
  betty inbox view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b40 --json`,
		Args: cmdutil.ExactArgs(1, "give the id of the inbox item (see betty inbox list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	it, err := c.InboxItem(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	return printItem(opts.IO, opts.Output, it)
}

func printItem(s *cmdutil.IOStreams, o cmdutil.Output, it client.InboxItem) error {
	return o.Print(s, it, func(t *cmdutil.Table) {
		t.Row("ID", it.Id)
		t.Row("TITLE", it.Title)
		t.Row("SUMMARY", it.Summary)
		t.Row("PRIORITY", fmt.Sprint(it.Priority))
		t.Row("VISIBILITY", string(it.Visibility))
		t.Row("CALL", cmdutil.Str(it.CallLogId))
		t.Row("CAMPAIGN", cmdutil.Str(it.CampaignId))
		t.Row("CREATED", cmdutil.Time(&it.CreatedAt))
		t.Row("UPDATED", cmdutil.Time(&it.UpdatedAt))
		if it.Deleted {
			t.Row("DELETED", cmdutil.Time(it.DeletedAt))
		}
	})
}
