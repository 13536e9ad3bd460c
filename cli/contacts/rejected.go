package contacts

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// RejectedOptions are the inputs of `betty contacts rejected`.
type RejectedOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Workflow string
	Node     string
	Out      string
}

// NewCmdRejected returns `betty contacts rejected`; runF replaces the run in tests.
func NewCmdRejected(f *cmdutil.Factory, runF func(*RejectedOptions) error) *cobra.Command {
	opts := &RejectedOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "rejected <workflow id>",
		Short: "Download the rows a CSV import rejected",
		Long: `Download, as a CSV file, the rows of a Contacts node's CSV file that the import rejected
(a missing, invalid or duplicate number): the file's own header and rows, in file order,
with a last column saying why. Fix them and import them again. The workflow's only
Contacts node is used unless --node names one (node ids are unique only within a workflow).`,
		Example: `  betty contacts rejected 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 > rejected.csv
  betty contacts rejected 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --node contacts-1 -o rejected.csv`,
		Args: cmdutil.ExactArgs(1, "give the workflow's id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Workflow = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runRejected(cmd.Context(), opts)
		},
	}
	cmdutil.ID.Var(cmd.Flags(), &opts.Node, "node", "The Contacts node `id` (the workflow's only one by default)")
	cmdutil.AddOutFileFlag(cmd, &opts.Out, "Write the CSV to this `file` (default: stdout)")
	return cmd
}

func runRejected(ctx context.Context, opts *RejectedOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	node := opts.Node
	if node == "" {
		if _, node, err = contactsNode(ctx, c, opts.Workflow, ""); err != nil {
			return err
		}
	}
	data, _, err := c.RejectedContacts(ctx, opts.Workflow, node)
	if err != nil {
		return err
	}
	if opts.Out == "" {
		_, err = opts.IO.Out.Write(data)
		return err
	}
	if err := os.WriteFile(opts.Out, data, 0o600); err != nil {
		return err
	}
	rows, _ := csv.NewReader(bytes.NewReader(data)).ReadAll()
	fmt.Fprintf(opts.IO.ErrOut, "Wrote %s (%d rejected rows).\n", opts.Out, max(len(rows)-1, 0))
	return nil
}
