package contacts

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

// HubSpotOptions are the inputs of `betty contacts hubspot`.
type HubSpotOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team     string
	Workflow string
	App      string
	List     string
	Node     string
	Wait     bool
	Timeout  time.Duration
	Poll     time.Duration
}

// NewCmdHubSpot returns `betty contacts hubspot`; runF replaces the run in tests.
func NewCmdHubSpot(f *cmdutil.Factory, runF func(*HubSpotOptions) error) *cobra.Command {
	opts := &HubSpotOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID, Poll: time.Second}
	cmd := &cobra.Command{
		Use:   "hubspot <workflow id> --app <connected app id> [--list <list id>]",
		Short: "Take a workflow's contacts from HubSpot",
		Long: `Make a connected HubSpot portal (see betty apps list) the contacts source of the workflow's
Contacts node (--node when it has several), replacing the previous contacts. With --list the
node calls the members of that HubSpot list (the number at the end of the list's address in
HubSpot): the server reads it in the background and keeps the node in step with it; --wait
waits for the first read and says how it ended. Without --list the node calls the contacts
picked for it on the workflow canvas (Contacts node, Search HubSpot).`,
		Example: `  betty contacts hubspot 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --app 0192f1a4-8d2e-7c11-b3a0-5e6f7a8b9c0d --list 42 --wait`,
		Args:    cmdutil.ExactArgs(1, "give the workflow's id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Workflow = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runHubSpot(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.ID.Var(cmd.Flags(), &opts.App, "app", "The connected HubSpot app's `id` (betty apps list)")
	_ = cmd.MarkFlagRequired("app")
	cmd.Flags().StringVar(&opts.List, "list", "", "The HubSpot list `id` whose members are called")
	cmdutil.ID.Var(cmd.Flags(), &opts.Node, "node", "The Contacts node `id` (the workflow's only one by default)")
	cmd.Flags().BoolVarP(&opts.Wait, "wait", "w", false, "With --list, wait until the list is read, and say how it ended")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "How long --wait waits at most")
	return cmd
}

func runHubSpot(ctx context.Context, opts *HubSpotOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, node, err := contactsNode(ctx, c, opts.Workflow, opts.Node)
	if err != nil {
		return err
	}
	if _, err := c.SetContactsHubSpot(ctx, team, w.Id, node, opts.App, opts.List); err != nil {
		return err
	}
	switch {
	case opts.List == "":
		fmt.Fprintf(opts.IO.ErrOut, "%q now calls the HubSpot contacts picked for it: pick them on the workflow canvas (Contacts node, Search HubSpot).\n", w.Name)
		return nil
	case !opts.Wait:
		fmt.Fprintf(opts.IO.ErrOut, "The server is reading HubSpot list %s into %q (betty contacts list %s shows how it stands).\n", opts.List, w.Name, w.Id)
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	p, err := c.WaitForHubSpotList(wctx, team, opts.App, betty.HubSpotNode{WorkflowID: w.Id, NodeID: node}, opts.Poll)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("HubSpot list %s is still being read after %s; see betty contacts list %s", opts.List, opts.Timeout, w.Id)
	}
	if err != nil {
		return err
	}
	if p.Source != nil && p.Source.Status == client.ContactsImportStatusError {
		return fmt.Errorf("HubSpot list %s could not be read: %s", opts.List, cmdutil.Str(p.Source.Error))
	}
	failed, err := failedContacts(ctx, c, w.Id, node)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Read HubSpot list %s into %q: %d to call, %d without a number to call.\n", opts.List, w.Name, p.Meta.TotalSize-failed, failed)
	return nil
}
