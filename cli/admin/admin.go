// Package admin is `betty admin`: site-administrator operations over every organisation.
package admin

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/teams"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdAdmin returns `betty admin` and its nouns.
func NewCmdAdmin(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "admin <command>",
		Short: "Site-administrator operations",
		Long: `Operations for the site administrators of a Betty deployment. Everyone else, API keys
included, is refused.`,
		Example: `  betty admin orgs search --email acme.com
  betty admin orgs view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty admin mail list --recipient ada@example.com
  betty admin credits grant 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 100`,
	}
	orgs := &cobra.Command{
		Use:     "orgs <command>",
		Short:   "Look at and change any organisation",
		Long:    "Look up any organisation (team) and set its verification level or subscription tier.",
		Example: `  betty admin orgs tier 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 tier4`,
		Aliases: []string{"org", "organizations"},
	}
	orgs.AddCommand(NewCmdView(f, nil), NewCmdSearch(f, nil), NewCmdLevel(f, nil), NewCmdTier(f, nil))
	mail := &cobra.Command{
		Use:   "mail <command>",
		Short: "Read the e-mail the server wrote",
		Long: `Read the e-mail the server wrote and what became of it. Without SMTP nothing leaves the
server: the links people need (to confirm an address, accept an invitation, reset a
password) are here and in the server's log.`,
		Example: `  betty admin mail list --recipient ada@example.com`,
	}
	mail.AddCommand(NewCmdMailList(f, nil))
	credits := &cobra.Command{
		Use:     "credits <command>",
		Short:   "Give organisations credits",
		Long:    "Give any organisation prepaid credits without a payment; each grant is in its credit ledger.",
		Example: `  betty admin credits grant 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 100`,
	}
	credits.AddCommand(NewCmdCreditsGrant(f, nil))
	cmd.AddCommand(orgs, mail, credits, NewCmdGrant(f, nil))
	return cmd
}

// orgRows adds the fields of an organisation as site admins see it to a table.
func orgRows(t *cmdutil.Table, o client.AdminOrganization) {
	teams.Rows(t, o.Organization)
	t.Row("Members", fmt.Sprint(o.MemberCount))
	t.Row("Balance", fmt.Sprintf("%.2f", o.Balance))
	t.Row("Subscription ends", cmdutil.Time(o.SubscriptionEndAt))
	if v := o.PendingVerificationRequest; v != nil {
		t.Row("Verification asked", fmt.Sprintf("%s (since %s)", v.RequestedLevel, cmdutil.Time(&v.CreatedAt)))
	}
	t.Row("Refreshed", cmdutil.Time(o.RefreshedAt))
}

func printOrg(io *cmdutil.IOStreams, out cmdutil.Output, o client.AdminOrganization) error {
	return out.Print(io, o, func(t *cmdutil.Table) { orgRows(t, o) })
}
