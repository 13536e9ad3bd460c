// Package members is `betty members`: the people of a team and their roles.
package members

import (
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdMembers returns `betty members` and its verbs.
func NewCmdMembers(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "members <command>",
		Short: "Manage the members of a team",
		Long: `Manage the members of the current team (or the one given with --team): list them,
invite people by e-mail, change roles and remove members.

Roles, from most to least powerful: owner, admin, developer, member, readonly. Ownership
moves only with betty teams transfer.`,
		Example: `  betty members list
  betty members invite ada@example.com --role developer
  betty members role ada@example.com admin`,
	}
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdInvite(f, nil),
		NewCmdRole(f, nil),
		NewCmdRemove(f, nil),
	)
	return cmd
}

// Rows adds the fields of a member to a table, one per row.
func Rows(t *cmdutil.Table, m client.TeamMember) {
	t.Row("ID", m.Id)
	t.Row("Team", m.OrganizationId)
	t.Row("Email", string(m.Email))
	t.Row("Name", cmdutil.Str(m.Name))
	t.Row("Role", string(m.Role))
	t.Row("Status", string(m.Status))
	t.Row("Invited", cmdutil.Time(m.InvitedAt))
	t.Row("Joined", cmdutil.Time(m.JoinedAt))
}
