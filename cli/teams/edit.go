package teams

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// EditOptions are the inputs of `betty teams edit`.
type EditOptions struct {
	cmdutil.TeamOptions
	Request client.UpdateTeamPropertiesRequest
	Output  cmdutil.Output
}

// NewCmdEdit returns `betty teams edit`; runF replaces the run in tests.
func NewCmdEdit(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	var name, company, platform, purpose, industry string
	cmd := &cobra.Command{
		Use:   "edit [<id>]",
		Short: "Change a team's properties",
		Long: `Change the properties given as flags of the current team, or of the one whose id is
given; the others keep their value. An empty value clears an optional property. Only an admin
or the owner may do this.`,
		Example: `  betty teams edit --name "Acme care"
  betty teams edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --industry Retail --purpose ""`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.Team = args[0]
				if err := cmdutil.ID.Check(opts.Team); err != nil {
					return err
				}
			}
			flags := cmd.Flags()
			opts.Request.Name = changed(flags, "name", name)
			opts.Request.CompanyName = changed(flags, "company", company)
			opts.Request.PlatformKey = changed(flags, "platform", platform)
			opts.Request.Purpose = changed(flags, "purpose", purpose)
			opts.Request.Industry = changed(flags, "industry", industry)
			if !flags.Changed("name") && !flags.Changed("company") && !flags.Changed("platform") &&
				!flags.Changed("purpose") && !flags.Changed("industry") {
				return cmdutil.FlagErrorf("give at least one property to change")
			}
			if runF != nil {
				return runF(opts)
			}
			return runEdit(cmd.Context(), opts)
		},
	}
	cmdutil.TeamName.Var(cmd.Flags(), &name, "name", "The team's name")
	addPropertyFlags(cmd, cmdutil.PlatformKeyOrEmpty, &company, &platform, &purpose, &industry)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runEdit(ctx context.Context, opts *EditOptions) error {
	id, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	opts.Request.Id = id
	org, err := betty.Do[client.Organization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateTeamProperties(ctx, opts.Request)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Updated team %s (%s).\n", org.Name, org.Id)
	return printTeam(opts.IO, opts.Output, org)
}

// addPropertyFlags adds the flags of a team's optional properties, shared by create and edit:
// platform is the rule of the platform key, which edit may clear.
func addPropertyFlags(cmd *cobra.Command, platformRule cmdutil.Rule, company, platform, purpose, industry *string) {
	fs := cmd.Flags()
	cmdutil.CompanyName.Var(fs, company, "company", "The company's legal or trading name")
	platformRule.Var(fs, platform, "platform", "The `key` of the platform the business runs on (shopify, web, hubspot…)")
	cmdutil.Purpose.Var(fs, purpose, "purpose", "What the team uses voice agents for")
	cmdutil.Industry.Var(fs, industry, "industry", "The team's industry")
}

// changed is the flag's value when it was given, nil when it was not: an empty value is sent,
// an absent one is not.
func changed(flags *pflag.FlagSet, name, value string) *string {
	if !flags.Changed(name) {
		return nil
	}
	return &value
}
