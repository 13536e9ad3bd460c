package cmdutil_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/spf13/pflag"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/server/api"
)

// rules are every rule the CLI checks input with.
var rules = []cmdutil.Rule{
	cmdutil.Email, cmdutil.ID, cmdutil.TeamName, cmdutil.CompanyName, cmdutil.PlatformKey,
	cmdutil.PlatformKeyOrEmpty, cmdutil.Purpose, cmdutil.Industry, cmdutil.KeyName, cmdutil.UserName,
	cmdutil.NewPassword, cmdutil.Password, cmdutil.InviteToken, cmdutil.Origin, cmdutil.EmailSearch,
	cmdutil.OutboxReceiver,
}

// The CLI's rules copy the contract's: a limit changed in openapi.yaml must be changed here
// too, or people get a usage error for what the server takes (or a round trip for what it
// refuses).
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		t.Run(r.Schema, func(t *testing.T) {
			s := schemaAt(t, spec, r.Schema)
			if s.Format == "email" {
				// The server checks format email with the product's pattern; so does Email.
				if r.Pattern != cmdutil.Email.Pattern {
					t.Errorf("format email, but the pattern is %q", r.Pattern)
				}
			} else if s.Pattern != r.Pattern {
				t.Errorf("pattern %q, the contract's %q", r.Pattern, s.Pattern)
			}
			if int(s.MinLength) != r.Min {
				t.Errorf("min %d, the contract's %d", r.Min, s.MinLength)
			}
			if s.MaxLength == nil || int(*s.MaxLength) != r.Max {
				t.Errorf("max %d, the contract's %v", r.Max, s.MaxLength)
			}
			if (s.Format == "uri") != r.URL {
				t.Errorf("URL %v, the contract's format %q", r.URL, s.Format)
			}
		})
	}
	enums := map[string][]string{
		"AssignableTeamRole": strs(cmdutil.Roles),
		"VerificationLevel":  strs(cmdutil.Levels),
		"SubscriptionTier":   strs(cmdutil.Tiers),
	}
	for name, values := range enums {
		var want []string
		for _, v := range schemaAt(t, spec, name).Enum {
			want = append(want, v.(string))
		}
		if !slices.Equal(values, want) {
			t.Errorf("%s: the CLI takes %v, the contract %v", name, values, want)
		}
	}
}

// schemaAt finds "Schema", "Schema.property" or "operationId?parameter" in the contract.
func schemaAt(t *testing.T, spec *openapi3.T, where string) *openapi3.Schema {
	t.Helper()
	if op, param, ok := strings.Cut(where, "?"); ok {
		for _, item := range spec.Paths.Map() {
			for _, o := range item.Operations() {
				if !strings.EqualFold(o.OperationID, op) { // the embedded spec capitalises ids
					continue
				}
				if p := o.Parameters.GetByInAndName("query", param); p != nil {
					return p.Schema.Value
				}
			}
		}
		t.Fatalf("no parameter %s", where)
	}
	name, prop, _ := strings.Cut(where, ".")
	ref := spec.Components.Schemas[name]
	if ref == nil {
		t.Fatalf("no schema %s", name)
	}
	if prop == "" {
		return ref.Value
	}
	p := ref.Value.Properties[prop]
	if p == nil {
		t.Fatalf("no property %s", where)
	}
	return p.Value
}

func strs[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

func TestEmailRule(t *testing.T) {
	for _, ok := range []string{"ada@example.com", "Ada.Lovelace+betty@Example.CO.uk", "a_b%c-d@x-y.io"} {
		if err := cmdutil.Email.Check(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "not-an-email", "ada@example", "ada@example.c", "ada lovelace@example.com", "ada@exa mple.com", "@example.com", "ada@@example.com", strings.Repeat("a", 250) + "@example.com"} {
		err := cmdutil.Email.Check(bad)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%q: err %v, want a usage error", bad, err)
		}
	}
	err := cmdutil.Email.Check("not-an-email")
	if want := `invalid e-mail address "not-an-email": want an address such as ada@example.com`; err == nil || err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestRuleMessages(t *testing.T) {
	tests := []struct {
		rule  cmdutil.Rule
		value string
		want  string
	}{
		{cmdutil.TeamName, "   ", `invalid team name "   ": must not be empty`},
		{cmdutil.TeamName, strings.Repeat("é", 101), `invalid team name "` + strings.Repeat("é", 40) + `"…: want at most 100 characters, not 101`},
		{cmdutil.NewPassword, "short", `invalid password: want at least 8 characters`},
		{cmdutil.APIKey, "betty_sk_abc\ndef", `invalid API key: want a key such as betty_sk_Q3vT9xLm… (see betty api-keys create)`},
		{cmdutil.PlatformKey, "Shopify", `invalid platform key "Shopify": want lower-case letters, digits, - or _, such as shopify`},
		{cmdutil.Origin, "app.example.com", `invalid origin "app.example.com": want an http:// or https:// URL such as https://app.example.com`},
		{cmdutil.ID, strings.Repeat("x", 65), `invalid id "` + strings.Repeat("x", 40) + `"…: want at most 64 characters, not 65`},
	}
	for _, tt := range tests {
		err := tt.rule.Check(tt.value)
		if err == nil || err.Error() != tt.want || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%s %q: %v, want %q (exit 2)", tt.rule.Name, tt.value, err, tt.want)
		}
	}
	for _, ok := range []struct {
		rule  cmdutil.Rule
		value string
	}{{cmdutil.TeamName, "Acme support"}, {cmdutil.PlatformKeyOrEmpty, ""}, {cmdutil.Purpose, ""}, {cmdutil.Origin, "https://app.example.com"}} {
		if err := ok.rule.Check(ok.value); err != nil {
			t.Errorf("%s %q refused: %v", ok.rule.Name, ok.value, err)
		}
	}
}

func TestRuleVar(t *testing.T) {
	var key string
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	cmdutil.PlatformKey.Var(fs, &key, "platform", "")
	err := fs.Parse([]string{"--platform", "Web Shop"})
	if err == nil || !strings.Contains(err.Error(), `invalid argument "Web Shop" for "--platform" flag: want lower-case letters`) {
		t.Errorf("err = %v", err)
	}
	if err := fs.Parse([]string{"--platform", "web"}); err != nil || key != "web" {
		t.Errorf("web: %v %q", err, key)
	}
}

func TestEnum(t *testing.T) {
	if role, err := cmdutil.ParseRole("developer"); err != nil || role != "developer" {
		t.Errorf("developer: %v %v", role, err)
	}
	_, err := cmdutil.ParseRole("owner")
	if want := `invalid role "owner": want admin, developer, member or readonly`; err == nil || err.Error() != want || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("owner: %v, want %q", err, want)
	}
}

func TestIntFlag(t *testing.T) {
	var page, size int
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	cmdutil.IntVarP(fs, &page, "page", "", 1, 1, 0, "")
	cmdutil.IntVarP(fs, &size, "limit", "L", 20, 1, 100, "")
	if page != 1 || size != 20 {
		t.Errorf("defaults %d %d", page, size)
	}
	for args, want := range map[string]string{
		"--page 0":      "want a number, 1 or more",
		"--page two":    "want a number, 1 or more",
		"--limit 101":   "want a number from 1 to 100",
		"-L 0":          "want a number from 1 to 100",
		"--page 3 -L 5": "",
	} {
		err := fs.Parse(strings.Fields(args))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
	if page != 3 || size != 5 {
		t.Errorf("parsed %d %d", page, size)
	}
}
