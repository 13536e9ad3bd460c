package admin

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// LevelOptions are the inputs of `betty admin orgs level`.
type LevelOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Level  client.VerificationLevel
	Output cmdutil.Output
}

// NewCmdLevel returns `betty admin orgs level`; runF replaces the run in tests.
func NewCmdLevel(f *cmdutil.Factory, runF func(*LevelOptions) error) *cobra.Command {
	opts := &LevelOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "level <id> <level>",
		Short: "Set an organisation's verification level",
		Long: `Set the verification level of an organisation, up or down: none, l1 (identity) or l2
(business). Setting the level a pending verification request asked for (or a higher one)
completes the request. The owner is e-mailed about the change.`,
		Example:           `  betty admin orgs level 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 l1`,
		Args:              cmdutil.ExactArgs(2, "give the organisation's id and the level (none, l1 or l2)"),
		ValidArgsFunction: cmdutil.CompleteArg(1, "none", "l1", "l2"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Level = args[0], client.VerificationLevel(args[1])
			if !opts.Level.Valid() {
				return cmdutil.FlagErrorf("invalid level %q: want none, l1 or l2", args[1])
			}
			if runF != nil {
				return runF(opts)
			}
			return runLevel(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runLevel(ctx context.Context, opts *LevelOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := betty.Do[client.AdminOrganization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateAdminOrganizationLevel(ctx, &client.UpdateAdminOrganizationLevelParams{OrganizationId: opts.ID, VerificationLevel: opts.Level})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Set the verification level of %s to %s.\n", org.Organization.Name, org.Organization.VerificationLevel)
	return printOrg(opts.IO, opts.Output, org)
}
