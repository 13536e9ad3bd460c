package workflows

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"

	tel "github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

func TestContactFromRow(t *testing.T) {
	cols := []column{colPhone, colFirstName, colStage, colExtra}
	names := []string{"Phone", "First", "Stage", "Plan"}
	c := ContactFromRow([]string{" (415) 555-0123 ", "Ada", "Marketing_Lead", "gold"}, cols, names, "US")
	if c.Phone != "+14155550123" || c.Status != store.ContactPending || *c.Region != "US" || c.TimeZone == nil ||
		*c.TimeZone != "America/Los_Angeles" || *c.LifecycleStage != "marketing lead" || *c.Extra != `{"Plan":"gold"}` {
		t.Errorf("%+v", c)
	}
	c = ContactFromRow([]string{"020 7183 8750", "", "whale", ""}, cols, names, "GB")
	if c.Phone != "+442071838750" || *c.Region != "GB" || *c.LifecycleStage != "other" || c.FirstName != nil || c.Extra != nil {
		t.Errorf("%+v", c)
	}
	c = ContactFromRow([]string{"12345"}, cols, names, "US")
	if c.Status != store.ContactFailed || c.Phone != "12345" || *c.LastError != "Invalid phone number" {
		t.Errorf("%+v", c)
	}
	c = ContactFromRow([]string{""}, cols, names, "US")
	if c.Status != store.ContactFailed || *c.LastError != "No phone number" {
		t.Errorf("%+v", c)
	}
}

// A number of a kind beyond landlines and mobiles is kept, normalised, failed with the
// reason, unless the policy allows its kind: a CSV row under its campaign's opt-in, never a
// CRM's or a zap's.
func TestCostlyNumbersAreFailedRows(t *testing.T) {
	cols, names := []column{colPhone}, []string{"phone"}
	row := func(number string, numbers tel.Policy) store.Contact {
		p := newPhones("GB")
		p.numbers = numbers
		return contactFromRow([]string{number}, cols, names, p)
	}
	premium := tel.TeamPolicy([]tel.Kind{tel.KindPremiumRate})
	for _, c := range []struct {
		number  string
		numbers tel.Policy
		want    string // "" when called, else a word of the reason
	}{
		{"09098 790000", tel.TeamPolicy(nil), "premium-rate"},
		{"09098 790000", premium, ""},
		{"070 1000 0000", premium, "personal forwarding"},
		{"+1 900 555 1234", tel.Policy{}, "outside the team"},
		{"+1 900 555 1234", tel.Policy{Origin: tel.Outside, Allow: []tel.Kind{tel.KindPremiumRate}}, "outside the team"},
		{"07911 123456", tel.Policy{}, ""},
		{"020 7946 0000", tel.Policy{}, ""},
	} {
		got := row(c.number, c.numbers)
		switch {
		case c.want == "" && got.Status != store.ContactPending:
			t.Errorf("%s under %+v: %s %v", c.number, c.numbers, got.Status, *got.LastError)
		case c.want != "" && (got.Status != store.ContactFailed || !strings.HasPrefix(got.Phone, "+") || got.TimeZone == nil ||
			!strings.Contains(*got.LastError, c.want)):
			t.Errorf("%s under %+v: %+v", c.number, c.numbers, got)
		}
	}
	if c := ContactFromFields("+1 900 555 1234", "Ann", "", "", "", ""); c.Status != store.ContactFailed {
		t.Errorf("a CRM's premium-rate number: %+v", c)
	}
}

// The fast path answers what libphonenumber's parser answers, for every shape it takes.
func TestFastPhonesAgreeWithTheParser(t *testing.T) {
	var inputs []string
	for i := 0; i < 3000; i++ {
		inputs = append(inputs,
			fmt.Sprintf("(%03d) %03d-%04d", 200+i%800, 200+i%700, i),
			fmt.Sprintf("1-%03d-555-%04d", 200+i%800, i),
			fmt.Sprintf("+1 %03d 555 %04d", 200+i%800, i),
			fmt.Sprintf("+44 %d%03d %06d", 1+i%9, i%1000, i),
			fmt.Sprintf("+7 %03d %07d", 700+i%300, i),
			fmt.Sprintf("+33 %d %08d", 1+i%9, i),
			fmt.Sprintf("+%d%09d", 20+i%80, i),
			fmt.Sprintf("%010d", i*7919),
		)
	}
	inputs = append(inputs, "+1 876 555 0123", "+1 416 555 0123", "+44 1481 712345", "+44 7781 123456", "+39 06 1234 5678",
		"12345", "", "+", "+0 123", "415-555-0123 ext. 4", "tel:+14155550123")
	// Every region's example number of every type, and near misses of it (a digit more, one
	// less, the last one changed): the fast path's own pattern checks meet each region's rules.
	for region := range phonenumbers.GetSupportedRegions() {
		for _, typ := range []phonenumbers.PhoneNumberType{phonenumbers.FIXED_LINE, phonenumbers.MOBILE, phonenumbers.TOLL_FREE,
			phonenumbers.PREMIUM_RATE, phonenumbers.SHARED_COST, phonenumbers.VOIP, phonenumbers.PERSONAL_NUMBER, phonenumbers.PAGER,
			phonenumbers.UAN, phonenumbers.VOICEMAIL} {
			ex := phonenumbers.GetExampleNumberForType(region, typ)
			if ex == nil {
				continue
			}
			e := phonenumbers.Format(ex, phonenumbers.E164)
			last := e[len(e)-1]
			inputs = append(inputs, e, e+"5", e[:len(e)-1], e[:len(e)-1]+string('0'+(last-'0'+3)%10))
		}
	}
	for _, region := range []string{"US", "GB"} {
		p := newPhones(region)
		for _, in := range inputs {
			e1, r1, z1, k1, ok1 := p.normalize(in)
			e2, r2, z2, k2, ok2 := slowPhone(in, region)
			if e1 != e2 || r1 != r2 || k1 != k2 || ok1 != ok2 || (z1 == nil) != (z2 == nil) || z1 != nil && *z1 != *z2 {
				t.Fatalf("%s %q: fast %q %q %s %v, parser %q %q %s %v", region, in, e1, r1, k1, ok1, e2, r2, k2, ok2)
			}
		}
	}
}

// The rejected rows are the file's own, numbered as the import numbers them (blank rows do not
// count), under its header, with the reason last and formula-like cells defused.
func TestRejectedCSV(t *testing.T) {
	file := "\ufeffphone,Reason,note\n+14155550123,a,ok\n\n,,\nnope,b,=cmd|' /C calc'!A0\n+1 415 555 0124,c\n-,d,-12 34\n"
	got, err := rejectedCSV(strings.NewReader(file), map[int]string{2: "Invalid phone number", 4: "No phone number"})
	want := "phone,Reason,note,rejection reason\nnope,b,'=cmd|' /C calc'!A0,Invalid phone number\n'-,d,-12 34,No phone number\n"
	if err != nil || string(got) != want {
		t.Errorf("%v\n%s\nwant\n%s", err, got, want)
	}
}

// A number written with letters is refused with the reason, never read as the digits the
// phone-number library would guess, unless the import turns letter conversion on; a CRM's or a
// zap's numbers are never converted.
func TestLettersInTheNumber(t *testing.T) {
	cols, names := []column{colPhone}, []string{"phone"}
	row := func(number string, letters bool) store.Contact {
		p := newPhones("US")
		p.numbers, p.letters = tel.TeamPolicy(nil), letters
		return contactFromRow([]string{number}, cols, names, p)
	}
	for _, number := range []string{"+1-41A-555-ZZZZ", "1-800-FLOWERS", "(415) 555-0123 ext. 7", "+1 415 555 O123"} {
		got := row(number, false)
		if got.Status != store.ContactFailed || got.Phone != number || got.LastError == nil || !strings.Contains(*got.LastError, "letters in the number") {
			t.Errorf("%s without conversion: %+v", number, got)
		}
	}
	if got := row("+1-41A-555-ZZZZ", true); got.Status != store.ContactPending || got.Phone != "+14125559999" {
		t.Errorf("with conversion: %+v", got)
	}
	if got := row("1-800-flowers", true); got.Phone != "+18003569377" {
		t.Errorf("with conversion, lower case: %+v", got)
	}
	// Words with a digit are no number: invalid, with or without conversion (never keypad digits).
	for _, letters := range []bool{false, true} {
		if got := row("not a number 7", letters); got.Status != store.ContactFailed || got.LastError == nil || *got.LastError != "Invalid phone number" {
			t.Errorf("words with a digit (conversion %v): %+v", letters, got)
		}
	}
	if got := row("(415) 555-0123", false); got.Status != store.ContactPending || got.Phone != "+14155550123" {
		t.Errorf("digits only: %+v", got)
	}
	if c := ContactFromFields("+1-41A-555-ZZZZ", "Ann", "", "", "", ""); c.Status != store.ContactFailed || !strings.Contains(*c.LastError, "letters in the number") {
		t.Errorf("a CRM's number with letters: %+v", c)
	}
	if got := keypadDigits("ABCDEFGHIJKLMNOPQRSTUVWXYZ"); got != "22233344455566677778889999" {
		t.Errorf("keypad: %s", got)
	}
}
