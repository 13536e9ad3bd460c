package apps

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// ConnectOptions are the inputs of `betty apps connect hubspot`.
type ConnectOptions struct {
	Options
	// Reconnect is the id of a HubSpot connected app to authorise again ("" to connect).
	Reconnect string
	Wait      bool
	Interval  time.Duration
	Timeout   time.Duration
	Output    cmdutil.Output
}

// NewCmdConnect returns `betty apps connect hubspot`; runF replaces the run in tests.
func NewCmdConnect(f *cmdutil.Factory, runF func(*ConnectOptions) error) *cobra.Command {
	opts := &ConnectOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "connect hubspot",
		Short: "Connect a HubSpot portal",
		Long: `Start connecting a HubSpot portal to the team: prints the HubSpot page to open in a
browser, where a HubSpot user approves Betty (the link works once, for 10 minutes). HubSpot
then sends the browser back to Betty's dashboard, where you (the user running this command,
signed in to the dashboard in that browser) finish the connection: the link is yours only.

With --wait the command waits until the connection shows in the team's connected apps and
prints it. --reconnect ID authorises an existing HubSpot connection again (one disconnected,
or whose access HubSpot revoked). Needs a signed-in owner, admin or developer (API keys are
refused: a person approves).`,
		Example: `  betty apps connect hubspot
  betty apps connect hubspot --wait
  betty apps connect hubspot --reconnect 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --wait`,
		Args:      cmdutil.ExactArgs(1, "name the app to connect: hubspot"),
		ValidArgs: []string{"hubspot"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "hubspot" {
				return cmdutil.FlagErrorf("%q cannot be connected here: the app is hubspot (Zapier connects from Zapier)", args[0])
			}
			if opts.Interval <= 0 || opts.Timeout <= 0 {
				return cmdutil.FlagErrorf("--interval and --timeout must be positive")
			}
			if runF != nil {
				return runF(opts)
			}
			return runConnect(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVar(&opts.Reconnect, "reconnect", "", "The `id` of a HubSpot connected app to authorise again")
	cmd.Flags().BoolVar(&opts.Wait, "wait", false, "Wait until the connection shows in the team's connected apps")
	cmd.Flags().DurationVar(&opts.Interval, "interval", 2*time.Second, "How often --wait looks")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "How long --wait waits (the link expires after 10 minutes)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runConnect(ctx context.Context, opts *ConnectOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	// What the team has now: --wait looks for a connection made or renewed after this.
	before := map[string]string{}
	if opts.Wait {
		list, err := c.ConnectedApps(ctx, team)
		if err != nil {
			return err
		}
		for _, a := range list {
			before[a.Id] = cmdutil.Str(a.ConnectionId)
		}
	}
	connect := func() (client.AppAuthorization, error) { return c.ConnectHubSpot(ctx, team) }
	if opts.Reconnect != "" {
		connect = func() (client.AppAuthorization, error) { return c.ReconnectHubSpot(ctx, team, opts.Reconnect) }
	}
	auth, err := connect()
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Open this page in a browser and approve Betty in HubSpot (the link expires %s):\n", cmdutil.Time(&auth.ExpiresAt))
	fmt.Fprintln(opts.IO.Out, auth.AuthorizationUrl)
	if !opts.Wait {
		return nil
	}
	fmt.Fprintln(opts.IO.ErrOut, "Waiting for the connection…")
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	tick := time.NewTicker(opts.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("no new HubSpot connection within %s: approve Betty on the page above, then run betty apps list", opts.Timeout)
		case <-tick.C:
		}
		list, err := c.ConnectedApps(ctx, team)
		if err != nil {
			return err
		}
		for _, a := range list {
			conn, seen := before[a.Id]
			if a.IntegrationId != "hubspot" || a.Status != "connected" || seen && conn == cmdutil.Str(a.ConnectionId) {
				continue
			}
			fmt.Fprintf(opts.IO.ErrOut, "Connected %s (HubSpot portal %s).\n", a.Name, cmdutil.Str(a.AccountId))
			if opts.Output.Format != "" {
				return opts.Output.Print(opts.IO, a, nil)
			}
			_, err := fmt.Fprintln(opts.IO.Out, a.Id)
			return err
		}
	}
}
