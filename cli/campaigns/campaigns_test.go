package campaigns

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
)

// The rules copy the contract's lengths, and the enumerations its values.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	schemas := spec.Components.Schemas
	name := schemas["CreateCampaignRequest"].Value.Properties["name"].Value
	var filter = name
	for _, p := range spec.Paths.Find("/v1/campaigns/list").Get.Parameters {
		if p.Value.Name == "name" {
			filter = p.Value.Schema.Value
		}
	}
	for _, c := range []struct {
		rule   cmdutil.Rule
		min    uint64
		maxLen *uint64
	}{{Name, name.MinLength, name.MaxLength}, {NameFilter, filter.MinLength, filter.MaxLength}} {
		if c.maxLen == nil || uint64(c.rule.Min) != c.min || uint64(c.rule.Max) != *c.maxLen {
			t.Errorf("%s: %d…%d, the contract %d…%v", c.rule.Name, c.rule.Min, c.rule.Max, c.min, c.maxLen)
		}
	}
	for name, values := range map[string][]string{
		"CallDirection": strs(Types), "CampaignSettableStatus": strs(Statuses), "CampaignStatusFilter": strs(Filters),
		"CampaignPriority": strs(Priorities), "CampaignPurpose": strs(Purposes),
	} {
		var want []string
		for _, v := range schemas[name].Value.Enum {
			want = append(want, v.(string))
		}
		if !slices.Equal(values, want) {
			t.Errorf("%s: the CLI takes %v, the contract %v", name, values, want)
		}
	}
}

func strs[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func TestNewCmdList(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    ListOptions
		wantErr string
	}{
		{name: "defaults", want: ListOptions{Limit: 30}},
		{name: "filters", args: []string{"--status", "active", "--name", "acme", "-L", "0", "--json"},
			want: ListOptions{Status: client.CampaignStatusFilterActive, Name: "acme", Output: cmdutil.Output{Format: "json"}}},
		{name: "bad status", args: []string{"--status", "running"}, wantErr: `want active, paused, completed, draft, error or all`},
		{name: "empty name", args: []string{"--name", ""}, wantErr: "must not be empty"},
		{name: "an argument", args: []string{"acme"}, wantErr: `unexpected argument "acme"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *ListOptions
			err := clitest.Run(NewCmdList(f, func(o *ListOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Status != tt.want.Status || got.Name != tt.want.Name || got.Limit != tt.want.Limit || got.Output != tt.want.Output {
				t.Errorf("options %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestNewCmdCreateAndEdit(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var created *CreateOptions
	err := clitest.Run(NewCmdCreate(f, func(o *CreateOptions) error { created = o; return nil }),
		"Leads", "--type", "inbound", "--priority", "high", "--purpose", "Lead qualification", "--phone-number", "num-1")
	if err != nil || created.Name != "Leads" || created.Fields != (fields{Type: client.CallDirectionInbound, Priority: client.High,
		Purpose: client.CampaignPurposeLeadQualification, PhoneNumber: "num-1"}) {
		t.Fatalf("create: %+v %v", created, err)
	}
	for args, wantErr := range map[string]string{
		"--status active":       "a new campaign cannot be active",
		"--purpose sales":       "want Booking confirmation, Verification of customers",
		"--type both":           "want inbound or outbound",
		"a b":                   "accepts at most 1 arg(s)",
		"--priority whenever x": "want urgent, high, medium or low",
	} {
		err := clitest.Run(NewCmdCreate(f, func(*CreateOptions) error { return nil }), strings.Fields(args)...)
		clitest.CheckErr(t, err, wantErr)
	}

	var edited *EditOptions
	if err := clitest.Run(NewCmdEdit(f, func(o *EditOptions) error { edited = o; return nil }), "camp-1", "--no-phone-number", "--status", "paused"); err != nil ||
		edited.ID != "camp-1" || !edited.NoPhoneNumber || edited.Fields.Status != client.CampaignSettableStatusPaused {
		t.Fatalf("edit: %+v %v", edited, err)
	}
	for args, wantErr := range map[string]string{
		"camp-1": "nothing to change",
		"camp-1 --phone-number n --no-phone-number": "not both",
		"":                            "give the id of the campaign to change",
		"camp-1 --name  ":             "flag needs an argument",
		"camp-1 --status up":          "want active, paused, completed or draft",
		"camp-1 --record --no-record": "give --record or --no-record, not both",
		"camp-1 --voicemail hang-up --voicemail-message x": "--voicemail-message is for --voicemail leave-message",
	} {
		err := clitest.Run(NewCmdEdit(f, func(*EditOptions) error { return nil }), strings.Fields(args)...)
		clitest.CheckErr(t, err, wantErr)
	}
}

var campaign = client.Campaign{Id: "camp-1", OrganizationId: "team-1", Name: "Spring renewals", Type: client.CallDirectionOutbound,
	Status: client.CampaignStatusDraft, Priority: client.Medium, Purpose: client.CampaignPurposeOther,
	PhoneNumber: ptr("+14155550123"), PhoneNumberId: ptr("num-1"),
	Agents:    []client.CampaignAgentSummary{{Id: "agent-1", Name: "Front desk", Status: client.AgentStatusActive}},
	Workflows: []client.CampaignWorkflowSummary{},
	Settings: client.CampaignSettings{CallWindow: client.CampaignCallWindow{Start: "09:00", End: "17:00",
		Days: []client.CampaignWeekday{"mon", "tue", "wed", "thu", "fri"}}, MaxConcurrentCalls: 5, RecordCalls: true,
		RetryAttempts: 2, RetryDelayMinutes: 60, Timezone: "UTC", VoicemailAction: "hang-up", MaxCallDurationMinutes: 30,
		AllowedNumberTypes: []client.CampaignNumberType{client.AllowTollFree}},
	CreatedAt: clitest.When, UpdatedAt: clitest.When}

func TestListRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/campaigns/list", clitest.Page([]client.Campaign{campaign}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) }, "--status", "draft", "--name", "spring")
	q := stub.Last().Query
	if q.Get("organizationId") != "team-1" || q.Get("status") != "draft" || q.Get("name") != "spring" || q.Get("sizePerPage") != "100" {
		t.Errorf("query %v", q)
	}
}

func TestViewRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/campaigns/camp-1", clitest.Data(http.StatusOK, campaign))
	clitest.GoldenOutputs(t, "view", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdView(f, nil) }, "camp-1")
}

func TestCreateEditDuplicateRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/campaigns/create", clitest.Data(http.StatusCreated, campaign))
	stub.Handle("PUT /v1/campaigns/camp-1", clitest.Data(http.StatusOK, campaign))
	stub.Handle("POST /v1/campaigns/duplicate/camp-1", clitest.Data(http.StatusCreated, campaign))
	for _, c := range []struct {
		args     []string
		wantBody string
		wantErr  string
	}{
		{args: []string{"create", "Spring renewals", "--priority", "medium"},
			wantBody: `{"name":"Spring renewals","organizationId":"team-1","priority":"medium"}`, wantErr: `Created campaign "Spring renewals" (camp-1), draft.`},
		{args: []string{"create"}, wantBody: `{"organizationId":"team-1"}`, wantErr: "Created campaign"},
		{args: []string{"edit", "camp-1", "--no-phone-number", "--purpose", "Other"},
			wantBody: `{"phoneNumberId":null,"purpose":"Other"}`, wantErr: `Updated campaign "Spring renewals" (camp-1), draft.`},
		{args: []string{"edit", "camp-1", "--phone-number", "num-1"}, wantBody: `{"phoneNumberId":"num-1"}`, wantErr: "Updated campaign"},
		{args: []string{"duplicate", "camp-1"}, wantErr: "Created campaign"},
	} {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdCampaigns(f), c.args...); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if body := strings.TrimSpace(string(stub.Last().Body)); c.wantBody != "" && body != c.wantBody {
			t.Errorf("%v: sent %s, want %s", c.args, body, c.wantBody)
		}
		if s.Out.String() != "camp-1\n" || !strings.Contains(s.ErrOut.String(), c.wantErr) {
			t.Errorf("%v: out %q, err %q", c.args, s.Out, s.ErrOut)
		}
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdCampaigns(f), "create", "Spring renewals", "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "create.json", s.Out.Bytes())
}

func TestDeleteRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("DELETE /v1/campaigns/camp-1", clitest.Data(http.StatusOK, client.Deleted{Id: "camp-1"}))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDelete(f, nil), "camp-1"); err == nil {
		t.Fatal("deleted without --yes off a terminal")
	}
	if err := clitest.Run(NewCmdDelete(f, nil), "camp-1", "--yes"); err != nil {
		t.Fatal(err)
	}
	if s.ErrOut.String() != "Deleted campaign camp-1.\n" {
		t.Errorf("stderr %q", s.ErrOut)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true, Stdin: "y\n"})
	if err := clitest.Run(NewCmdDelete(f, nil), "camp-1"); err != nil || !strings.Contains(s.ErrOut.String(), "Deleted campaign camp-1.") {
		t.Fatalf("confirmed on a terminal: %v %q", err, s.ErrOut)
	}
}
