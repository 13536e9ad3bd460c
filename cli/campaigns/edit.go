package campaigns

import (
	"context"
	"strings"

	"github.com/oapi-codegen/nullable"
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// EditOptions are the inputs of `betty campaigns edit`.
type EditOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID            string
	Name          string
	Fields        fields
	Settings      settings
	NoPhoneNumber bool
	Output        cmdutil.Output
}

// NewCmdEdit returns `betty campaigns edit`; runF replaces the run in tests.
func NewCmdEdit(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "edit <id>",
		Short: "Change a campaign",
		Long: `Change the name, direction, status, priority, purpose, phone number or call settings of a
campaign; what is not given stays as it is. A change of call settings reads the campaign's
settings first and sends them back whole with the flags given put in: the others are kept.

A campaign becomes active only with an active workflow and a phone number; its direction
cannot change once it has workflows. A phone number answers one inbound campaign at a time:
assigning one that another inbound campaign answers is refused. --no-phone-number removes the
number (and pauses an active campaign). Any member but read-only may do this.

` + settingsHelp + `

--voicemail-message alone switches a campaign that hangs up on voicemail to leaving the
message; --voicemail hang-up drops the message.

Purposes: ` + purposesHelp(),
		Example: `  betty campaigns edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --name "Summer renewals" --priority urgent
  betty campaigns edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --phone-number 0192f1a4-8d2e-7c61-8b72-4a1f3e8d0c21
  betty campaigns edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --status paused
  betty campaigns edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --retries 3 --retry-delay 30
  betty campaigns edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --call-window 10:00-16:00 --days mon,wed,fri --timezone Europe/Paris`,
		Args: cmdutil.ExactArgs(1, "give the id of the campaign to change (see `betty campaigns list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if opts.NoPhoneNumber && opts.Fields.PhoneNumber != "" {
				return cmdutil.FlagErrorf("give --phone-number or --no-phone-number, not both")
			}
			if err := opts.Settings.check(cmd.Flags()); err != nil {
				return err
			}
			if opts.Name == "" && opts.Fields == (fields{}) && !opts.NoPhoneNumber && !opts.Settings.given() {
				return cmdutil.FlagErrorf("nothing to change: give --name, --type, --status, --priority, --purpose, --phone-number, --no-phone-number or a call setting such as --retries (see --help)")
			}
			if runF != nil {
				return runF(opts)
			}
			return runEdit(cmd.Context(), opts)
		},
	}
	Name.Var(cmd.Flags(), &opts.Name, "name", "The new `name`")
	addFieldFlags(cmd, &opts.Fields)
	addSettingFlags(cmd, &opts.Settings)
	cmd.Flags().BoolVar(&opts.NoPhoneNumber, "no-phone-number", false, "Remove the campaign's phone number")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runEdit(ctx context.Context, opts *EditOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	v := opts.Fields
	req := client.UpdateCampaignRequest{Name: opt(opts.Name), Type: opt(v.Type), Status: opt(v.Status), Priority: opt(v.Priority), Purpose: opt(v.Purpose)}
	switch {
	case opts.NoPhoneNumber:
		req.PhoneNumberId = nullable.NewNullNullable[string]()
	case v.PhoneNumber != "":
		id := v.PhoneNumber
		if strings.HasPrefix(strings.TrimSpace(id), "+") {
			// A number in E.164 is looked up among the numbers of the campaign's team.
			cur, err := c.Campaign(ctx, opts.ID)
			if err != nil {
				return err
			}
			if id, err = cmdutil.PhoneNumberID(ctx, c, cur.OrganizationId, id); err != nil {
				return err
			}
		}
		req.PhoneNumberId = nullable.NewNullableWithValue(id)
	}
	if opts.Settings.given() {
		// The settings sent replace the stored ones: send them all, changed by the flags.
		cur, err := c.Campaign(ctx, opts.ID)
		if err != nil {
			return err
		}
		if req.Settings, err = opts.Settings.merge(cur.Settings); err != nil {
			return err
		}
	}
	cp, err := c.UpdateCampaign(ctx, opts.ID, req)
	if err != nil {
		return err
	}
	return printCampaign(opts.IO, opts.Output, cp, "Updated")
}
