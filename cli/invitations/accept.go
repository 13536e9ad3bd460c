package invitations

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/members"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// AcceptOptions are the inputs of `betty invitations accept`.
type AcceptOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	// ID is a pending invitation's id; Token the token of an e-mailed link. One is set.
	ID     string
	Token  string
	Output cmdutil.Output
}

// NewCmdAccept returns `betty invitations accept`; runF replaces the run in tests.
func NewCmdAccept(f *cmdutil.Factory, runF func(*AcceptOptions) error) *cobra.Command {
	opts := &AcceptOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "accept {<id> | --token <token>}",
		Short: "Accept an invitation",
		Long: `Join a team by accepting an invitation: one of yours by its id (see betty invitations
list), or any addressed to you by the token of the e-mailed link (its inviteToken).`,
		Example: `  betty invitations accept 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty invitations accept --token "$TOKEN"`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.ID = args[0]
			}
			if (opts.ID == "") == (opts.Token == "") {
				return cmdutil.FlagErrorf("give either an invitation id or --token")
			}
			if opts.ID != "" {
				if err := cmdutil.ID.Check(opts.ID); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runAccept(cmd.Context(), opts)
		},
	}
	cmdutil.InviteToken.Var(cmd.Flags(), &opts.Token, "token", "The `token` of the invitation e-mail's link")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runAccept(ctx context.Context, opts *AcceptOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	m, err := betty.Do[client.TeamMember](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		if opts.Token != "" {
			return api.AcceptTeamInvitation(ctx, client.AcceptTeamInvitationRequest{Token: opts.Token})
		}
		return api.AcceptPendingTeamInvitation(ctx, client.AcceptPendingTeamInvitationRequest{OrganizationMemberId: opts.ID})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Joined team %s as %s; `betty teams switch %s` makes it the current team.\n", m.OrganizationId, m.Role, m.OrganizationId)
	return opts.Output.Print(opts.IO, m, func(t *cmdutil.Table) { members.Rows(t, m) })
}
