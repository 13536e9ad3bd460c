package workflows

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/nyaruka/phonenumbers"

	tel "github.com/bettyhq/betty/server/phones"
)

// NormalizePhone answers a number in E.164 with its region and first time zone, reading a
// number without a country code as one of region.
func NormalizePhone(raw, region string) (e164, reg string, tz *string, ok bool) {
	e164, reg, tz, _, ok = newPhones(region).normalize(raw)
	return e164, reg, tz, ok
}

// phones normalises the numbers of one import. The common shapes (+<country><number>, and a
// 10-digit NANP number in a NANP region, with any spacing and punctuation) skip libphonenumber's
// parser, and regions are remembered by country code and first six national digits; a number
// the fast path does not accept goes through the full parser, so the fast path only saves time
// (TestFastPhonesAgreeWithTheParser checks they agree). Each number's kind comes from the
// same precompiled metadata (tel.KindIn), and numbers says which kinds are called: the zero
// policy, landlines and mobiles only, for numbers from outside the team (Zapier, HubSpot);
// a CSV import sets its campaign's.
type phones struct {
	region string
	// letters, when the team turned on letter conversion for a CSV import, reads the letters
	// of a vanity number (1-800-FLOWERS) as the digits of a phone keypad; otherwise a number
	// with letters is refused, never guessed (the phone-number library would silently read
	// +1-41A-555-ZZZZ as +14125559999 and the dialer would call someone nobody named).
	letters bool
	cc      int
	regions map[phonePrefix]string
	numbers tel.Policy
}

type phonePrefix struct {
	cc     int
	prefix string
}

func newPhones(region string) *phones {
	return &phones{region: region, cc: phonenumbers.GetCountryCodeForRegion(region), regions: map[phonePrefix]string{}}
}

// LettersRefusal is the reason a number written with letters is refused when letter
// conversion is off.
const LettersRefusal = "Invalid phone number: letters in the number (import the file with letter conversion on to read them as keypad digits)"

// hasLetters says whether a number is written with letters among its digits: letters beside
// at least three digits, as in "1-800-FLOWERS" or "+1-41A-555-ZZZZ". Words with a digit or two
// ("n/a", "not a number 7", "room 12") are no number at all: an invalid one, never read as
// keypad digits. A trailing extension ("ext. 12", "x12") counts: the dialer could not dial it,
// so the number is refused rather than cut short.
func hasLetters(raw string) bool {
	letters, digits := false, 0
	for _, r := range raw {
		letters = letters || unicode.IsLetter(r)
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return letters && digits >= 3
}

// keypadDigits spells the ASCII letters of a number as the digits of a standard phone keypad
// (ABC=2, DEF=3, GHI=4, JKL=5, MNO=6, PQRS=7, TUV=8, WXYZ=9); other characters stay as they are.
func keypadDigits(raw string) string {
	const keypad = "22233344455566677778889999"
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return rune(keypad[r-'a'])
		case r >= 'A' && r <= 'Z':
			return rune(keypad[r-'A'])
		}
		return r
	}, raw)
}

func (p *phones) normalize(raw string) (e164, reg string, tz *string, kind tel.Kind, ok bool) {
	if p.letters && hasLetters(raw) {
		raw = keypadDigits(raw)
	}
	e164, reg, tz, kind, ok, final := p.fast(raw)
	if ok || final {
		return e164, reg, tz, kind, ok
	}
	return slowPhone(raw, p.region)
}

func slowPhone(raw, region string) (e164, reg string, tz *string, kind tel.Kind, ok bool) {
	num, err := phonenumbers.Parse(raw, region)
	if err != nil {
		return "", "", nil, tel.KindUnknown, false
	}
	// IsValidNumber would look the region up again: ask once, then check for it (a number of
	// no kind is not valid).
	reg = phonenumbers.GetRegionCodeForNumber(num)
	if kind = tel.KindOfNumber(num, reg); kind == tel.KindUnknown {
		return "", "", nil, kind, false
	}
	return phonenumbers.Format(num, phonenumbers.E164), reg, timezone(num), kind, true
}

func timezone(num *phonenumbers.PhoneNumber) *string {
	if zones, err := phonenumbers.GetTimezonesForNumber(num); err == nil && len(zones) > 0 && zones[0] != "Etc/Unknown" {
		return &zones[0]
	}
	return nil
}

// fast answers ok for a number it accepts; final when its refusal is the parser's too: a
// 10-digit NANP number starting 2–9 in a NANP region is one the parser reads exactly as the
// fast path does (no country code to extract, no national prefix to strip), so a number of
// that shape the fast path finds invalid is invalid.
func (p *phones) fast(raw string) (e164, reg string, tz *string, kind tel.Kind, ok, final bool) {
	var digits [20]byte
	n, plus := 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c >= '0' && c <= '9':
			if n == len(digits) {
				return "", "", nil, tel.KindUnknown, false, false
			}
			digits[n] = c
			n++
		case c == '+' && n == 0 && !plus:
			plus = true
		case c == ' ' || c == '(' || c == ')' || c == '-' || c == '.' || c == '/' || c == '\t':
		default:
			return "", "", nil, tel.KindUnknown, false, false
		}
	}
	d := string(digits[:n])
	cc, nsn := 0, ""
	switch {
	case plus:
		for l := 1; l <= 3 && l < len(d); l++ {
			c, _ := strconv.Atoi(d[:l])
			if phonenumbers.GetRegionCodeForCountryCode(c) != phonenumbers.UNKNOWN_REGION {
				cc, nsn = c, d[l:]
				break
			}
		}
	case p.cc == 1 && len(d) == 11 && d[0] == '1':
		cc, nsn = 1, d[1:]
	case p.cc == 1 && len(d) == 10:
		cc, nsn = 1, d
		final = d[0] >= '2'
	}
	if cc == 0 || len(nsn) < 4 || len(nsn) > 17 || nsn[0] == '0' {
		return "", "", nil, tel.KindUnknown, false, false
	}
	national, err := strconv.ParseUint(nsn, 10, 64)
	if err != nil {
		return "", "", nil, tel.KindUnknown, false, false
	}
	cc32 := int32(cc)
	num := &phonenumbers.PhoneNumber{CountryCode: &cc32, NationalNumber: &national}
	key := phonePrefix{cc, nsn[:min(6, len(nsn))]}
	reg, known := p.regions[key]
	if !known {
		reg = phonenumbers.GetRegionCodeForNumber(num)
		p.regions[key] = reg
	}
	if reg == "" || reg == phonenumbers.UNKNOWN_REGION {
		return "", "", nil, tel.KindUnknown, false, final
	}
	kind, known = tel.KindIn(nsn, reg)
	if !known {
		kind = tel.KindOfNumber(num, reg)
	}
	if kind == tel.KindUnknown {
		return "", "", nil, kind, false, final
	}
	e164 = "+" + strconv.Itoa(cc) + nsn
	tz = nil
	if zones, err := phonenumbers.GetTimezonesForPrefix(e164); err == nil && len(zones) > 0 && zones[0] != "Etc/Unknown" {
		tz = &zones[0]
	}
	return e164, reg, tz, kind, true, true
}
