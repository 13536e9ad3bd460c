package apikeys

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty api-keys list`.
type ListOptions struct {
	cmdutil.TeamOptions
	Output cmdutil.Output
}

// NewCmdList returns `betty api-keys list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's API keys",
		Long: `List the active API keys of a team, newest first: name, prefix, role, who made it, and
when each was created and last used. A key whose maker has left the team is marked
(removed): it keeps working until it is revoked. The secrets themselves are never shown
again after creation.`,
		Example: `  betty api-keys list
  betty api-keys list --json`,
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
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	keys, err := betty.Do[[]client.ApiKey](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListTeamApiKeys(ctx, &client.ListTeamApiKeysParams{OrganizationId: team})
	})
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, keys, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "PREFIX", "ROLE", "CREATED BY", "CREATED", "LAST USED")
		for _, k := range keys {
			t.Row(k.Id, k.Name, k.Prefix, string(k.Role), maker(k), cmdutil.Time(&k.CreatedAt), cmdutil.Time(k.LastUsedAt))
		}
	})
}

// maker is the e-mail of who made a key, marked when they are no longer an active member.
func maker(k client.ApiKey) string {
	if k.CreatedBy == nil {
		return ""
	}
	if k.CreatedByStatus != nil && *k.CreatedByStatus != client.MemberStatusActive {
		return fmt.Sprintf("%s (%s)", k.CreatedBy.Email, *k.CreatedByStatus)
	}
	return string(k.CreatedBy.Email)
}
