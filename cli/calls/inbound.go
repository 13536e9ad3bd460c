package calls

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// SimulateInboundOptions are the inputs of `betty calls simulate-inbound`.
type SimulateInboundOptions struct {
	Options
	To, From, Persona string
	Follow            bool
	Output            cmdutil.Output
}

// followEvery is how often --follow reads the call and its transcript.
var followEvery = 500 * time.Millisecond

// NewCmdSimulateInbound returns `betty calls simulate-inbound`; runF replaces the run in tests.
func NewCmdSimulateInbound(f *cmdutil.Factory, runF func(*SimulateInboundOptions) error) *cobra.Command {
	opts := &SimulateInboundOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "simulate-inbound --to <number> --persona <text>",
		Short: "Ring one of the team's numbers with a simulated caller",
		Long: `Ring one of the team's numbers with a simulated caller who follows --persona, on a server
whose carrier is the offline simulator (sim). Betty answers it as it answers real calls that
come in: with the inbound workflow of that number (a workflow of type inbound with the number,
or its campaign's; pairing an agent with the number sets one up), and the call leaves a call log, a transcript, a recording, an inbox item and
its charge. When nothing would answer the number, the server says why and nothing rings.
With --follow, the conversation is printed turn by turn until the call ends.`,
		Example: `  betty calls simulate-inbound --to +14155550177 --persona "A customer whose parcel is late" --follow
  betty calls simulate-inbound --to +14155550177 --from +14155550123 --persona "Wants opening hours" --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.To == "" || opts.Persona == "" {
				return cmdutil.FlagErrorf("give --to (one of the team's numbers) and --persona (who calls and why)")
			}
			if runF != nil {
				return runF(opts)
			}
			return runSimulateInbound(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.To, "to", "", "the team's number that is called, E.164")
	cmd.Flags().StringVar(&opts.From, "from", "", "the caller's number, E.164 (default +14155550100)")
	cmd.Flags().StringVar(&opts.Persona, "persona", "", "who calls and why: the simulated caller follows it")
	cmd.Flags().BoolVar(&opts.Follow, "follow", false, "print the conversation turn by turn until the call ends")
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSimulateInbound(ctx context.Context, opts *SimulateInboundOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	sc, err := c.SimulateInboundCall(ctx, team, opts.To, opts.From, opts.Persona)
	if err != nil {
		return err
	}
	if opts.Output.Format != "" {
		if err := opts.Output.Print(opts.IO, sc, nil); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "Ringing %s from %s (call %s).\n", sc.To, sc.From, sc.CallControlID)
	}
	if !opts.Follow {
		return nil
	}
	out := opts.IO.Out
	if opts.Output.Format != "" {
		out = opts.IO.ErrOut
	}
	return followCall(ctx, c, team, sc.CallControlID, func(turns []client.TranscriptEntry) { PrintTurns(out, turns) }, opts.IO)
}

// followCall reads a call (found by its carrier id among the team's latest calls) and its
// transcript until the call ends, giving each turn once to say.
func followCall(ctx context.Context, c *betty.Client, team, callControlID string, say func([]client.TranscriptEntry), s *cmdutil.IOStreams) error {
	var call *client.CallLog
	printed := 0
	appear := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	for {
		if call == nil {
			for cl, err := range c.CallLogs(ctx, team) {
				if err != nil {
					return err
				}
				if cl.CallControlId == callControlID {
					call = &cl
					fmt.Fprintf(s.ErrOut, "Call %s: %s\n", cl.Id, cl.Status)
				}
				break // the newest only: the call just rang
			}
			if call == nil && time.Now().After(appear) {
				return fmt.Errorf("call %s left no call log within 30 seconds: was it turned down? (see the server's log)", callControlID)
			}
		} else {
			cl, err := c.CallLog(ctx, team, call.Id)
			if err != nil {
				return err
			}
			if cl.Status != call.Status {
				fmt.Fprintf(s.ErrOut, "Call %s: %s\n", cl.Id, cl.Status)
			}
			call = &cl
		}
		if call != nil && (call.HasTranscript || call.EndTime == nil) {
			tr, err := c.CallTranscript(ctx, team, callControlID)
			if err != nil && !errors.Is(err, betty.ErrNotFound) {
				return err
			}
			if err == nil && len(tr.Entries) > printed {
				say(tr.Entries[printed:])
				printed = len(tr.Entries)
			}
		}
		if call != nil && call.EndTime != nil {
			fmt.Fprintf(s.ErrOut, "Call %s ended %s after %ds.\n", call.Id, call.Status, call.DurationSeconds)
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
