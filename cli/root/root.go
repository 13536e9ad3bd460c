// Package root is the `betty` command: `betty serve` runs the server; every other command is a
// client of a server.
package root

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/migrate"
	"github.com/bettyhq/betty/cli/serve"
)

// NewCmdRoot returns the root command with every sub-command.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "betty <command>",
		Short: "Betty: AI voice agents on phone calls, self-hosted",
		Long: `Betty runs AI voice agents that take inbound calls and place outbound campaigns.

betty serve starts the server (API, background work and dashboard on one port).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       f.Version,
	}
	cmd.SetIn(f.IO.In)
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetVersionTemplate(fmt.Sprintf("betty %s\n", f.Version))
	cmd.AddCommand(serve.NewCmdServe(f), migrate.NewCmdMigrate(f))
	return cmd
}
