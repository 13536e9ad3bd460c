package cmdutil

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/bettyhq/betty/sdk/client"
)

// What people type is checked here before a request is built: a typo is a usage error (exit
// 2) in plain words, not a round trip to the server or an encoding error from the SDK. The
// rules copy the contract's; validate_test.go checks that they still agree with openapi.yaml.

// Rule is what the API accepts for one kind of text.
type Rule struct {
	// Name names the input in messages ("team name").
	Name string
	// Schema is where the contract states the rule: a schema ("Id"), a schema's property
	// ("CreateTeamRequest.name") or an operation's parameter ("searchAdminUsersOrganizations?searchEmail").
	Schema string
	// Min and Max bound the length in characters; Max 0 is no bound. Min > 0 also refuses
	// text that is only spaces.
	Min, Max int
	// Pattern is a regular expression the text must match, and Want says in words what it
	// asks for.
	Pattern string
	Want    string
	// URL asks for an absolute http:// or https:// URL.
	URL bool
	// Secret keeps the value out of messages.
	Secret bool
}

// The rules of the inputs the CLI sends.
var (
	// Email is the product's e-mail rule (spec section 5), which the server applies to every
	// field of format email.
	Email = Rule{Name: "e-mail address", Schema: "Email", Max: 254,
		Pattern: `(?i)^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$`, Want: "an address such as ada@example.com"}
	ID          = Rule{Name: "id", Schema: "Id", Min: 1, Max: 64}
	TeamName    = Rule{Name: "team name", Schema: "CreateTeamRequest.name", Min: 1, Max: 100}
	CompanyName = Rule{Name: "company name", Schema: "CreateTeamRequest.companyName", Max: 200}
	PlatformKey = Rule{Name: "platform key", Schema: "CreateTeamRequest.platformKey", Min: 1, Max: 50,
		Pattern: `^[a-z0-9][a-z0-9_-]*$`, Want: "lower-case letters, digits, - or _, such as shopify"}
	// PlatformKeyOrEmpty is PlatformKey where an empty value clears the property.
	PlatformKeyOrEmpty = Rule{Name: "platform key", Schema: "UpdateTeamPropertiesRequest.platformKey", Max: 50,
		Pattern: `^([a-z0-9][a-z0-9_-]*)?$`, Want: "lower-case letters, digits, - or _, such as shopify"}
	Purpose        = Rule{Name: "purpose", Schema: "CreateTeamRequest.purpose", Max: 500}
	Industry       = Rule{Name: "industry", Schema: "CreateTeamRequest.industry", Max: 100}
	KeyName        = Rule{Name: "key name", Schema: "CreateTeamApiKeyRequest.name", Min: 1, Max: 100}
	UserName       = Rule{Name: "name", Schema: "SignUpRequest.name", Min: 1, Max: 100}
	NewPassword    = Rule{Name: "password", Schema: "SignUpRequest.password", Min: 8, Max: 128, Secret: true}
	Password       = Rule{Name: "password", Schema: "SignInRequest.password", Min: 1, Max: 128, Secret: true}
	InviteToken    = Rule{Name: "invitation token", Schema: "AcceptTeamInvitationRequest.token", Min: 1, Max: 512, Secret: true}
	Origin         = Rule{Name: "origin", Schema: "InviteTeamMemberRequest.origin", Max: 2048, URL: true}
	EmailSearch    = Rule{Name: "e-mail search text", Schema: "searchAdminUsersOrganizations?searchEmail", Min: 1, Max: 254}
	OutboxReceiver = Rule{Name: "recipient", Schema: "listAdminMail?recipient", Max: 254,
		Pattern: Email.Pattern, Want: Email.Want}
	// APIKey is an organisation API key as the server makes them; the contract names no
	// format for the header it travels in.
	APIKey = Rule{Name: "API key", Pattern: `^betty_sk_[A-Za-z0-9]+$`, Want: "a key such as betty_sk_Q3vT9xLm… (see betty api-keys create)", Secret: true}
)

// problem says what is wrong with s, "" when nothing is.
func (r Rule) problem(s string) string {
	n := utf8.RuneCountInString(s)
	switch {
	case r.Min > 0 && strings.TrimSpace(s) == "":
		return "must not be empty"
	case n < r.Min:
		return fmt.Sprintf("want at least %d characters", r.Min)
	case r.Max > 0 && n > r.Max:
		return fmt.Sprintf("want at most %d characters, not %d", r.Max, n)
	case r.Pattern != "" && !compiled(r.Pattern).MatchString(s):
		return "want " + r.Want
	case r.URL && !isHTTPURL(s):
		return "want an http:// or https:// URL such as https://app.example.com"
	}
	return ""
}

// Problem says in words what is wrong with s, "" when nothing is; for a flag value that has
// more rules than r, where the flag's name already says what the value is.
func (r Rule) Problem(s string) string { return r.problem(s) }

// Check is a usage error naming the input when s breaks the rule.
func (r Rule) Check(s string) error {
	p := r.problem(s)
	switch {
	case p == "":
		return nil
	case r.Secret:
		return FlagErrorf("invalid %s: %s", r.Name, p)
	}
	return FlagErrorf("invalid %s %s: %s", r.Name, quote(s), p)
}

// CheckSet checks an optional value: nil (not given) is fine.
func (r Rule) CheckSet(s *string) error {
	if s == nil {
		return nil
	}
	return r.Check(*s)
}

// Var adds a string flag whose value must follow r; a value that does not is refused while
// the flags are parsed, like a malformed number.
func (r Rule) Var(fs *pflag.FlagSet, p *string, name, usage string) {
	fs.Var(&ruleValue{rule: r, p: p}, name, usage)
}

type ruleValue struct {
	rule Rule
	p    *string
}

func (v *ruleValue) String() string { return *v.p }
func (v *ruleValue) Type() string   { return "string" }
func (v *ruleValue) Set(s string) error {
	if p := v.rule.problem(s); p != "" {
		return fmt.Errorf("%s", p)
	}
	*v.p = s
	return nil
}

// ParseEmail checks an e-mail address typed as an argument.
func ParseEmail(s string) (client.Email, error) {
	return client.Email(s), Email.Check(s)
}

// Enum returns s as a value of T when it is one of values; what names the input in the
// message.
func Enum[T ~string](what, s string, values ...T) (T, error) {
	for _, v := range values {
		if string(v) == s {
			return v, nil
		}
	}
	return "", FlagErrorf("invalid %s %s: want %s", what, quote(s), OneOf(values...))
}

// OneOf lists values for a message: "a, b or c".
func OneOf[T ~string](values ...T) string {
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = string(v)
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// The values of the enumerations people type, in the contract's order.
var (
	// Roles are the roles a member or an API key can be given: every role but owner.
	Roles = []client.AssignableTeamRole{client.AssignableTeamRoleAdmin, client.AssignableTeamRoleDeveloper,
		client.AssignableTeamRoleMember, client.AssignableTeamRoleReadonly}
	Levels = []client.VerificationLevel{client.VerificationLevelNone, client.VerificationLevelL1, client.VerificationLevelL2}
	Tiers  = []client.SubscriptionTier{client.SubscriptionTierFree, client.SubscriptionTierTier1, client.SubscriptionTierTier2,
		client.SubscriptionTierTier3, client.SubscriptionTierTier4}
)

// ParseRole checks a role that may be given to a member or an API key.
func ParseRole(s string) (client.AssignableTeamRole, error) {
	return Enum("role", s, Roles...)
}

// regexps holds the rules' patterns, compiled on first use so that start-up does not pay
// for commands that do not run.
var regexps sync.Map

func compiled(pattern string) *regexp.Regexp {
	if re, ok := regexps.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := regexps.LoadOrStore(pattern, regexp.MustCompile(pattern))
	return re.(*regexp.Regexp)
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// quote shows a value in a message, cut short when long.
func quote(s string) string {
	const most = 40
	if utf8.RuneCountInString(s) > most {
		return fmt.Sprintf("%q…", string([]rune(s)[:most]))
	}
	return fmt.Sprintf("%q", s)
}
