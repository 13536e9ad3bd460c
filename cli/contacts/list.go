package contacts

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty contacts list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Workflow string
	Node     string
	Failed   bool
	Limit    int
	Output   cmdutil.Output
}

// NewCmdList returns `betty contacts list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "list <workflow id>",
		Short: "List a workflow's contacts",
		Long: `List the contacts of a workflow's Contacts node in file order, with their call status;
--failed shows only the rows that cannot be called, with the reason.`,
		Example: `  betty contacts list 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11
  betty contacts list 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --failed --json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.ExactArgs(1, "give the workflow's id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Workflow = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.ID.Var(cmd.Flags(), &opts.Node, "node", "The Contacts node `id` (the workflow's only one by default)")
	cmd.Flags().BoolVar(&opts.Failed, "failed", false, "Only the rows that cannot be called")
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, node, err := contactsNode(ctx, c, opts.Workflow, opts.Node)
	if err != nil {
		return err
	}
	list := []client.Contact{}
	for ct, err := range c.Contacts(ctx, w.Id, node) {
		if err != nil {
			return err
		}
		if opts.Failed && ct.BettyMetadata.Status != client.ContactCallStatusFailed {
			continue
		}
		list = append(list, ct)
		if opts.Limit > 0 && len(list) == opts.Limit {
			break
		}
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("PHONE", "FIRST NAME", "LAST NAME", "EMAIL", "STAGE", "CALL STATUS", "ATTEMPTS", "REASON")
		for _, ct := range list {
			t.Row(ct.Phone, cmdutil.Str(ct.FirstName), cmdutil.Str(ct.LastName), cmdutil.Str(ct.Email), cmdutil.Str(ct.LifecycleStage),
				string(ct.BettyMetadata.Status), fmt.Sprint(ct.BettyMetadata.Attempts), cmdutil.Str(ct.BettyMetadata.LastError))
		}
	})
}
