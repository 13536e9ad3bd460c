// Package contacts is `betty contacts`: who an outbound workflow calls — importing a CSV file
// into its Contacts node, and listing the contacts with their call status.
package contacts

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdContacts returns `betty contacts` and its verbs.
func NewCmdContacts(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "contacts <command>",
		Short: "Contacts: who an outbound workflow calls",
		Long: `Manage the contacts of an outbound workflow's Contacts node. A CSV file (a header row,
then one contact per row: phone, firstName, lastName, email, lifecycleStage and any other
columns) is uploaded and imported by the server: numbers become E.164, a number already on an
earlier row is called once, and rows that cannot be called are kept, failed, with the reason.
A connected HubSpot portal can be the source instead: a HubSpot list, kept in step, or the
contacts picked on the canvas.`,
		Example: `  betty contacts import 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 customers.csv --wait
  betty contacts hubspot 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --app 0192f1a4-8d2e-7c11-b3a0-5e6f7a8b9c0d --list 42 --wait
  betty contacts list 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --failed
  betty contacts rejected 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 -o rejected.csv`,
	}
	cmd.AddCommand(NewCmdImport(f, nil), NewCmdHubSpot(f, nil), NewCmdList(f, nil), NewCmdRejected(f, nil))
	return cmd
}

// contactsNode finds the workflow and its Contacts node (the one named, else its only one).
func contactsNode(ctx context.Context, c *betty.Client, workflowID, nodeID string) (client.Workflow, string, error) {
	w, err := c.Workflow(ctx, workflowID)
	if err != nil {
		return w, "", err
	}
	if nodeID != "" {
		return w, nodeID, nil
	}
	node := betty.ContactsNode(w)
	if node == "" {
		return w, "", fmt.Errorf("workflow %q has no Contacts node: add one on the canvas (or import a graph with one) first", w.Name)
	}
	return w, node, nil
}

// failedContacts counts a node's contacts that cannot be called (failed, with the reason).
func failedContacts(ctx context.Context, c *betty.Client, workflowID, nodeID string) (int, error) {
	failed := 0
	for ct, err := range c.Contacts(ctx, workflowID, nodeID) {
		if err != nil {
			return 0, err
		}
		if ct.BettyMetadata.Status == client.ContactCallStatusFailed {
			failed++
		}
	}
	return failed, nil
}
