package dnc

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
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
	manual = client.DoNotCallEntry{Id: "dnc-1", OrganizationId: "team-1", PhoneNumber: "+14155550123", Reason: ptr("asked by e-mail"),
		AddedBy: "ada@example.com", Source: "manual", CreatedAt: clitest.When}
	asked = client.DoNotCallEntry{Id: "dnc-2", OrganizationId: "team-1", PhoneNumber: "+442071838750", AddedBy: "conversation",
		Source: "conversation", CreatedAt: clitest.When}
)

// The rules copy the contract's.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Components.Schemas["AddDoNotCallRequest"].Value.Properties
	for _, r := range []cmdutil.Rule{number, reason, region} {
		s := props[strings.TrimPrefix(r.Schema, "AddDoNotCallRequest.")].Value
		if int(s.MinLength) != r.Min || (r.Max > 0) != (s.MaxLength != nil) || s.MaxLength != nil && int(*s.MaxLength) != r.Max || s.Pattern != r.Pattern {
			t.Errorf("%s: %+v, the contract %d…%v %q", r.Schema, r, s.MinLength, s.MaxLength, s.Pattern)
		}
	}
	for _, p := range spec.Paths.Find("/v1/do-not-call").Get.Parameters {
		if s := p.Value.Schema.Value; p.Value.Name == "search" && (s.MaxLength == nil || int(*s.MaxLength) != search.Max) {
			t.Errorf("search: %+v, the contract %v", search, s.MaxLength)
		}
	}
}

func TestList(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/do-not-call", clitest.Page([]client.DoNotCallEntry{manual, asked}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) }, "--search", "415")
	if q := stub.Last().Query; q.Get("search") != "415" || q.Get("organizationId") != "team-1" {
		t.Errorf("query %v", q)
	}
}

func TestAdd(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/do-not-call", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		status := http.StatusCreated // a new entry; 200 for a number listed already
		if strings.Contains(string(body), `"+14155550123"`) {
			status = http.StatusOK
		}
		clitest.Data(status, manual)(w, r)
	})
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "add", "020 7183 8750", "--region", "GB", "--reason", "asked by e-mail"); err != nil {
		t.Fatal(err)
	}
	if body := strings.TrimSpace(string(stub.Last().Body)); body != `{"defaultRegion":"GB","organizationId":"team-1","phoneNumber":"020 7183 8750","reason":"asked by e-mail"}` ||
		s.Out.String() != "dnc-1\n" || s.ErrOut.String() != "Added +14155550123 to the do-not-call list.\n" {
		t.Errorf("add: %s %q %q", body, s.Out, s.ErrOut)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "add", "+14155550123", "--json"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.ErrOut.String(), "+14155550123 was on the do-not-call list already (added by ada@example.com on 2026-03-14T09:26:53Z).") {
		t.Errorf("already listed: %q", s.ErrOut)
	}
	clitest.Golden(t, "add.json", s.Out.Bytes())
}

func TestRemove(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/do-not-call", clitest.Page([]client.DoNotCallEntry{asked, manual}))
	stub.Handle("DELETE /v1/do-not-call/dnc-1", clitest.Data(http.StatusOK, client.Deleted{Id: "dnc-1"}))
	stub.Handle("DELETE /v1/do-not-call/dnc-9", clitest.Problem(http.StatusNotFound, client.ProblemCodeNotFound, "The entry was not found."))
	stub.Handle("DELETE /v1/do-not-call/dnc-2", clitest.Problem(http.StatusForbidden, client.ProblemCodeForbidden, "Only admins and the owner may remove numbers."))

	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "remove", "+14155550123", "--yes"); err != nil || stub.Last().Path != "/v1/do-not-call/dnc-1" ||
		s.ErrOut.String() != "Removed +14155550123 from the do-not-call list.\n" {
		t.Errorf("by number: %v %s %q", err, stub.Last().Path, s.ErrOut)
	}
	if q := stub.Requests()[0].Query; q.Get("search") != "14155550123" {
		t.Errorf("looked up with %v", q)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "remove", "+15555550000", "--yes"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound ||
		err.Error() != "+15555550000 is not on the do-not-call list" {
		t.Errorf("unlisted number: %v", err)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "remove", "dnc-9", "--yes"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Errorf("unknown id: %v", err)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "remove", "dnc-2", "--yes"); err == nil || !strings.Contains(err.Error(), "Only admins and the owner") {
		t.Errorf("not allowed: %v", err)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "remove", "dnc-1"); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("without --yes off a terminal: %v", err)
	}
}

func TestImport(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/do-not-call/import", clitest.Data(http.StatusOK, client.DoNotCallImport{Added: 2, AlreadyListed: 1,
		Rejected: []client.DoNotCallRejectedRow{{Row: 4, Value: "call me maybe", Reason: "not a phone number"}}}))
	csv := "phone,reason\n+14155550123,asked\n+14155550124,\n+14155550123,\ncall me maybe,\n"
	path := filepath.Join(t.TempDir(), "opt-outs.csv")
	os.WriteFile(path, []byte(csv), 0o600)

	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true})
	if err := clitest.Run(NewCmdDNC(f), "import", path, "--reason", "opted out", "--region", "GB"); err != nil {
		t.Fatal(err)
	}
	last := stub.Last()
	if string(last.Body) != csv || last.Header.Get("Content-Type") != "text/csv" || last.Query.Get("reason") != "opted out" || last.Query.Get("defaultRegion") != "GB" {
		t.Errorf("sent %v %v %q", last.Header.Get("Content-Type"), last.Query, last.Body)
	}
	if s.ErrOut.String() != "Added 2 numbers to the do-not-call list; 1 was already on it; 1 row refused.\n" ||
		s.Out.String() != "ROW  VALUE          REFUSED BECAUSE\n4    call me maybe  not a phone number\n" {
		t.Errorf("import: %q %q", s.ErrOut, s.Out)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), Stdin: csv})
	if err := clitest.Run(NewCmdDNC(f), "import", "-", "--json"); err != nil || string(stub.Last().Body) != csv {
		t.Fatalf("stdin: %v", err)
	}
	clitest.Golden(t, "import.json", s.Out.Bytes())
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDNC(f), "import", "/no/such.csv"); cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "cannot read /no/such.csv") {
		t.Errorf("missing file: %v", err)
	}
}

func TestUsage(t *testing.T) {
	for args, want := range map[string]string{
		"add 12":                       "want at least 3 characters",
		"add +14155550123 --region gb": "want a two-letter region such as GB",
		"remove":                       "give the entry's id or its number",
		"import":                       "give the CSV file to import",
		"list --search " + strings.Repeat("1", 101): "want at most 100 characters",
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		clitest.CheckErr(t, clitest.Run(NewCmdDNC(f), strings.Fields(args)...), want)
	}
}
