// Package dnc is `betty dnc`: a team's do-not-call list — numbers its jobs never dial.
package dnc

import (
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdDNC returns `betty dnc` and its verbs.
func NewCmdDNC(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dnc <command>",
		Short: "Do-not-call: numbers the team never calls",
		Long: `Manage the do-not-call list of the current team (or the one given with --team). The dialer
checks it at the moment of every dial: a contact whose number is on it is never called and
ends suppressed. A person who asks not to be called again during a call is added by
themselves (added by "conversation").

Any member but a read-only one may add numbers; only admins and the owner may remove them,
because removing lifts a person's wish.`,
		Example: `  betty dnc add +14155550123 --reason "asked on 2026-03-14"
  betty dnc import opt-outs.csv
  betty dnc list --search 415
  betty dnc remove +14155550123 --yes`,
		Aliases: []string{"do-not-call"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdAdd(f, nil), NewCmdRemove(f, nil), NewCmdImport(f, nil))
	return cmd
}

// Options are the inputs every dnc command shares.
type Options = cmdutil.TeamOptions

func options(f *cmdutil.Factory) Options { return cmdutil.NewTeamOptions(f) }

// The rules of what the commands send, copied from the contract.
var (
	number = cmdutil.Rule{Name: "phone number", Schema: "AddDoNotCallRequest.phoneNumber", Min: 3, Max: 32}
	reason = cmdutil.Rule{Name: "reason", Schema: "AddDoNotCallRequest.reason", Max: 500}
	region = cmdutil.Rule{Name: "region", Schema: "AddDoNotCallRequest.defaultRegion", Pattern: `^[A-Z]{2}$`, Want: "a two-letter region such as GB"}
	search = cmdutil.Rule{Name: "search text", Schema: "listDoNotCall?search", Max: 100}
)

// listFlags adds --reason and --region.
func listFlags(cmd *cobra.Command, o *betty.DoNotCallOptions, reasonUsage string) {
	reason.Var(cmd.Flags(), &o.Reason, "reason", reasonUsage)
	region.Var(cmd.Flags(), &o.DefaultRegion, "region", "The `region` of numbers written without a country code, such as GB (default US)")
}

func printEntries(s *cmdutil.IOStreams, o cmdutil.Output, list []client.DoNotCallEntry) error {
	return o.Print(s, list, func(t *cmdutil.Table) {
		t.Header("ID", "NUMBER", "REASON", "ADDED BY", "SOURCE", "ADDED")
		for _, e := range list {
			t.Row(e.Id, e.PhoneNumber, cmdutil.Str(e.Reason), e.AddedBy, string(e.Source), cmdutil.Time(&e.CreatedAt))
		}
	})
}
