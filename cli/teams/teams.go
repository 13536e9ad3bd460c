// Package teams is `betty teams`: the teams (organisations) the caller belongs to.
package teams

import (
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdTeams returns `betty teams` and its verbs.
func NewCmdTeams(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "teams <command>",
		Short: "Manage your teams",
		Long: `Manage the teams (organisations) you belong to. A team owns agents, campaigns, phone
numbers, credits and members.

Commands that act on one team use --team or the profile's current team; betty teams switch
sets the current team.`,
		Example: `  betty teams list
  betty teams create "Acme support" --industry Retail
  betty teams switch 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
	}
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdView(f, nil),
		NewCmdCreate(f, nil),
		NewCmdEdit(f, nil),
		NewCmdDelete(f, nil),
		NewCmdSwitch(f, nil),
		NewCmdTransfer(f, nil),
	)
	return cmd
}

// Rows adds the fields of a team to a table, one per row.
func Rows(t *cmdutil.Table, org client.Organization) {
	t.Row("ID", org.Id)
	t.Row("Name", org.Name)
	t.Row("Company", cmdutil.Str(org.CompanyName))
	t.Row("Platform", cmdutil.Str(org.PlatformKey))
	t.Row("Industry", cmdutil.Str(org.Industry))
	t.Row("Purpose", cmdutil.Str(org.Purpose))
	t.Row("Owner", string(org.Owner.Email))
	t.Row("Your role", cmdutil.Str(org.MyRole))
	t.Row("Tier", string(org.SubscriptionTier))
	t.Row("Verification", string(org.VerificationLevel))
	t.Row("Public key", org.PublicApiKey)
	t.Row("Created", cmdutil.Time(&org.CreatedAt))
}

func printTeam(io *cmdutil.IOStreams, out cmdutil.Output, org client.Organization) error {
	return out.Print(io, org, func(t *cmdutil.Table) { Rows(t, org) })
}
