// Package apikeys is `betty api-keys`: a team's API keys, for scripts and integrations.
package apikeys

import (
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// NewCmdAPIKeys returns `betty api-keys` and its verbs.
func NewCmdAPIKeys(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "api-keys <command>",
		Short: "Manage a team's API keys",
		Long: `Manage the API keys of the current team (or the one given with --team). A key acts in
its team with the role it was given; scripts use it as BETTY_API_KEY or with
betty login --with-token. Managing keys needs a signed-in user with the developer role or
above.`,
		Example: `  betty api-keys list
  betty api-keys create ci --role developer
  betty api-keys delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
		Aliases: []string{"api-key"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdDelete(f, nil))
	return cmd
}
