package phones

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// The numbers the storefront widget dialled in the attack of issue 20, and what they are.
var tollFraud = map[string]Kind{
	"+19005551234":  KindPremiumRate, // US 900
	"+449098790000": KindPremiumRate, // UK 09
	"+447010000000": KindPersonal,    // UK 070 "personal numbering"
	"+448712345678": KindPremiumRate, // UK 0871 (libphonenumber files 087x under premium rate)
	"+611900123456": KindPremiumRate, // Australia 1900
	"+353151234567": KindPremiumRate, // Ireland 15xx (libphonenumber: a loose Dublin landline)
	"+64900123456":  KindPremiumRate, // New Zealand 0900
}

func TestKindOf(t *testing.T) {
	for n, want := range tollFraud {
		if got := KindOf(n); got != want {
			t.Errorf("%s: %s, want %s", n, got, want)
		}
	}
	for n, want := range map[string]Kind{
		"+447911123456": KindMobile, "+442079460000": KindFixedLine, "+14155550123": KindFixedOrMobile,
		"+18005550199": KindTollFree, "+448001234567": KindTollFree, "+80012345678": KindInternational, "+870773111632": KindInternational,
		"+15555550123": KindUnknown, "not a number": KindUnknown, "+35312345678": KindFixedLine,
	} {
		if got := KindOf(n); got != want {
			t.Errorf("%s: %s, want %s", n, got, want)
		}
	}
}

// KindIn is libphonenumber's GetNumberType but for the range check: on every region's
// example numbers of every kind they agree, except where the check moves a landline or
// mobile into the range it lies in.
func TestKindInAgreesWithTheLibrary(t *testing.T) {
	lib := map[phonenumbers.PhoneNumberType]Kind{phonenumbers.FIXED_LINE: KindFixedLine, phonenumbers.MOBILE: KindMobile,
		phonenumbers.FIXED_LINE_OR_MOBILE: KindFixedOrMobile, phonenumbers.TOLL_FREE: KindTollFree,
		phonenumbers.PREMIUM_RATE: KindPremiumRate, phonenumbers.SHARED_COST: KindSharedCost, phonenumbers.VOIP: KindVoIP,
		phonenumbers.PERSONAL_NUMBER: KindPersonal, phonenumbers.PAGER: KindPager, phonenumbers.UAN: KindUAN,
		phonenumbers.VOICEMAIL: KindVoicemail, phonenumbers.UNKNOWN: KindUnknown}
	// Chile's 600 numbers are shared-cost (600 + 7 digits); libphonenumber's fixed-line
	// pattern also takes 600 + 6 digits, its example landline.
	moved := map[string]Kind{"+56600123456": KindSharedCost}
	n := 0
	for reg := range phonenumbers.GetSupportedRegions() {
		for typ := range lib {
			ex := phonenumbers.GetExampleNumberForType(reg, typ)
			if ex == nil {
				continue
			}
			n++
			e164 := phonenumbers.Format(ex, phonenumbers.E164)
			want := lib[phonenumbers.GetNumberType(ex)]
			if m, ok := moved[e164]; ok {
				want = m
			}
			if got := KindOfNumber(ex, phonenumbers.GetRegionCodeForNumber(ex)); got != want {
				t.Errorf("%s %s: %s, want %s", reg, e164, got, want)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d example numbers", n)
	}
}

// KindOf reads a number's region from the precompiled metadata as the library's
// GetRegionCodeForNumber does: on every region's example numbers of every kind, and near
// misses of them (a digit more, one less, the last one changed), it answers what the library's
// parser and region lead to.
func TestKindOfFindsTheLibrarysRegion(t *testing.T) {
	var inputs []string
	for reg := range phonenumbers.GetSupportedRegions() {
		for typ := phonenumbers.FIXED_LINE; typ <= phonenumbers.VOICEMAIL; typ++ {
			ex := phonenumbers.GetExampleNumberForType(reg, typ)
			if ex == nil {
				continue
			}
			e := phonenumbers.Format(ex, phonenumbers.E164)
			last := e[len(e)-1]
			inputs = append(inputs, e, e+"5", e[:len(e)-1], e[:len(e)-1]+string('0'+(last-'0'+3)%10))
		}
	}
	inputs = append(inputs, "+1", "+0123456", "+999123456789", "+80012345678", "+882123456789", "+1 415 555 0123", "+39061234567")
	for _, in := range inputs {
		want := KindUnknown
		if n, err := phonenumbers.Parse(in, ""); err == nil {
			want = KindOfNumber(n, phonenumbers.GetRegionCodeForNumber(n))
		}
		if got := KindOf(in); got != want {
			t.Errorf("%s: %s, the library's region: %s", in, got, want)
		}
	}
}

// beginnings matches exactly the beginnings of what the pattern matches: checked against
// every digit string up to three long, completed by up to three more digits (enough for
// these patterns: none needs more than three digits after any beginning).
func TestBeginnings(t *testing.T) {
	var short []string
	for l := 0; l <= 3; l++ {
		short = append(short, digitStrings(l)...)
	}
	for _, p := range []string{`1(?:1[2-8]|[2-8]0|9[089])`, `9\d{2,}`, `(?:4[2-5]|7[0-3])\d?`, `7[0-9]+1`, `12?3*`, `(?:01|2)`} {
		re := regexp.MustCompile("^(?:" + p + ")$")
		parsed, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		begins := regexp.MustCompile("^(?:" + beginnings(parsed).String() + ")$")
		for _, s := range short {
			want := slices.ContainsFunc(short, func(rest string) bool { return re.MatchString(s + rest) })
			if got := begins.MatchString(s); got != want {
				t.Fatalf("%s: %q begins a match: %v, want %v", p, s, got, want)
			}
		}
	}
}

// digitStrings are the strings of l digits.
func digitStrings(l int) []string {
	out := []string{""}
	for range l {
		next := make([]string, 0, len(out)*10)
		for _, s := range out {
			for d := '0'; d <= '9'; d++ {
				next = append(next, s+string(d))
			}
		}
		out = next
	}
	return out
}

func TestPolicy(t *testing.T) {
	for _, p := range []Policy{{}, {Origin: Outside, Allow: OptInKinds}, TeamPolicy(nil)} {
		for n, k := range tollFraud {
			if _, why := p.Check(n); why == "" || !strings.Contains(why, k.singular()) {
				t.Errorf("%+v: %s is dialled (%q)", p, n, why)
			}
		}
		for _, n := range []string{"+447911123456", "+442079460000", "+14155550123"} {
			if _, why := p.Check(n); why != "" {
				t.Errorf("%+v: %s refused: %s", p, n, why)
			}
		}
	}
	if why := (Policy{}).Refusal(KindPremiumRate); !strings.Contains(why, "outside the team") {
		t.Errorf("outside: %q", why)
	}
	team := TeamPolicy([]Kind{KindPremiumRate})
	if !team.Allows(KindPremiumRate) || team.Allows(KindSharedCost) || team.Allows(KindUnknown) {
		t.Errorf("team policy allowing premium-rate: %+v", team)
	}
	if why := team.Refusal(KindSharedCost); !strings.Contains(why, "allows shared-cost numbers") {
		t.Errorf("team: %q", why)
	}
	if TeamPolicy([]Kind{KindUnknown}).Allows(KindUnknown) {
		t.Error("unknown numbers are dialled")
	}
}

func TestParseKinds(t *testing.T) {
	got, err := ParseKinds([]string{"voip", "premium-rate", "voip"})
	if err != nil || !slices.Equal(got, []Kind{KindPremiumRate, KindVoIP}) {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"mobile", "unknown", "Premium-Rate", ""} {
		if _, err := ParseKinds([]string{bad}); err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if got, err := ParseKinds(nil); err != nil || got == nil || len(got) != 0 {
		t.Errorf("none: %#v %v", got, err)
	}
}

// KindOf is what the dialer asks of every number it is about to dial.
func BenchmarkKindOf(b *testing.B) {
	numbers := []string{"+14155550123", "+12125550100", "+442079460000", "+447400123456", "+61212345678", "+19005551234"}
	KindOf(numbers[0]) // the metadata, compiled once a process
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		KindOf(numbers[i%len(numbers)])
	}
}
