// Package numbers is `betty numbers`: a team's phone numbers — search the numbers on sale,
// buy one, list, release, and verify a number the team owns elsewhere for use as caller id.
package numbers

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdNumbers returns `betty numbers` and its verbs.
func NewCmdNumbers(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "numbers <command>",
		Short: "Search, buy, verify and release phone numbers",
		Long: `Manage the phone numbers of the current team (or the one given with --team): search the
numbers on sale, buy one, list the team's numbers, release one, or verify a number the team
already owns so agents can call from it.

A server without a Telnyx account sells fictional numbers free from its offline simulator
(they place no real calls) and writes verification codes to its log instead of calling.
Buying and releasing need the admin or owner role.`,
		Example: `  betty numbers search --area-code 415
  betty numbers buy +14155550123
  betty numbers list
  betty numbers verify +442079460123
  betty numbers release 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
		Aliases: []string{"number", "phone-numbers"},
	}
	cmd.AddCommand(NewCmdSearch(f, nil), NewCmdBuy(f, nil), NewCmdList(f, nil), NewCmdRelease(f, nil), NewCmdVerify(f, nil))
	return cmd
}

// The rules of the inputs of these commands, copied from the contract (numbers_test.go checks
// that they still agree).
var (
	// PhoneNumber is a number in E.164 form.
	PhoneNumber = cmdutil.Rule{Name: "phone number", Schema: "RequestPhoneNumberVerificationRequest.phoneNumber",
		Pattern: `^\+[1-9][0-9]{6,14}$`, Want: "an E.164 number: +, the country code and the number, such as +14155550123"}
	// AreaCode is the area code a search narrows to.
	AreaCode = cmdutil.Rule{Name: "area code", Schema: "searchAvailablePhoneNumbers?areaCode",
		Pattern: `^[0-9]{2,5}$`, Want: "2 to 5 digits, such as 415 (or 20 for London)"}
	// Code is a verification code.
	Code = cmdutil.Rule{Name: "code", Schema: "VerifyPhoneNumberRequest.code",
		Pattern: `^[0-9]{4,10}$`, Want: "the digits the number was called or texted"}
)

// The enumerations people type, in the contract's order.
var (
	Countries = []client.CountryCode{client.US, client.CA, client.GB}
	Types     = []client.PhoneNumberType{client.Local, client.TollFree}
	Methods   = []client.PhoneVerificationMethod{client.Call, client.Sms}
)

// kind says what a number is, for tables.
func kind(n client.PhoneNumber) string {
	if n.IsNonTelnyxNumber {
		return "own (caller id)"
	}
	return cmdutil.Str(n.Type)
}

// numberRows shows one number, a label and a value per row.
func numberRows(t *cmdutil.Table, n client.PhoneNumber) {
	t.Row("ID", n.Id)
	t.Row("NUMBER", n.PhoneNumber)
	t.Row("STATUS", string(n.Status))
	t.Row("KIND", kind(n))
	t.Row("COUNTRY", string(n.CountryCode))
	t.Row("AREA CODE", cmdutil.Str(n.AreaCode))
	t.Row("MONTHLY", price(n.MonthlyPrice))
	t.Row("AGENT", cmdutil.Str(n.AgentId))
	t.Row("CAMPAIGN", cmdutil.Str(n.CampaignId))
	t.Row("CREATED", cmdutil.Time(&n.CreatedAt))
}

// price is a price in US dollars, empty when there is none.
func price(p *float64) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("$%.2f", *p)
}
