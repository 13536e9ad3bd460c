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
	Name        string
	Agent       string
	Type        client.WorkflowType
	Template    string
	Set         []string
	Campaign    string
	PhoneNumber string
	Activate    bool
	Output      cmdutil.Output
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
may do this.

--phone-number is the team's number it calls from (outbound) or answers (inbound), by its id
or the number in E.164 (see betty numbers list): a workflow outside a campaign runs only with
one. --campaign makes it a workflow of that campaign, by its id or its name: of the
campaign's type (--type may be left out), spoken by the campaign's active agent unless
--agent names another, calling from the campaign's number unless --phone-number names
another. --activate makes it the workflow the campaign runs.`,
		Example: `  betty workflow create "Renewal reminder" --type outbound --agent 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 \
    --phone-number +14155550100
  betty workflow create "Support line" --type inbound --agent 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 \
    --template template-customer-support --set companyName=Acme --set "operatingHours=9am to 5pm"
  betty workflow create "Reminders" --campaign "Spring renewals" --template template-appointment-reminder --activate`,
		Args: cmdutil.ExactArgs(1, "give a name for the workflow"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if err := wfName.Check(opts.Name); err != nil {
				return err
			}
			if opts.Agent == "" && opts.Campaign == "" {
				return cmdutil.FlagErrorf("give the agent that speaks in it with --agent <id> (see betty agents list), or its --campaign")
			}
			if opts.Type == "" && opts.Campaign == "" {
				return cmdutil.FlagErrorf("give the --type: %s", cmdutil.OneOf(types...))
			}
			if opts.Activate && opts.Campaign == "" {
				return cmdutil.FlagErrorf("--activate makes it its campaign's workflow: give the --campaign")
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
	cmdutil.ID.Var(cmd.Flags(), &opts.Agent, "agent", "The agent `id` that speaks in it (default with --campaign: the campaign's active agent)")
	cmdutil.EnumVar(cmd.Flags(), &opts.Type, "type", "The workflow `type`: "+cmdutil.OneOf(types...)+" (default with --campaign: the campaign's)", types...)
	cmd.Flags().StringVar(&opts.Template, "template", "", "Copy this template `id`")
	cmd.Flags().StringArrayVar(&opts.Set, "set", nil, "Fill a template placeholder: `key=value` (repeatable)")
	cmd.Flags().StringVar(&opts.Campaign, "campaign", "", "Make it a workflow of this campaign: its `id or name`")
	cmd.Flags().StringVar(&opts.PhoneNumber, "phone-number", "", "The team's `number` it calls from or answers: its id or E.164 form")
	cmd.Flags().BoolVar(&opts.Activate, "activate", false, "Make it the workflow its --campaign runs")
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
	in := betty.WorkflowInput{Name: opts.Name, AgentID: opts.Agent, Type: opts.Type, Template: opts.Template, TemplateValues: values}
	// Names and numbers are looked up before anything is made, so a typo makes nothing.
	var camp client.Campaign
	if opts.Campaign != "" {
		if camp, err = cmdutil.FindCampaign(ctx, c, team, opts.Campaign); err != nil {
			return err
		}
		if opts.Type != "" && string(opts.Type) != string(camp.Type) {
			return cmdutil.FlagErrorf("campaign %q is %s: its workflows are too (leave out --type)", camp.Name, camp.Type)
		}
		in.CampaignID, in.Type = camp.Id, ""
	}
	if opts.PhoneNumber != "" {
		if in.PhoneNumberID, err = cmdutil.PhoneNumberID(ctx, c, team, opts.PhoneNumber); err != nil {
			return err
		}
	}
	w, err := c.CreateWorkflow(ctx, team, in)
	if err != nil {
		return err
	}
	if opts.Campaign != "" {
		fmt.Fprintf(opts.IO.ErrOut, "Created workflow %q in campaign %q.\n", w.Name, camp.Name)
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "Created workflow %q.\n", w.Name)
	}
	if opts.Activate {
		if _, err := c.ActivateCampaignWorkflow(ctx, camp.Id, w.Id); err != nil {
			return fmt.Errorf("the workflow %s was created, but making it the campaign's workflow failed: %w", w.Id, err)
		}
		w.Active = true
		fmt.Fprintf(opts.IO.ErrOut, "It is the workflow campaign %q runs.\n", camp.Name)
	}
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, w, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, w.Id)
	return err
}
