// Command campaign is a whole outbound campaign written with Betty's Go SDK, from an empty
// team to each contact's outcome: it creates a campaign, a workflow copied from a template with
// an agent and a phone number, imports contacts from a CSV file, runs the workflow, waits for
// the run with its progress, and prints what each call came to.
//
// Run it against any Betty server, a fresh `betty serve` included:
//
//	go run ./sdk/examples/campaign -signup -email ada@example.com -password 'correct horse battery'
//	BETTY_API_KEY=betty_sk_… go run ./sdk/examples/campaign -server https://betty.example.com
//
// The server is -server or BETTY_SERVER (http://localhost:8080 by default). It signs in with
// an API key (-api-key or BETTY_API_KEY), or with an e-mail address and password (-email and
// -password, or BETTY_EMAIL and BETTY_PASSWORD); -signup creates that account first. With an
// account it uses its first team (or makes one) and buys a number when the team has none (the
// server's telephony simulator sells them free); an API key acts for its own team, which
// must have a number already, since keys cannot spend money. The contacts are -contacts, or
// the five of contacts.csv beside this file.
//
// With the simulator (a server without a carrier account) calls are fictional: each is
// answered, busy, unanswered or reaches voicemail at random, and the simulated customer
// answers the agent.
package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

//go:embed contacts.csv
var sampleContacts []byte

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "campaign:", err)
		os.Exit(1)
	}
}

// config is what the flags and the environment say.
type config struct {
	server, apiKey, email, password string
	signup                          bool
	contacts, template, dashboard   string
	timeout                         time.Duration
}

func parse(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("campaign", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.server, "server", or(getenv("BETTY_SERVER"), "http://localhost:8080"), "the Betty server's URL (BETTY_SERVER)")
	fs.StringVar(&cfg.apiKey, "api-key", getenv("BETTY_API_KEY"), "an API key of the team (BETTY_API_KEY)")
	fs.StringVar(&cfg.email, "email", getenv("BETTY_EMAIL"), "sign in with this e-mail address (BETTY_EMAIL)")
	fs.StringVar(&cfg.password, "password", getenv("BETTY_PASSWORD"), "and this password (BETTY_PASSWORD)")
	fs.BoolVar(&cfg.signup, "signup", false, "create the account first")
	fs.StringVar(&cfg.contacts, "contacts", "", "a CSV file of contacts, with a phone column (default: the example's five)")
	fs.StringVar(&cfg.template, "template", "template-appointment-reminder", "the workflow template to copy")
	fs.StringVar(&cfg.dashboard, "dashboard-url", "", "the dashboard's address, where buying a number returns to (default: -server)")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if cfg.apiKey == "" && (cfg.email == "" || cfg.password == "") {
		return cfg, errors.New("give an API key (-api-key, BETTY_API_KEY) or an e-mail address and password (-email and -password)")
	}
	return cfg, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parse(args, getenv, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	say := func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }

	c, err := connect(ctx, cfg)
	if err != nil {
		return err
	}
	team, err := teamOf(ctx, c, cfg)
	if err != nil {
		return err
	}
	say("Team      %s (%s)", team.Name, team.Id)
	number, err := numberOf(ctx, c, team.Id, cfg)
	if err != nil {
		return err
	}
	say("Number    %s", number.PhoneNumber)

	agent, err := c.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team.Id, Name: "Example agent"})
	if err != nil {
		return fmt.Errorf("creating the agent: %w", err)
	}
	camp, err := c.CreateCampaign(ctx, campaignRequest(team.Id))
	if err != nil {
		return fmt.Errorf("creating the campaign: %w", err)
	}
	say("Campaign  %s (%s)", camp.Name, camp.Id)
	// A workflow of the campaign, spoken by the agent and calling from the number: everything
	// a run needs but its contacts.
	w, err := c.CreateWorkflow(ctx, team.Id, betty.WorkflowInput{Name: "Appointment reminders", CampaignID: camp.Id,
		AgentID: agent.Id, PhoneNumberID: number.Id, Template: cfg.template})
	if err != nil {
		return fmt.Errorf("creating the workflow: %w", err)
	}
	if _, err := c.ActivateCampaignWorkflow(ctx, camp.Id, w.Id); err != nil {
		return fmt.Errorf("making it the campaign's workflow: %w", err)
	}
	say("Workflow  %s (%s)", w.Name, w.Id)

	node := betty.ContactsNode(w)
	if node == "" {
		return fmt.Errorf("template %s has no Contacts node to import contacts into", cfg.template)
	}
	if err := importContacts(ctx, c, team.Id, w.Id, node, cfg.contacts, say); err != nil {
		return err
	}

	job, err := c.RunWorkflow(ctx, team.Id, w.Id, betty.RunOptions{})
	if err != nil {
		return fmt.Errorf("starting the run: %w", err)
	}
	job, err = c.WaitForJob(ctx, team.Id, job.Id, func(j client.Job) {
		p := j.Progress
		fmt.Fprintf(stderr, "progress: %3d%%  %d completed, %d failed, %d pending of %d\n", p.Percent, p.Completed, p.Failed, p.Pending, p.Total)
	})
	if err != nil {
		return fmt.Errorf("waiting for job %s: %w", job.Id, err)
	}
	say("Job       %s: %s, %d completed, %d failed of %d", job.Id, job.Status, job.Progress.Completed, job.Progress.Failed, job.Progress.Total)
	say("")
	return outcomes(ctx, c, team.Id, w.Id, node, stdout)
}

// connect signs in with the API key, or the account (made first with -signup).
func connect(ctx context.Context, cfg config) (*betty.Client, error) {
	if cfg.apiKey != "" {
		return betty.New(cfg.server, betty.WithAPIKey(cfg.apiKey))
	}
	c, err := betty.New(cfg.server)
	if err != nil {
		return nil, err
	}
	if cfg.signup {
		r, err := c.SignUp(ctx, client.SignUpRequest{Email: client.Email(cfg.email), Password: cfg.password})
		if err != nil {
			return nil, fmt.Errorf("signing up: %w", err)
		}
		if r.Session == nil {
			return nil, errors.New("the server sent a link to confirm the address: follow it, then run again without -signup")
		}
		return c, nil
	}
	if _, err := c.SignIn(ctx, cfg.email, cfg.password); err != nil {
		return nil, fmt.Errorf("signing in: %w", err)
	}
	return c, nil
}

// teamOf answers the API key's team, or the account's first team, made when it has none.
func teamOf(ctx context.Context, c *betty.Client, cfg config) (client.Organization, error) {
	if cfg.apiKey != "" {
		return c.KeyTeam(ctx)
	}
	// Operations without a typed helper go through the generated client, with the same
	// authentication, errors and pagination.
	for org, err := range betty.All[client.Organization](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListTeams(ctx, &client.ListTeamsParams{Page: &page})
	}) {
		return org, err
	}
	return betty.Do[client.Organization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateTeam(ctx, client.CreateTeamRequest{Name: "Example team"})
	})
}

// numberOf answers one of the team's active numbers, bought when it has none.
func numberOf(ctx context.Context, c *betty.Client, team string, cfg config) (client.PhoneNumber, error) {
	for n, err := range c.PhoneNumbers(ctx, team) {
		if err != nil {
			return n, err
		}
		if n.Status == client.PhoneNumberStatusActive {
			return n, nil
		}
	}
	if cfg.apiKey != "" {
		return client.PhoneNumber{}, errors.New("the team has no phone number, and an API key cannot buy one: buy one in the dashboard or with `betty numbers buy`")
	}
	found, err := c.SearchPhoneNumbers(ctx, client.SearchAvailablePhoneNumbersParams{})
	if err != nil {
		return client.PhoneNumber{}, fmt.Errorf("looking for a number to buy: %w", err)
	}
	if len(found) == 0 {
		return client.PhoneNumber{}, errors.New("no phone number is on sale")
	}
	bought, err := c.BuyPhoneNumber(ctx, team, found[0].PhoneNumber, or(cfg.dashboard, c.Server())+"/dashboard/phone-numbers")
	if err != nil {
		return client.PhoneNumber{}, fmt.Errorf("buying %s: %w", found[0].PhoneNumber, err)
	}
	if bought.PhoneNumber == nil {
		return client.PhoneNumber{}, fmt.Errorf("buying %s needs a payment: pay at %s, then run again", found[0].PhoneNumber, deref(bought.CheckoutUrl))
	}
	return *bought.PhoneNumber, nil
}

// campaignRequest is an outbound campaign that calls each contact once, at any hour: an
// example should show its calls now. A real campaign keeps to its contacts' business hours,
// the default (09:00–17:00, Monday to Friday).
func campaignRequest(team string) client.CreateCampaignRequest {
	name := "Example campaign " + time.Now().UTC().Format("2006-01-02 15:04:05")
	out, utc, retries := client.CallDirectionOutbound, "UTC", 0
	every := []client.CampaignWeekday{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
	return client.CreateCampaignRequest{OrganizationId: team, Name: &name, Type: &out, Settings: &client.CampaignSettingsInput{
		Timezone: &utc, RetryAttempts: &retries, CallWindow: &client.CampaignCallWindow{Start: "00:00", End: "23:59", Days: every}}}
}

// importContacts uploads the CSV file, makes it the Contacts node's source and waits for the
// server to read it.
func importContacts(ctx context.Context, c *betty.Client, team, workflowID, node, path string, say func(string, ...any)) error {
	data, name := sampleContacts, "contacts.csv"
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return err
		}
		name = path[strings.LastIndex(path, "/")+1:]
	}
	up, err := c.Upload(ctx, bytes.NewReader(data), int64(len(data)), betty.UploadOptions{OrganizationID: team,
		Purpose: client.UploadPurposeContactsCsv, FileName: name})
	if err != nil {
		return fmt.Errorf("uploading %s: %w", name, err)
	}
	if _, err := c.SetContactsCSV(ctx, team, workflowID, node, deref(up.FileUrl), betty.CSVOptions{FileName: name}); err != nil {
		return fmt.Errorf("importing %s: %w", name, err)
	}
	csv, _, err := c.WaitForContacts(ctx, workflowID, node, 500*time.Millisecond)
	if err != nil {
		return fmt.Errorf("importing %s: %w", name, err)
	}
	if csv.Status != client.ContactsImportStatusSuccess {
		return fmt.Errorf("importing %s: %s %s", name, csv.Status, deref(csv.Error))
	}
	say("Contacts  %d imported from %s, %d rows rejected", csv.RowsImported, name, csv.RowsRejected)
	return nil
}

// outcomes prints each contact's call status and the inbox's summary of its call.
func outcomes(ctx context.Context, c *betty.Client, team, workflowID, node string, stdout io.Writer) error {
	summaries := map[string]client.InboxItem{}
	for item, err := range c.InboxItems(ctx, team, betty.InboxOrder{}) {
		if err != nil {
			return err
		}
		if item.CallLogId != nil {
			summaries[*item.CallLogId] = item
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONTACT\tPHONE\tOUTCOME\tSUMMARY")
	for ct, err := range c.Contacts(ctx, workflowID, node) {
		if err != nil {
			return err
		}
		who := strings.TrimSpace(deref(ct.FirstName) + " " + deref(ct.LastName))
		summary := deref(ct.BettyMetadata.LastError)
		if id := ct.BettyMetadata.CallLogId; id != nil {
			if item, ok := summaries[*id]; ok {
				summary = item.Title
				if item.Summary != "" {
					summary += ": " + item.Summary
				}
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", who, ct.Phone, ct.BettyMetadata.Status, oneLine(summary))
	}
	return tw.Flush()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
