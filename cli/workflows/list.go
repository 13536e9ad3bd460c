package workflows

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty workflow list`.
type ListOptions struct {
	cmdutil.TeamOptions
	Type   client.WorkflowType
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty workflow list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's workflows",
		Long: `List a team's workflows, most recently updated first, campaign workflows included
(CAMPAIGN names theirs; ACTIVE marks the one its campaign runs).`,
		Example: `  betty workflow list
  betty workflow list --type inbound --json`,
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
	cmdutil.EnumVar(cmd.Flags(), &opts.Type, "type", "Only workflows of this `type`: "+cmdutil.OneOf(types...), types...)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.Workflows(ctx, team, opts.Type), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "TYPE", "VERSION", "PROMPT", "CAMPAIGN", "ACTIVE", "UPDATED")
		for _, w := range list {
			t.Row(w.Id, w.Name, string(w.WorkflowType), fmt.Sprint(w.Version), string(w.ReadablePromptStatus), campaignOf(w), yesNo(w.Active), cmdutil.Time(&w.UpdatedAt))
		}
	})
}
