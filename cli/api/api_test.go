package api

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
)

// Fields are typed as gh types them, except that only numbers as JSON writes them are numbers:
// a phone number in E.164 stays a string.
func TestFieldsMakeABody(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "note.txt")
	if err := os.WriteFile(note, []byte("Call after 5pm"), 0o600); err != nil {
		t.Fatal(err)
	}
	var fields []field
	for _, kv := range []struct {
		kv    string
		typed bool
	}{
		{"name=Ava", true}, {"count=12", true}, {"ratio=-1.5e3", true}, {"on=true", true}, {"off=false", true}, {"gone=null", true},
		{"phone=+14155550123", true}, {"zip=007", true}, {"note=@" + note, true}, {"stdin=@-", true}, {"raw=12", false},
		{"settings[callWindow][start]=08:00", true}, {"settings[callWindow][days][]=mon", false}, {"settings[callWindow][days][]=tue", false},
		{"settings[retryAttempts]=2", true}, {"empty=", false},
	} {
		f, err := parseField(kv.kv, kv.typed, strings.NewReader("from stdin"))
		if err != nil {
			t.Fatalf("%s: %v", kv.kv, err)
		}
		fields = append(fields, f)
	}
	obj, err := body(fields)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := encode(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"count":12,"empty":"","gone":null,"name":"Ava","note":"Call after 5pm","off":false,"on":true,"phone":"+14155550123",` +
		`"ratio":-1.5e3,"raw":"12","settings":{"callWindow":{"days":["mon","tue"],"start":"08:00"},"retryAttempts":2},"stdin":"from stdin","zip":"007"}`
	if string(raw) != want {
		t.Errorf("body\n got %s\nwant %s", raw, want)
	}

	q := url.Values{"page": {"2"}}
	var listed []field
	for _, kv := range []string{"ids[]=a", "ids[]=b", "on=true", "phone=+14155550123"} {
		f, _ := parseField(kv, true, nil)
		listed = append(listed, f)
	}
	if err := query(q, listed); err != nil || q.Encode() != "ids=a&ids=b&on=true&page=2&phone=%2B14155550123" {
		t.Errorf("query: %v %s", err, q.Encode())
	}
	nested, _ := parseField("settings[a]=1", true, nil)
	if err := query(url.Values{}, []field{nested}); err == nil || !strings.Contains(err.Error(), "a query parameter cannot be an object") {
		t.Errorf("nested query: %v", err)
	}
	for _, bad := range [][]string{{"a=1", "a=2"}, {"a=1", "a[b]=2"}, {"a[]=1", "a=2"}} {
		var fs []field
		for _, kv := range bad {
			f, _ := parseField(kv, true, nil)
			fs = append(fs, f)
		}
		if _, err := body(fs); err == nil || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// Usage mistakes are refused before any request, in plain words.
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"GET"}, "give the method and the path"},
		{[]string{"FETCH", "/v1/team/list"}, `unknown method "FETCH": want GET, POST, PUT, PATCH, DELETE, HEAD`},
		{[]string{"GET", "http://evil.example/v1/team/list"}, "give a path such as /v1/team/list, not a URL"},
		{[]string{"POST", "/v1/team/list", "--paginate"}, "--paginate follows the pages of a list: use it with GET"},
		{[]string{"GET", "/v1/team/list", "-H", "X-Nothing"}, "--header takes 'Name: value'"},
		{[]string{"GET", "/v1/team/list", "-F", "novalue"}, `--field takes key=value, not "novalue"`},
		{[]string{"GET", "/v1/team/list", "-f", "a[b=1"}, `--raw-field key "a[b": want name, name[key]… or name[]`},
		{[]string{"POST", "/v1/agent/create", "-F", "name=@/no/such/file"}, "--field name: cannot read /no/such/file"},
		{[]string{"GET", "/v1/team/list", "--paginate", "-f", "page=0"}, `page "0": want a number, 1 or more`},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn("http://127.0.0.1:1")})
		root := &cobra.Command{Use: "betty"}
		root.AddCommand(NewCmdAPI(f, nil))
		err := clitest.Run(root, append([]string{"api"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, cmdutil.ExitCode(err), c.want)
		}
	}
}
