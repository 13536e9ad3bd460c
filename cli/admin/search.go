package admin

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// SearchOptions are the inputs of `betty admin orgs search`.
type SearchOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Email  string
	Limit  int
	Output cmdutil.Output
}

// NewCmdSearch returns `betty admin orgs search`; runF replaces the run in tests.
func NewCmdSearch(f *cmdutil.Factory, runF func(*SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "search",
		Short: "Find users and their organisations",
		Long: `List users with the organisations each belongs to, ordered by e-mail; --email keeps
the users whose address contains the text. The table has a row per membership; a user in no
organisation has one row with empty organisation columns.`,
		Example: `  betty admin orgs search --email @acme.com
  betty admin orgs search --limit 0 --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runSearch(cmd.Context(), opts)
		},
	}
	cmdutil.EmailSearch.Var(cmd.Flags(), &opts.Email, "email", "Keep users whose e-mail address contains this `text`")
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSearch(ctx context.Context, opts *SearchOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var email *string
	if opts.Email != "" {
		email = &opts.Email
	}
	users, err := cmdutil.Collect(betty.All[client.UserOrganizations](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.SearchAdminUsersOrganizations(ctx, &client.SearchAdminUsersOrganizationsParams{Page: &page, SearchEmail: email})
	}), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, users, func(t *cmdutil.Table) {
		t.Header("EMAIL", "USER ID", "ORG ID", "ORG NAME", "ROLE", "STATUS", "TIER", "VERIFICATION")
		for _, u := range users {
			if len(u.Organizations) == 0 {
				t.Row(string(u.User.Email), u.User.Id, "", "", "", "", "", "")
			}
			for _, o := range u.Organizations {
				t.Row(string(u.User.Email), u.User.Id, o.OrganizationId, o.Name, string(o.Role), string(o.Status), string(o.SubscriptionTier), string(o.VerificationLevel))
			}
		}
	})
}
