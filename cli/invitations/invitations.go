// Package invitations is `betty invitations`: invitations addressed to you.
package invitations

import (
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// NewCmdInvitations returns `betty invitations` and its verbs.
func NewCmdInvitations(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "invitations <command>",
		Short: "See and accept invitations to teams",
		Long:  "See the invitations to teams addressed to your e-mail address, and accept them.",
		Example: `  betty invitations list
  betty invitations accept 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdAccept(f, nil))
	return cmd
}
