package workflows

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// CreateOptions are the inputs of `betty workflow create`.
type CreateOptions struct {
	cmdutil.TeamOptions
	Name     string
	Agent    string
	Type     client.WorkflowType
	Template string
	Set      []string
	Output   cmdutil.Output
}

// NewCmdCreate returns `betty workflow create`; runF replaces the run in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "create <name>",
		Short: "Create a workflow",
		Long: `Create a workflow spoken by --agent, of --type inbound or outbound: empty (draw it on
the canvas, or import a file into it), or a copy of --template (see betty workflow templates)
with its placeholders filled in by --set key=value. Prints its id. Any member but read-only
may do this.`,
		Example: `  betty workflow create "Renewal reminder" --type outbound --agent 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty workflow create "Support line" --type inbound --agent 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 \
    --template template-customer-support --set companyName=Acme --set "operatingHours=9am to 5pm"`,
		Args: cmdutil.ExactArgs(1, "give a name for the workflow"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if err := wfName.Check(opts.Name); err != nil {
				return err
			}
			if opts.Agent == "" {
				return cmdutil.FlagErrorf("give the agent that speaks in it with --agent <id> (see betty agents list)")
			}
			if opts.Type == "" {
				return cmdutil.FlagErrorf("give the --type: %s", cmdutil.OneOf(types...))
			}
			if len(opts.Set) > 0 && opts.Template == "" {
				return cmdutil.FlagErrorf("--set fills a template's placeholders: give the --template")
			}
			if runF != nil {
				return runF(opts)
			}
			return runCreate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.ID.Var(cmd.Flags(), &opts.Agent, "agent", "The agent `id` that speaks in it")
	cmdutil.EnumVar(cmd.Flags(), &opts.Type, "type", "The workflow `type`: "+cmdutil.OneOf(types...), types...)
	cmd.Flags().StringVar(&opts.Template, "template", "", "Copy this template `id`")
	cmd.Flags().StringArrayVar(&opts.Set, "set", nil, "Fill a template placeholder: `key=value` (repeatable)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	values := map[string]string{}
	for _, kv := range opts.Set {
		k, v, err := splitSet(kv)
		if err != nil {
			return err
		}
		values[k] = v
	}
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: opts.Name, AgentID: opts.Agent, Type: opts.Type,
		Template: opts.Template, TemplateValues: values})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Created workflow %q.\n", w.Name)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, w, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, w.Id)
	return err
}
