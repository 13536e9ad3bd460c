package admin

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// LevelOptions are the inputs of `betty admin orgs level`.
type LevelOptions = SetOptions[client.VerificationLevel]

// NewCmdLevel returns `betty admin orgs level`; runF replaces the run in tests.
func NewCmdLevel(f *cmdutil.Factory, runF func(*LevelOptions) error) *cobra.Command {
	return newCmdSet(f, runF, orgSetting[client.VerificationLevel]{
		cmd: cobra.Command{
			Use:   "level <id> <level>",
			Short: "Set an organisation's verification level",
			Long: `Set the verification level of an organisation, up or down: none, l1 (identity) or l2
(business). Setting the level a pending verification request asked for (or a higher one)
completes the request. The owner is e-mailed about the change.`,
			Example: `  betty admin orgs level 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 l1`,
		},
		noun:   "level",
		label:  "verification level",
		values: cmdutil.Levels,
		set: func(ctx context.Context, api *client.Client, id string, level client.VerificationLevel) (*http.Response, error) {
			return api.UpdateAdminOrganizationLevel(ctx, &client.UpdateAdminOrganizationLevelParams{OrganizationId: id, VerificationLevel: level})
		},
		current: func(org client.Organization) client.VerificationLevel { return org.VerificationLevel },
	})
}
