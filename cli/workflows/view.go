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

// ViewOptions are the inputs of `betty workflow view`.
type ViewOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Prompt bool
	Output cmdutil.Output
}

// NewCmdView returns `betty workflow view`; runF replaces the run in tests.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "view <id>",
		Short: "Show a workflow",
		Long: `Show a workflow: its settings, its nodes, the post-call fields its calls gather (set them
in the graph file's postCallFields, see betty workflow import), and what still stops it from running. With
--prompt, print the readable prompt compiled from the graph (the script the agent follows).`,
		Example: `  betty workflow view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11
  betty workflow view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --prompt
  betty workflow view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --json`,
		Args: cmdutil.ExactArgs(1, "give the id of the workflow (see betty workflow list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Prompt, "prompt", false, "Print the readable prompt instead")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, err := c.Workflow(ctx, opts.ID)
	if err != nil {
		return err
	}
	if opts.Prompt && opts.Output.Format == "" {
		if w.ReadablePrompt == nil {
			return fmt.Errorf("the readable prompt of %q is not compiled yet (%s)", w.Name, w.ReadablePromptStatus)
		}
		_, err := fmt.Fprint(opts.IO.Out, *w.ReadablePrompt)
		return err
	}
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, w, nil)
	}
	err = cmdutil.PrintTable(opts.IO, func(t *cmdutil.Table) {
		t.Row("ID", w.Id)
		t.Row("NAME", w.Name)
		t.Row("TYPE", string(w.WorkflowType))
		t.Row("VERSION", fmt.Sprint(w.Version))
		t.Row("AGENT", cmdutil.Str(w.AgentId))
		t.Row("PHONE NUMBER", cmdutil.Str(w.PhoneNumberId))
		t.Row("CAMPAIGN", campaignOf(w))
		t.Row("ACTIVE", yesNo(w.Active))
		t.Row("STOREFRONT", yesNo(w.ShopifyEnabled))
		t.Row("PROMPT", string(w.ReadablePromptStatus))
		if w.Nodes != nil {
			for _, n := range *w.Nodes {
				t.Row("NODE", fmt.Sprintf("%s %s %s", n.Id, n.Type, cmdutil.Str(n.Data.NodeLabel)))
			}
		}
		if w.PostCallFields != nil {
			for _, f := range *w.PostCallFields {
				t.Row("FIELD", postCallField(f))
			}
		}
		t.Row("UPDATED", cmdutil.Time(&w.UpdatedAt))
	})
	if err != nil {
		return err
	}
	printProblems(opts.IO, w.Problems)
	printWarnings(opts.IO, w.Warnings)
	return nil
}

// postCallField shows a field's definition: "email (email) Your e-mail address?", a choice
// with its options.
func postCallField(f client.PostCallField) string {
	s := fmt.Sprintf("%s (%s) %s", f.Name, f.Type, f.Description)
	if f.Options != nil && len(*f.Options) > 0 {
		s += " [" + strings.Join(*f.Options, " | ") + "]"
	}
	return s
}
