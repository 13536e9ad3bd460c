package teams

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// CreateOptions are the inputs of `betty teams create`.
type CreateOptions struct {
	IO      *cmdutil.IOStreams
	Client  func() (*betty.Client, error)
	Profile func() (*config.Config, *config.Profile, error)

	Request client.CreateTeamRequest
	Switch  bool
	Output  cmdutil.Output
}

// NewCmdCreate returns `betty teams create`; runF replaces the run in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{IO: f.IO, Client: f.Client, Profile: f.Profile}
	var company, platform, purpose, industry string
	cmd := &cobra.Command{
		Use:   "create <name>",
		Short: "Create a team",
		Long: `Create a team that you own, on the free tier. It becomes the current team when the
profile has none, or with --switch.`,
		Example: `  betty teams create "Acme support"
  betty teams create "Acme support" --company "Acme Inc." --platform shopify --switch`,
		Args: cmdutil.ExactArgs(1, "give the team's name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Request.Name = args[0]
			if err := cmdutil.TeamName.Check(args[0]); err != nil {
				return err
			}
			flags := cmd.Flags()
			opts.Request.CompanyName = changed(flags, "company", company)
			opts.Request.PlatformKey = changed(flags, "platform", platform)
			opts.Request.Purpose = changed(flags, "purpose", purpose)
			opts.Request.Industry = changed(flags, "industry", industry)
			if runF != nil {
				return runF(opts)
			}
			return runCreate(cmd.Context(), opts)
		},
	}
	addPropertyFlags(cmd, cmdutil.PlatformKey, &company, &platform, &purpose, &industry)
	cmd.Flags().BoolVar(&opts.Switch, "switch", false, "Make the new team the current team")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := betty.Do[client.Organization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateTeam(ctx, opts.Request)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Created team %s (%s).\n", org.Name, org.Id)
	cfg, p, err := opts.Profile()
	if err != nil {
		return err
	}
	if opts.Switch || p.Team == "" {
		p.Team = org.Id
		if err := cfg.Save(); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "It is now the current team.\n")
	}
	return printTeam(opts.IO, opts.Output, org)
}
