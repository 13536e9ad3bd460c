package inbox

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

func ptr[T any](v T) *T { return &v }

var (
	item = client.InboxItem{Id: "inbox-1", OrganizationId: "team-1", Title: "Customer asked to reschedule delivery",
		Summary: "Wants Tuesday morning instead; confirm by SMS.", Priority: 60, Visibility: client.Private,
		CallLogId: ptr("call-1"), CallControlId: ptr("v3:cc-1"), CampaignId: ptr("camp-1"), CreatedAt: clitest.When, UpdatedAt: clitest.When}
	other = client.InboxItem{Id: "inbox-2", OrganizationId: "team-1", Title: "Voicemail left", Priority: 0, Visibility: client.Public,
		CreatedAt: clitest.When, UpdatedAt: clitest.When}
)

// The enumerations and the search rule copy the contract's.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	for name, values := range map[string][]string{"InboxSortBy": strs(SortColumns), "InboxVisibility": strs(Visibilities)} {
		var want []string
		for _, v := range spec.Components.Schemas[name].Value.Enum {
			want = append(want, v.(string))
		}
		if !slices.Equal(values, want) {
			t.Errorf("%s: the CLI takes %v, the contract %v", name, values, want)
		}
	}
	for _, p := range spec.Paths.Find("/v1/inbox/search").Get.Parameters {
		if s := p.Value.Schema.Value; p.Value.Name == "query" && (int(s.MinLength) != query.Min || s.MaxLength == nil || int(*s.MaxLength) != query.Max) {
			t.Errorf("query: %+v, the contract %d…%v", query, s.MinLength, s.MaxLength)
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

func TestListSearchView(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/inbox", clitest.Page([]client.InboxItem{item, other}))
	stub.Handle("GET /v1/inbox/search", clitest.Page([]client.InboxItem{item}))
	stub.Handle("GET /v1/inbox/private/inbox-1", clitest.Data(http.StatusOK, item))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) }, "--sort", "priority", "--asc")
	if q := stub.Last().Query; q.Get("sortBy") != "priority" || q.Get("ascending") != "true" || q.Get("organizationId") != "team-1" {
		t.Errorf("list query %v", q)
	}
	clitest.GoldenOutputs(t, "search", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdSearch(f, nil) }, "reschedule")
	if q := stub.Last().Query; q.Get("query") != "reschedule" || q.Has("sortBy") || q.Has("ascending") {
		t.Errorf("search query %v", q)
	}
	clitest.GoldenOutputs(t, "view", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdView(f, nil) }, "inbox-1")
}

func TestUpdateDelete(t *testing.T) {
	stub := clitest.NewStub(t)
	updated := item
	updated.Priority, updated.Visibility = 90, client.Public
	stub.Handle("POST /v1/inbox/item/inbox-1", clitest.Data(http.StatusOK, updated))
	stub.Handle("GET /v1/inbox/private/inbox-1", clitest.Data(http.StatusOK, item))
	stub.Handle("DELETE /v1/inbox/item/inbox-1", clitest.Data(http.StatusOK, client.Deleted{Id: "inbox-1"}))
	gone := other
	gone.Deleted = true
	stub.Handle("GET /v1/inbox/private/inbox-2", clitest.Data(http.StatusOK, gone))

	for args, body := range map[string]string{
		"update inbox-1 --priority 90 --visibility public": `{"organizationId":"team-1","priority":90,"visibility":"public"}`,
		"update inbox-1 --priority 0":                      `{"organizationId":"team-1","priority":0}`,
		"update inbox-1 --visibility private":              `{"organizationId":"team-1","visibility":"private"}`,
	} {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdInbox(f), strings.Fields(args)...); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if got := strings.TrimSpace(string(stub.Last().Body)); got != body || s.Out.String() != "inbox-1\n" ||
			!strings.Contains(s.ErrOut.String(), `Updated inbox item "Customer asked to reschedule delivery": priority 90, public.`) {
			t.Errorf("%s: sent %s, out %q %q", args, got, s.Out, s.ErrOut)
		}
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdInbox(f), "update", "inbox-1", "--priority", "90", "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "update.json", s.Out.Bytes())

	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdInbox(f), "delete", "inbox-1"); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("delete without --yes off a terminal: %v", err)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdInbox(f), "delete", "inbox-1", "--yes"); err != nil || stub.Last().Method != http.MethodDelete ||
		!strings.Contains(s.ErrOut.String(), `Deleted inbox item "Customer asked to reschedule delivery".`) {
		t.Errorf("delete: %v %q", err, s.ErrOut)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdInbox(f), "delete", "inbox-2", "--yes"); err == nil || !strings.Contains(err.Error(), "was deleted already") {
		t.Errorf("deleted twice: %v", err)
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"update", "inbox-1"}, "nothing to change: give --priority or --visibility"},
		{[]string{"search", " "}, "must not be empty"},
		{[]string{"search", strings.Repeat("x", 201)}, "want at most 200 characters"},
		{[]string{"view"}, "give the id of the inbox item"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		err := clitest.Run(NewCmdInbox(f), c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, cmdutil.ExitCode(err), c.want)
		}
	}
	for args, want := range map[string]string{
		"update inbox-1 --priority 101":      "want a number from 0 to 100",
		"update inbox-1 --visibility secret": "want public or private",
		"list --sort date":                   "want createdAt, updatedAt, priority, title or visibility",
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		clitest.CheckErr(t, clitest.Run(NewCmdInbox(f), strings.Fields(args)...), want)
	}
}
