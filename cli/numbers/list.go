package numbers

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ListOptions are the inputs of `betty numbers list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team   string
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty numbers list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's phone numbers",
		Long: `List a team's phone numbers, newest first: the numbers it bought, and numbers of its own
it verified (kind "own (caller id)": agents call from them, but calls to them do not reach
Betty), with the agent answering each and the campaign using it.`,
		Example: `  betty numbers list
  betty numbers list --json`,
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
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	numbers, err := cmdutil.Collect(c.PhoneNumbers(ctx, team), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, numbers, func(t *cmdutil.Table) {
		t.Header("ID", "NUMBER", "STATUS", "KIND", "COUNTRY", "MONTHLY", "AGENT", "CAMPAIGN", "CREATED")
		for _, n := range numbers {
			t.Row(n.Id, n.PhoneNumber, string(n.Status), kind(n), string(n.CountryCode), price(n.MonthlyPrice),
				cmdutil.Str(n.AgentId), cmdutil.Str(n.CampaignId), cmdutil.Time(&n.CreatedAt))
		}
	})
}
