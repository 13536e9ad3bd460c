package phones

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Country is a country where numbers are sold and verified (ISO 3166-1 alpha-2).
type Country string

const (
	US Country = "US"
	CA Country = "CA"
	GB Country = "GB"
)

// NumberType is the kind of number.
type NumberType string

const (
	Local    NumberType = "local"
	TollFree NumberType = "toll_free"
)

// Method is how the carrier sends a verification code.
type Method string

const (
	// ByCall reads the code out in a voice call (reaches landlines too); the default.
	ByCall Method = "call"
	// BySMS texts the code.
	BySMS Method = "sms"
)

// CountryInfo is a supported country for people.
type CountryInfo struct {
	Code        Country
	Name        string
	CallingCode string
}

// Countries are the supported countries, in the order they are shown.
var Countries = []CountryInfo{
	{US, "United States", "+1"},
	{CA, "Canada", "+1"},
	{GB, "United Kingdom", "+44"},
}

// NumberTypes are the number types on sale in every supported country.
var NumberTypes = []NumberType{Local, TollFree}

// Supported says whether c is a supported country.
func Supported(c Country) bool {
	for _, s := range Countries {
		if s.Code == c {
			return true
		}
	}
	return false
}

// Parsed is a phone number Betty understands: valid, in a supported country.
type Parsed struct {
	// E164 is the number as +<country code><number>.
	E164    string
	Country Country
	Type    NumberType
	// AreaCode is the geographic area code ("415", "20" for London), "" for numbers with
	// none (toll-free, mobile).
	AreaCode string
}

// Parse reads an E.164 number and says what it is; ok is false for a number that is not a
// valid number of a supported country. Toll-free numbers of +1 are shared by the US and
// Canada; they are filed under the US unless the carrier says otherwise.
func Parse(e164 string) (Parsed, bool) {
	if !strings.HasPrefix(e164, "+") {
		return Parsed{}, false
	}
	n, err := phonenumbers.Parse(e164, "")
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return Parsed{}, false
	}
	country := Country(phonenumbers.GetRegionCodeForNumber(n))
	if !Supported(country) {
		return Parsed{}, false
	}
	out := Parsed{E164: phonenumbers.Format(n, phonenumbers.E164), Country: country, Type: Local}
	if phonenumbers.GetNumberType(n) == phonenumbers.TOLL_FREE {
		out.Type = TollFree
	}
	if l := phonenumbers.GetLengthOfGeographicalAreaCode(n); l > 0 {
		out.AreaCode = phonenumbers.GetNationalSignificantNumber(n)[:l]
	}
	return out, true
}

// Kind is what a number to be called is: libphonenumber's number type under a stable
// lowercase name (the names of a campaign's allowedNumberTypes).
type Kind string

const (
	KindFixedLine     Kind = "fixed-line"
	KindMobile        Kind = "mobile"
	KindFixedOrMobile Kind = "fixed-line-or-mobile"
	KindTollFree      Kind = "toll-free"
	KindPremiumRate   Kind = "premium-rate"
	KindSharedCost    Kind = "shared-cost"
	KindVoIP          Kind = "voip"
	KindPersonal      Kind = "personal-number"
	KindUAN           Kind = "uan"
	KindVoicemail     Kind = "voicemail"
	KindPager         Kind = "pager"
	// KindInternational is a number of a calling code that belongs to no country (+800
	// freephone, +808 shared cost, +870 Inmarsat, +881 satellite phones, +882/+883 international
	// networks, +979 international premium rate), whatever libphonenumber calls it: carriers bill
	// these at satellite or premium rates, and they are where revenue-share fraud sends calls.
	KindInternational Kind = "international-network"
	// KindUnknown is a number libphonenumber cannot place in any range of its country.
	KindUnknown Kind = "unknown"
)

// OptInKinds are the kinds a campaign may allow for the numbers its team typed itself, in the
// order they are shown. Numbers of unknown kind are never dialled: nothing says what they cost.
var OptInKinds = []Kind{KindTollFree, KindPremiumRate, KindSharedCost, KindVoIP, KindPersonal, KindUAN, KindVoicemail,
	KindPager, KindInternational}

// Safe says whether k is a kind a shop would call back (a person's landline or mobile):
// the only kinds dialled without a campaign's opt-in.
//
// Decisions on the kinds the issue did not name: toll-free is not safe (no person is
// reached on one, and calls to other countries' freephone numbers are billed at premium
// rates by many carriers); VoIP is not safe (in most countries its ranges are billed above
// landlines and are a favourite of revenue-share fraud; a team that calls VoIP customers opts
// in); unknown is never dialled (nothing says what it costs).
func (k Kind) Safe() bool {
	return k == KindFixedLine || k == KindMobile || k == KindFixedOrMobile
}

// kindNames are the kinds as people read them, before "number".
var kindNames = map[Kind]string{KindFixedLine: "landline", KindMobile: "mobile", KindFixedOrMobile: "landline or mobile",
	KindTollFree: "toll-free", KindPremiumRate: "premium-rate", KindSharedCost: "shared-cost", KindVoIP: "internet (VoIP)",
	KindPersonal: "personal forwarding", KindUAN: "company-wide (UAN)", KindVoicemail: "voicemail access", KindPager: "pager",
	KindInternational: "satellite or international network", KindUnknown: "unrecognised"}

// Plural names numbers of kind k as people read them ("premium-rate numbers").
func (k Kind) Plural() string {
	if n, ok := kindNames[k]; ok {
		return n + " numbers"
	}
	return string(k) + " numbers"
}

// singular names one number of kind k, with its article ("a premium-rate number").
func (k Kind) singular() string {
	n := strings.TrimSuffix(k.Plural(), "s")
	if strings.ContainsRune("aeiou", rune(n[0])) {
		return "an " + n
	}
	return "a " + n
}

// ParseKinds reads a campaign's allowedNumberTypes: opt-in kinds only, each once, in
// OptInKinds' order; the error names the first name that is not one.
func ParseKinds(names []string) ([]Kind, error) {
	want := map[Kind]bool{}
	for _, n := range names {
		k := Kind(n)
		if !slices.Contains(OptInKinds, k) {
			return nil, fmt.Errorf("%q is not a number type a campaign may allow (one of %s)", n, joinKinds(OptInKinds))
		}
		want[k] = true
	}
	out := []Kind{}
	for _, k := range OptInKinds {
		if want[k] {
			out = append(out, k)
		}
	}
	return out, nil
}

func joinKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// Origin is who gave Betty a number to call.
type Origin string

const (
	// Outside is someone outside the team: a shopper on the storefront, a zap, a CRM. Any
	// origin but Team counts as Outside, the zero value included.
	Outside Origin = "outside"
	// Team is a member of the team typing it: a CSV upload, a test run's destination.
	Team Origin = "team"
)

// Policy is which kinds of numbers a dial may reach: the safe kinds always, the kinds of
// Allow too when the team typed the number itself. The zero Policy allows the safe kinds
// only, so a job or caller that says nothing gets the strictest rule.
type Policy struct {
	Origin Origin `json:"origin,omitempty"`
	Allow  []Kind `json:"allow,omitempty"`
}

// TeamPolicy is the policy of numbers the team typed under a campaign allowing allow.
func TeamPolicy(allow []Kind) Policy { return Policy{Origin: Team, Allow: allow} }

// Allows says whether a number of kind k may be dialled under p.
func (p Policy) Allows(k Kind) bool {
	if k.Safe() {
		return true
	}
	return p.Origin == Team && k != KindUnknown && slices.Contains(p.Allow, k)
}

// Refusal answers why a number of kind k may not be dialled under p, in the team's words,
// or "" when it may.
func (p Policy) Refusal(k Kind) string {
	switch {
	case p.Allows(k):
		return ""
	case k == KindUnknown:
		return "Not called: the number is not in any range of its country's numbering plan."
	case p.Origin != Team:
		return "Not called: " + k.singular() + ". Numbers from outside the team (the storefront, " +
			"Zapier, HubSpot) are called only when they are landline or mobile numbers."
	}
	return "Not called: " + k.singular() + ". Only landline and mobile numbers are called unless the " +
		"workflow's campaign allows " + string(k) + " numbers in its settings (allowedNumberTypes)."
}

// Check answers the kind of the E.164 number e164 and why it may not be dialled under p
// ("" when it may).
func (p Policy) Check(e164 string) (Kind, string) {
	k := KindOf(e164)
	return k, p.Refusal(k)
}

// KindOf answers the kind of an E.164 number (KindUnknown for one that is not valid). The
// dialer asks it before every dial: a number in the form the contacts import writes
// (+<digits>) of a geographic region is read from the precompiled metadata, its region found
// as libphonenumber's GetRegionCodeForNumber finds it, without the library's per-call
// pattern cache; anything else goes through the library's parser.
func KindOf(e164 string) Kind {
	if k, ok := kindOfDigits(e164); ok {
		return k
	}
	n, err := phonenumbers.Parse(e164, "")
	if err != nil {
		return KindUnknown
	}
	return KindOfNumber(n, phonenumbers.GetRegionCodeForNumber(n))
}
