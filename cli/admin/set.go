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

// SetOptions are the inputs of a verb that sets one property of an organisation
// (`betty admin orgs level`, `betty admin orgs tier`).
type SetOptions[T ~string] struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Value  T
	Output cmdutil.Output
}

// orgSetting describes such a property: the command's words, the values it takes, the call
// that sets it and where the organisation shows it.
type orgSetting[T ~string] struct {
	cmd     cobra.Command // Use, Short, Long and Example
	noun    string        // "level", in usage messages
	label   string        // "verification level", in the confirmation
	values  []T
	set     func(ctx context.Context, api *client.Client, id string, value T) (*http.Response, error)
	current func(org client.Organization) T
}

// newCmdSet builds the command of s; runF replaces the run in tests.
func newCmdSet[T ~string](f *cmdutil.Factory, runF func(*SetOptions[T]) error, s orgSetting[T]) *cobra.Command {
	opts := &SetOptions[T]{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:               s.cmd.Use,
		Short:             s.cmd.Short,
		Long:              s.cmd.Long,
		Example:           s.cmd.Example,
		Args:              cmdutil.ExactArgs(2, fmt.Sprintf("give the organisation's id and the %s (%s)", s.noun, cmdutil.OneOf(s.values...))),
		ValidArgsFunction: cmdutil.CompleteArg(1, s.values...),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			var err error
			if opts.Value, err = cmdutil.Enum(s.noun, args[1], s.values...); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runSet(cmd.Context(), opts, s)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSet[T ~string](ctx context.Context, opts *SetOptions[T], s orgSetting[T]) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := betty.Do[client.AdminOrganization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return s.set(ctx, api, opts.ID, opts.Value)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Set the %s of %s to %s.\n", s.label, org.Organization.Name, s.current(org.Organization))
	return printOrg(opts.IO, opts.Output, org)
}
