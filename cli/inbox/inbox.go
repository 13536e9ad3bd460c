// Package inbox is `betty inbox`: the outcomes of a team's calls, filed after each call —
// list, search, view, change priority or visibility, delete.
package inbox

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdInbox returns `betty inbox` and its verbs.
func NewCmdInbox(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "inbox <command>",
		Short: "Inbox: the outcome of every call",
		Long: `Read the inbox of the current team (or the one given with --team): after each call the
platform files an item with a title, a summary of what happened and what to do next, a
priority (0 lowest, up to 100) and a visibility. Items are private to the team; a public one
can be read by anyone who has its link.`,
		Example: `  betty inbox list --sort priority
  betty inbox search refund
  betty inbox update 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b40 --priority 80`,
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdSearch(f, nil), NewCmdView(f, nil), NewCmdUpdate(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// Options are the inputs every inbox command shares.
type Options = cmdutil.TeamOptions

func options(f *cmdutil.Factory) Options { return cmdutil.NewTeamOptions(f) }

// The enumerations people type, in the contract's order.
var (
	SortColumns = []client.InboxSortBy{client.InboxSortByCreatedAt, client.InboxSortByUpdatedAt, client.InboxSortByPriority,
		client.InboxSortByTitle, client.InboxSortByVisibility}
	Visibilities = []client.InboxVisibility{client.Public, client.Private}
)

// orderFlags adds --sort and --asc.
func orderFlags(cmd *cobra.Command, o *betty.InboxOrder) {
	cmdutil.EnumVar(cmd.Flags(), &o.SortBy, "sort", "The `column` to sort by: "+cmdutil.OneOf(SortColumns...)+" (default createdAt)", SortColumns...)
	cmd.Flags().BoolVar(&o.Ascending, "asc", false, "Sort ascending (default: descending)")
}

func printItems(s *cmdutil.IOStreams, o cmdutil.Output, items []client.InboxItem) error {
	return o.Print(s, items, func(t *cmdutil.Table) {
		t.Header("ID", "PRIORITY", "VISIBILITY", "TITLE", "CALL", "CREATED")
		for _, it := range items {
			t.Row(it.Id, fmt.Sprint(it.Priority), string(it.Visibility), it.Title, cmdutil.Str(it.CallLogId), cmdutil.Time(&it.CreatedAt))
		}
	})
}
