// Package campaigns is `betty campaigns`: a team's calling campaigns — list, view, create,
// edit, duplicate and delete them.
package campaigns

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdCampaigns returns `betty campaigns` and its verbs.
func NewCmdCampaigns(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "campaigns <command>",
		Short: "List, create, edit and delete calling campaigns",
		Long: `Manage the campaigns of the current team (or the one given with --team). An inbound
campaign answers the calls of its phone number; an outbound one calls the contacts of its
workflow. A new campaign is a draft: it becomes active once it has an active workflow and a
phone number.`,
		Example: `  betty campaigns list --status active --name acme
  betty campaigns create "Spring renewals" --type outbound --priority high
  betty campaigns edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --phone-number 0192f1a4-8d2e-7c61-8b72-4a1f3e8d0c21
  betty campaigns edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --call-window 09:00-18:00 --timezone America/New_York
  betty campaigns view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		Aliases: []string{"campaign"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdCreate(f, nil), NewCmdEdit(f, nil),
		NewCmdDuplicate(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// The rules of what these commands send, copied from the contract (campaigns_test.go checks
// that they still agree).
var (
	Name       = cmdutil.Rule{Name: "campaign name", Schema: "CreateCampaignRequest.name", Min: 1, Max: 100}
	NameFilter = cmdutil.Rule{Name: "name filter", Schema: "listCampaigns?name", Min: 1, Max: 100}
)

// The enumerations people type, in the contract's order.
var (
	Types      = []client.CallDirection{client.CallDirectionInbound, client.CallDirectionOutbound}
	Statuses   = []client.CampaignSettableStatus{client.CampaignSettableStatusActive, client.CampaignSettableStatusPaused, client.CampaignSettableStatusCompleted, client.CampaignSettableStatusDraft}
	Filters    = []client.CampaignStatusFilter{client.CampaignStatusFilterActive, client.CampaignStatusFilterPaused, client.CampaignStatusFilterCompleted, client.CampaignStatusFilterDraft, client.CampaignStatusFilterError, client.CampaignStatusFilterAll}
	Priorities = []client.CampaignPriority{client.Urgent, client.High, client.Medium, client.Low}
	Purposes   = []client.CampaignPurpose{client.CampaignPurposeBookingConfirmation, client.CampaignPurposeVerificationOfCustomers,
		client.CampaignPurposeFeedbackCollection, client.CampaignPurposeReminders, client.CampaignPurposeServiceCalls,
		client.CampaignPurposeOrderUpdates, client.CampaignPurposeApplicantInterviews, client.CampaignPurposeLeadQualification,
		client.CampaignPurposeScheduleAppointments, client.CampaignPurposeOther}
)

// fields are the flags create and edit share.
type fields struct {
	Type        client.CallDirection
	Status      client.CampaignSettableStatus
	Priority    client.CampaignPriority
	Purpose     client.CampaignPurpose
	PhoneNumber string
}

func addFieldFlags(cmd *cobra.Command, v *fields) {
	fs := cmd.Flags()
	cmdutil.EnumVar(fs, &v.Type, "type", "The direction of its calls: "+cmdutil.OneOf(Types...), Types...)
	cmdutil.EnumVar(fs, &v.Status, "status", "Its status: "+cmdutil.OneOf(Statuses...), Statuses...)
	cmdutil.EnumVar(fs, &v.Priority, "priority", "Its priority: "+cmdutil.OneOf(Priorities...), Priorities...)
	cmdutil.EnumVar(fs, &v.Purpose, "purpose", "What it is for, such as \"Lead qualification\" (see --help)", Purposes...)
	fs.StringVar(&v.PhoneNumber, "phone-number", "", "The team's phone `number` to assign: its id or E.164 form (see `betty numbers list`)")
}

// purposesHelp lists the purposes for a command's long help, wrapped like the rest of it.
func purposesHelp() string {
	var b strings.Builder
	line := len("Purposes: ")
	for i, p := range Purposes {
		word := strconv.Quote(string(p))
		if i < len(Purposes)-1 {
			word += ","
		} else {
			word += "."
		}
		if i > 0 {
			if line+1+len(word) > 92 {
				b.WriteString("\n")
				line = 0
			} else {
				b.WriteString(" ")
				line++
			}
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}

func opt[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// campaignRows shows one campaign, a label and a value per row.
func campaignRows(t *cmdutil.Table, c client.Campaign) {
	t.Row("ID", c.Id)
	t.Row("NAME", c.Name)
	t.Row("TYPE", string(c.Type))
	t.Row("STATUS", string(c.Status))
	t.Row("PRIORITY", string(c.Priority))
	t.Row("PURPOSE", string(c.Purpose))
	t.Row("PHONE NUMBER", cmdutil.Str(c.PhoneNumber))
	t.Row("WORKFLOW", cmdutil.Str(c.WorkflowId))
	t.Row("WORKFLOWS", strconv.Itoa(len(c.Workflows)))
	for _, a := range c.Agents {
		t.Row("AGENT", fmt.Sprintf("%s (%s, %s)", a.Name, a.Id, a.Status))
	}
	s := c.Settings
	t.Row("CALL WINDOW", fmt.Sprintf("%s-%s %s %s", s.CallWindow.Start, s.CallWindow.End, days(s.CallWindow.Days), s.Timezone))
	t.Row("MAX CONCURRENT", strconv.Itoa(s.MaxConcurrentCalls))
	t.Row("RETRIES", fmt.Sprintf("%d, %d minutes apart", s.RetryAttempts, s.RetryDelayMinutes))
	voicemail := string(s.VoicemailAction)
	if s.VoicemailMessage != nil {
		voicemail += ": " + *s.VoicemailMessage
	}
	t.Row("VOICEMAIL", voicemail)
	t.Row("RECORD CALLS", strconv.FormatBool(s.RecordCalls))
	t.Row("NUMBER TYPES", "landline, mobile, "+numberTypes(s.AllowedNumberTypes))
	t.Row("LONGEST CALL", fmt.Sprintf("%d minutes", s.MaxCallDurationMinutes))
	t.Row("CREATED", cmdutil.Time(&c.CreatedAt))
	t.Row("UPDATED", cmdutil.Time(&c.UpdatedAt))
}

// printCampaign says what was done on stderr, then prints the campaign's id, or the campaign
// in the format asked.
func printCampaign(io *cmdutil.IOStreams, o cmdutil.Output, c client.Campaign, done string) error {
	fmt.Fprintf(io.ErrOut, "%s campaign %q (%s), %s.\n", done, c.Name, c.Id, c.Status)
	if o.Format != "" {
		return o.Print(io, c, nil)
	}
	_, err := fmt.Fprintln(io.Out, c.Id)
	return err
}

// days is a call window's weekdays, "mon,tue,…".
func days(ds []client.CampaignWeekday) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = string(d)
	}
	return strings.Join(s, ",")
}
