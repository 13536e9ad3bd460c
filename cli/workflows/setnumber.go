package workflows

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// SetNumberOptions are the inputs of `betty workflow set-number`.
type SetNumberOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Number string
	Remove bool
	Output cmdutil.Output
}

// NewCmdSetNumber returns `betty workflow set-number`; runF replaces the run in tests.
func NewCmdSetNumber(f *cmdutil.Factory, runF func(*SetNumberOptions) error) *cobra.Command {
	opts := &SetNumberOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "set-number <workflow-id> {<number> | --remove}",
		Short: "Set the phone number a workflow calls from or answers",
		Long: `Set the number an outbound workflow calls from, or an inbound one answers: one of its
team's numbers, by its id or the number in E.164 (see betty numbers list). --remove takes the
workflow's own number away; a campaign's workflow then uses its campaign's number. An inbound
number answers with one inbound workflow: a number another one answers is refused. The graph
and its version do not change. Any member but read-only may do this.`,
		Example: `  betty workflow set-number 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 +14155550100
  betty workflow set-number 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --remove`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.Remove {
				return cmdutil.ExactArgs(1, "--remove takes the workflow's id only")(cmd, args)
			}
			return cmdutil.ExactArgs(2, "give the workflow's id and the number (or --remove)")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if len(args) > 1 {
				opts.Number = args[1]
			}
			if runF != nil {
				return runF(opts)
			}
			return runSetNumber(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Remove, "remove", false, "Take the workflow's own number away")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSetNumber(ctx context.Context, opts *SetNumberOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	id := ""
	if !opts.Remove {
		// A number in E.164 is one of the workflow's team's, whichever team is current.
		w, err := c.Workflow(ctx, opts.ID)
		if err != nil {
			return err
		}
		if id, err = cmdutil.PhoneNumberID(ctx, c, w.OrganizationId, opts.Number); err != nil {
			return err
		}
	}
	w, err := c.SetWorkflowPhoneNumber(ctx, opts.ID, id)
	if err != nil {
		return err
	}
	switch {
	case opts.Remove && w.CampaignId != nil:
		fmt.Fprintf(opts.IO.ErrOut, "Workflow %q has no number of its own: it uses its campaign's.\n", w.Name)
	case opts.Remove:
		fmt.Fprintf(opts.IO.ErrOut, "Workflow %q has no number now: it cannot run until it has one.\n", w.Name)
	case w.WorkflowType == client.WorkflowTypeInbound:
		fmt.Fprintf(opts.IO.ErrOut, "Workflow %q answers %s.\n", w.Name, opts.Number)
	default:
		fmt.Fprintf(opts.IO.ErrOut, "Workflow %q calls from %s.\n", w.Name, opts.Number)
	}
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, w, nil)
	}
	return nil
}
