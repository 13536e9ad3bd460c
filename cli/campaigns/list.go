package campaigns

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty campaigns list`.
type ListOptions struct {
	cmdutil.TeamOptions
	Status client.CampaignStatusFilter
	Name   string
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty campaigns list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's campaigns",
		Long: `List the campaigns of a team, newest first, with their direction, status, phone number and
how many workflows and agents each has. --status keeps the campaigns in one status and
--name those whose name contains a text, ignoring case. Any member of the team may do this.`,
		Example: `  betty campaigns list
  betty campaigns list --status active --name acme
  betty campaigns list --limit 0 --json`,
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
	cmdutil.EnumVar(cmd.Flags(), &opts.Status, "status", "Keep campaigns in this status: "+cmdutil.OneOf(Filters...), Filters...)
	NameFilter.Var(cmd.Flags(), &opts.Name, "name", "Keep campaigns whose name contains this `text`, ignoring case")
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.Campaigns(ctx, team, betty.CampaignFilter{Status: opts.Status, Name: opts.Name}), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "TYPE", "STATUS", "PRIORITY", "PHONE NUMBER", "WORKFLOWS", "AGENTS", "CREATED")
		for _, cp := range list {
			t.Row(cp.Id, cp.Name, string(cp.Type), string(cp.Status), string(cp.Priority), cmdutil.Str(cp.PhoneNumber),
				strconv.Itoa(len(cp.Workflows)), strconv.Itoa(len(cp.Agents)), cmdutil.Time(&cp.CreatedAt))
		}
	})
}
