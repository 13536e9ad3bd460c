package workflows

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// TemplatesOptions are the inputs of `betty workflow templates`.
type TemplatesOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Type   client.WorkflowType
	Limit  int
	Output cmdutil.Output
}

// NewCmdTemplates returns `betty workflow templates`; runF replaces the run in tests.
func NewCmdTemplates(f *cmdutil.Factory, runF func(*TemplatesOptions) error) *cobra.Command {
	opts := &TemplatesOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "templates",
		Short: "List workflow templates",
		Long: `List the ready-made workflows a new one can be copied from (betty workflow create
--template), by name, with the placeholders --set fills in.`,
		Example: `  betty workflow templates
  betty workflow templates --type inbound --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runTemplates(cmd.Context(), opts)
		},
	}
	cmdutil.EnumVar(cmd.Flags(), &opts.Type, "type", "Only templates of this `type`: "+cmdutil.OneOf(types...), types...)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runTemplates(ctx context.Context, opts *TemplatesOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.WorkflowTemplates(ctx, opts.Type), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "TYPE", "NODES", "PLACEHOLDERS")
		for _, tp := range list {
			keys := make([]string, 0, len(tp.Placeholders))
			for _, p := range tp.Placeholders {
				keys = append(keys, p.Key)
			}
			t.Row(tp.Id, tp.Name, string(tp.WorkflowType), fmt.Sprint(len(tp.Nodes)), strings.Join(keys, " "))
		}
	})
}
