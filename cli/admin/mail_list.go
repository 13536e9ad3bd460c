package admin

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// MailListOptions are the inputs of `betty admin mail list`.
type MailListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Recipient string
	Page      int
	Limit     int
	Output    cmdutil.Output
}

// NewCmdMailList returns `betty admin mail list`; runF replaces the run in tests.
func NewCmdMailList(f *cmdutil.Factory, runF func(*MailListOptions) error) *cobra.Command {
	opts := &MailListOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the e-mail the server wrote",
		Long: `List the e-mail the server wrote (confirmations, invitations, ownership transfers,
password resets, verification notices), newest first, a page at a time, with the link each
one carries and what became of it: queued, sent (the SMTP relay took it), failed (retried;
--json has the error) or kept. Without SMTP (--smtp-url) every message is kept: nothing
leaves the server, and this list (or the server's log) is where its links are.`,
		Example: `  betty admin mail list
  betty admin mail list --recipient ada@example.com
  betty admin mail list --page 2 --limit 50 --json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runMailList(cmd.Context(), opts)
		},
	}
	cmdutil.OutboxReceiver.Var(cmd.Flags(), &opts.Recipient, "recipient", "Only the messages to this e-mail `address`")
	cmdutil.IntVarP(cmd.Flags(), &opts.Page, "page", "", 1, 1, 0, "The `page` to show, from 1")
	cmdutil.IntVarP(cmd.Flags(), &opts.Limit, "limit", "L", 20, 1, 100, "Messages a page, up to 100")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runMailList(ctx context.Context, opts *MailListOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	params := &client.ListAdminMailParams{Page: &opts.Page, SizePerPage: &opts.Limit}
	if opts.Recipient != "" {
		params.Recipient = (*client.Email)(&opts.Recipient)
	}
	page, err := betty.DoPage[client.OutboxMessage](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListAdminMail(ctx, params)
	})
	if err != nil {
		return err
	}
	if m := page.Meta; m.TotalPages > 1 {
		fmt.Fprintf(opts.IO.ErrOut, "Page %d of %d (%d messages).\n", m.Page, m.TotalPages, m.TotalSize)
	}
	return opts.Output.Print(opts.IO, page.Items, func(t *cmdutil.Table) {
		t.Header("CREATED", "TO", "KIND", "STATUS", "LINK")
		for _, m := range page.Items {
			t.Row(cmdutil.Time(&m.CreatedAt), string(m.Recipient), string(m.Kind), string(m.Status), cmdutil.Str(m.Link))
		}
	})
}
