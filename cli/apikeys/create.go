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

// CreateOptions are the inputs of `betty api-keys create`.
type CreateOptions struct {
	cmdutil.TeamOptions
	Name   string
	Role   client.AssignableTeamRole
	Output cmdutil.Output
}

// NewCmdCreate returns `betty api-keys create`; runF replaces the run in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	var role string
	cmd := &cobra.Command{
		Use:   "create <name>",
		Short: "Create an API key",
		Long: `Create an API key for a team and print its secret on stdout. The secret is shown this
once only: the server keeps just a hash, so a lost key must be replaced. The role may not be
above your own.`,
		Example: `  betty api-keys create "CRM sync"
  KEY=$(betty api-keys create ci --role readonly)
  betty api-keys create ci --json | jq -r .key`,
		Args: cmdutil.ExactArgs(1, "give a name for the key"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if err := cmdutil.KeyName.Check(opts.Name); err != nil {
				return err
			}
			var err error
			if opts.Role, err = cmdutil.ParseRole(role); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runCreate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVarP(&role, "role", "r", "developer", "The `role` the key acts with: admin, developer, member or readonly")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	key, err := betty.Do[client.CreatedApiKey](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateTeamApiKey(ctx, client.CreateTeamApiKeyRequest{OrganizationId: team, Name: opts.Name, Role: &opts.Role})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Created API key %q (%s) with role %s.\n", key.Name, key.Id, key.Role)
	fmt.Fprintln(opts.IO.ErrOut, "warning: copy the key now; it will not be shown again.")
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, key, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, key.Key)
	return err
}
