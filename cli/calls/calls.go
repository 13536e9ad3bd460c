// Package calls is `betty calls`: a team's call logs, their transcripts and recordings, and
// how many calls it made each day.
package calls

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdCalls returns `betty calls` and its verbs.
func NewCmdCalls(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "calls <command>",
		Short: "Calls: logs, transcripts, recordings and daily counts",
		Long: `Read the calls of the current team (or the one given with --team), inbound and outbound:
each call's log (who called whom, how it ended, how long, what it cost), what was said, its
MP3 recording, and how many calls there were each day.`,
		Example: `  betty calls list
  betty calls transcript 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30
  betty calls recording 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30 -o call.mp3
  betty calls stats --from 2026-03-01 --to 2026-03-31`,
		Aliases: []string{"call"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdTranscript(f, nil), NewCmdRecording(f, nil), NewCmdStats(f, nil),
		NewCmdSimulateInbound(f, nil), NewCmdBookings(f, nil), NewCmdExport(f, nil))
	return cmd
}

// Options are the inputs every calls command shares.
type Options struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team string
}

func (o *Options) connect(ctx context.Context) (*betty.Client, string, error) {
	team, err := o.TeamID(ctx, o.Team)
	if err != nil {
		return nil, "", err
	}
	c, err := o.Client()
	return c, team, err
}

func options(f *cmdutil.Factory) Options {
	return Options{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
}

// duration shows a call's length as 1m05s.
func duration(sec int) string { return (time.Duration(sec) * time.Second).String() }

func cost(usd float64) string { return fmt.Sprintf("$%.2f", usd) }

// callCost is what a call cost; a simulated call is free and says so.
func callCost(cl client.CallLog) string {
	if cl.Simulated {
		return cost(0) + " (simulated)"
	}
	return cost(cl.Cost)
}
