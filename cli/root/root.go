// Package root is the `betty` command: `betty serve` runs the server; every other command is a
// client of a server.
package root

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/admin"
	"github.com/bettyhq/betty/cli/agents"
	"github.com/bettyhq/betty/cli/api"
	"github.com/bettyhq/betty/cli/apikeys"
	"github.com/bettyhq/betty/cli/apps"
	"github.com/bettyhq/betty/cli/auth"
	"github.com/bettyhq/betty/cli/billing"
	"github.com/bettyhq/betty/cli/calls"
	"github.com/bettyhq/betty/cli/campaigns"
	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/contacts"
	"github.com/bettyhq/betty/cli/dnc"
	"github.com/bettyhq/betty/cli/files"
	"github.com/bettyhq/betty/cli/inbox"
	"github.com/bettyhq/betty/cli/invitations"
	"github.com/bettyhq/betty/cli/jobs"
	"github.com/bettyhq/betty/cli/kb"
	"github.com/bettyhq/betty/cli/members"
	"github.com/bettyhq/betty/cli/migrate"
	"github.com/bettyhq/betty/cli/numbers"
	"github.com/bettyhq/betty/cli/serve"
	"github.com/bettyhq/betty/cli/teams"
	"github.com/bettyhq/betty/cli/voices"
	"github.com/bettyhq/betty/cli/workflows"
	"github.com/bettyhq/betty/cli/zapier"
)

// NewCmdRoot returns the root command with every sub-command.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "betty <command>",
		Short: "Betty: AI voice agents on phone calls, self-hosted",
		Long: `Betty runs AI voice agents that take inbound calls and place outbound campaigns.

betty serve starts the server (API, background work and dashboard on one port). The other
commands talk to a server: sign up with betty signup or sign in with betty login, then
manage teams, members and API keys.

Settings live in profiles in ~/.config/betty/config.yaml ($XDG_CONFIG_HOME and
$BETTY_CONFIG_DIR move it); BETTY_SERVER and BETTY_API_KEY override the active profile.

Exit codes: 0 done, 1 failed, 2 wrong usage, 4 not logged in or credentials refused,
8 not found, 130 a wait stopped with Ctrl-C (what was waited for goes on).`,
		Example: `  betty serve --data-dir ./data
  betty signup --server http://localhost:8080
  betty login --server http://localhost:8080
  betty teams list
  betty api-keys create ci --role developer`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       f.Version,
	}
	cmd.SetIn(f.IO.In)
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetVersionTemplate(fmt.Sprintf("betty %s\n", f.Version))
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.FlagErrorWrap(err) })
	cmd.PersistentFlags().StringVar(&f.ProfileName, "profile", "", "The configuration `profile` to use instead of the current one")

	cmd.AddCommand(
		serve.NewCmdServe(f),
		migrate.NewCmdMigrate(f),
		auth.NewCmdSignup(f, nil),
		auth.NewCmdLogin(f, nil),
		auth.NewCmdLogout(f, nil),
		auth.NewCmdWhoami(f, nil),
		teams.NewCmdTeams(f),
		members.NewCmdMembers(f),
		invitations.NewCmdInvitations(f),
		apikeys.NewCmdAPIKeys(f),
		files.NewCmdFiles(f),
		kb.NewCmdKB(f),
		voices.NewCmdVoices(f),
		numbers.NewCmdNumbers(f),
		campaigns.NewCmdCampaigns(f),
		agents.NewCmdAgents(f),
		billing.NewCmdBilling(f),
		workflows.NewCmdWorkflow(f),
		contacts.NewCmdContacts(f),
		jobs.NewCmdJobs(f),
		calls.NewCmdCalls(f),
		inbox.NewCmdInbox(f),
		dnc.NewCmdDNC(f),
		apps.NewCmdApps(f),
		admin.NewCmdAdmin(f),
		zapier.NewCmdZapier(f),
		api.NewCmdAPI(f, nil),
	)
	// Added now rather than at execution so help, the golden tests and completion see them.
	cmd.InitDefaultHelpCmd()
	cmd.InitDefaultCompletionCmd()
	markUsageErrors(cmd)
	return cmd
}

// markUsageErrors makes every argument error a usage error (exit 2), including those of
// cobra's own validators, and makes `betty teams lst` one: cobra checks only the root's
// sub-command names and would show the group's help and exit 0. Like cobra does for the
// root, it suggests the sub-commands that look like what was typed.
func markUsageErrors(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		markUsageErrors(c)
	}
	if cmd.HasParent() && cmd.HasSubCommands() && !cmd.Runnable() {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.FlagErrorf("unknown command %q for %q%s", args[0], c.CommandPath(), suggestions(c, args[0]))
			}
			return c.Help()
		}
		return
	}
	if validate := cmd.Args; validate != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			return cmdutil.FlagErrorWrap(validate(c, args))
		}
	}
}

// suggestions is cobra's "Did you mean this?" for the root, for any group.
func suggestions(group *cobra.Command, typed string) string {
	if group.SuggestionsMinimumDistance <= 0 {
		group.SuggestionsMinimumDistance = 2
	}
	names := group.SuggestionsFor(typed)
	if len(names) == 0 {
		return ""
	}
	return "\n\nDid you mean this?\n\t" + strings.Join(names, "\n\t") + "\n"
}

// Run executes the command line args and returns the process's exit code, after printing
// any error for a person on stderr.
func Run(ctx context.Context, f *cmdutil.Factory, args []string) int {
	cmd := NewCmdRoot(f)
	cmd.SetArgs(args)
	ran, err := cmd.ExecuteContextC(ctx)
	if err != nil {
		cmdutil.PrintError(f.IO.ErrOut, ran, err)
	}
	return cmdutil.ExitCode(err)
}
