package campaigns

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// CreateOptions are the inputs of `betty campaigns create`.
type CreateOptions struct {
	cmdutil.TeamOptions
	Name     string
	Fields   fields
	Settings settings
	Output   cmdutil.Output
}

// NewCmdCreate returns `betty campaigns create`; runF replaces the run in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "create [<name>]",
		Short: "Create a campaign",
		Long: `Create a campaign for a team. Flags not given take the server's defaults: "Untitled
campaign", outbound, draft, medium priority, purpose Other, no phone number, and the default
call settings: calls from 09:00 to 17:00 Monday to Friday in each contact's time zone (UTC
when the number tells none), at most 5 at a time, 2 retries 60 minutes apart, hang up on
voicemail, calls recorded. A new campaign cannot be active: it has no workflow yet. Any
member but read-only may do this.

` + settingsHelp + `

Purposes: ` + purposesHelp(),
		Example: `  betty campaigns create "Spring renewals"
  betty campaigns create "Support line" --type inbound --phone-number 0192f1a4-8d2e-7c61-8b72-4a1f3e8d0c21
  betty campaigns create "Leads" --priority high --purpose "Lead qualification" --json
  betty campaigns create "Renewals" --call-window 09:30-18:00 --days mon-sat --timezone America/New_York
  betty campaigns create "Reminders" --retries 1 --retry-delay 2h --voicemail-message "Hi {{firstName}}, please call us back." --no-record`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Name = args[0]
				if err := Name.Check(opts.Name); err != nil {
					return err
				}
			}
			if opts.Fields.Status == client.CampaignSettableStatusActive {
				return cmdutil.FlagErrorf("a new campaign cannot be active: it has no workflow yet")
			}
			if err := opts.Settings.check(cmd.Flags()); err != nil {
				return err
			}
			if _, err := opts.Settings.input(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runCreate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	addFieldFlags(cmd, &opts.Fields)
	addSettingFlags(cmd, &opts.Settings)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	settings, err := opts.Settings.input()
	if err != nil {
		return err
	}
	v := opts.Fields
	if v.PhoneNumber != "" {
		if v.PhoneNumber, err = cmdutil.PhoneNumberID(ctx, c, team, v.PhoneNumber); err != nil {
			return err
		}
	}
	cp, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: opt(opts.Name), Type: opt(v.Type),
		Status: opt(v.Status), Priority: opt(v.Priority), Purpose: opt(v.Purpose), PhoneNumberId: opt(v.PhoneNumber),
		Settings: settings})
	if err != nil {
		return err
	}
	return printCampaign(opts.IO, opts.Output, cp, "Created")
}
