package workflows

import (
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/nyaruka/phonenumbers"
)

// NormalizePhone answers a number in E.164 with its region and first time zone, reading a
// number without a country code as one of region.
func NormalizePhone(raw, region string) (e164, reg string, tz *string, ok bool) {
	return newPhones(region).normalize(raw)
}

// phones normalises the numbers of one import. The common shapes (+<country><number>, and a
// 10-digit NANP number in a NANP region, with any spacing and punctuation) skip libphonenumber's
// parser, and regions are remembered by country code and first six national digits; a number
// the fast path does not accept goes through the full parser, so the fast path only saves time
// (TestFastPhonesAgreeWithTheParser checks they agree).
type phones struct {
	region  string
	cc      int
	regions map[phonePrefix]string
}

type phonePrefix struct {
	cc     int
	prefix string
}

func newPhones(region string) *phones {
	return &phones{region: region, cc: phonenumbers.GetCountryCodeForRegion(region), regions: map[phonePrefix]string{}}
}

func (p *phones) normalize(raw string) (e164, reg string, tz *string, ok bool) {
	e164, reg, tz, ok, final := p.fast(raw)
	if ok || final {
		return e164, reg, tz, ok
	}
	return slowPhone(raw, p.region)
}

func slowPhone(raw, region string) (e164, reg string, tz *string, ok bool) {
	num, err := phonenumbers.Parse(raw, region)
	if err != nil {
		return "", "", nil, false
	}
	// IsValidNumber would look the region up again: ask once, then check for it.
	reg = phonenumbers.GetRegionCodeForNumber(num)
	if reg == "" || !phonenumbers.IsValidNumberForRegion(num, reg) {
		return "", "", nil, false
	}
	return phonenumbers.Format(num, phonenumbers.E164), reg, timezone(num), true
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
func (p *phones) fast(raw string) (e164, reg string, tz *string, ok, final bool) {
	var digits [20]byte
	n, plus := 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c >= '0' && c <= '9':
			if n == len(digits) {
				return "", "", nil, false, false
			}
			digits[n] = c
			n++
		case c == '+' && n == 0 && !plus:
			plus = true
		case c == ' ' || c == '(' || c == ')' || c == '-' || c == '.' || c == '/' || c == '\t':
		default:
			return "", "", nil, false, false
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
		return "", "", nil, false, false
	}
	national, err := strconv.ParseUint(nsn, 10, 64)
	if err != nil {
		return "", "", nil, false, false
	}
	cc32 := int32(cc)
	num := &phonenumbers.PhoneNumber{CountryCode: &cc32, NationalNumber: &national}
	key := phonePrefix{cc, nsn[:min(6, len(nsn))]}
	reg, known := p.regions[key]
	if !known {
		reg = phonenumbers.GetRegionCodeForNumber(num)
		p.regions[key] = reg
	}
	if reg == "" || reg == phonenumbers.UNKNOWN_REGION || !validFor(num, nsn, reg) {
		return "", "", nil, false, final
	}
	e164 = "+" + strconv.Itoa(cc) + nsn
	tz = nil
	if zones, err := phonenumbers.GetTimezonesForPrefix(e164); err == nil && len(zones) > 0 && zones[0] != "Etc/Unknown" {
		tz = &zones[0]
	}
	return e164, reg, tz, true, true
}

// validFor answers phonenumbers.IsValidNumberForRegion(num, reg) for a number whose national
// significant number is nsn, with each region's patterns compiled once: the library builds the
// key of its regex cache from the whole pattern on every check (kilobytes of garbage a number,
// most of the import's time).
func validFor(num *phonenumbers.PhoneNumber, nsn, reg string) bool {
	r := regionRules(reg)
	if r == nil {
		return phonenumbers.IsValidNumberForRegion(num, reg)
	}
	if !r.general.match(nsn) {
		return false
	}
	return slices.ContainsFunc(r.types, func(d numberDesc) bool { return d.match(nsn) })
}

// numberDesc is a number type's possible lengths and national number pattern, as the library
// matches them (isNumberMatchingDesc): a length outside the possible ones does not match; no
// possible lengths means any length.
type numberDesc struct {
	lengths []int32
	re      *regexp.Regexp
}

func newNumberDesc(d *phonenumbers.PhoneNumberDesc) numberDesc {
	return numberDesc{lengths: d.GetPossibleLength(), re: regexp.MustCompile("^(?:" + d.GetNationalNumberPattern() + ")$")}
}

func (d numberDesc) match(nsn string) bool {
	if len(d.lengths) > 0 && !slices.Contains(d.lengths, int32(len(nsn))) {
		return false
	}
	return d.re.MatchString(nsn)
}

// regionRule is what makes a number valid in a region (the library's getNumberTypeHelper
// answering anything but UNKNOWN): the general pattern, and one of the number types'.
type regionRule struct {
	general numberDesc
	types   []numberDesc
}

var (
	rulesOnce sync.Once
	rules     map[string]*regionRule
)

// regionRules answers the rule of a geographic region (nil for the non-geographic "001" or
// when the metadata cannot be read: then the library decides).
func regionRules(reg string) *regionRule {
	rulesOnce.Do(func() {
		coll, err := phonenumbers.MetadataCollection()
		if err != nil {
			return
		}
		rules = map[string]*regionRule{}
		for _, md := range coll.GetMetadata() {
			if md.GetId() == "001" {
				continue
			}
			r := &regionRule{general: newNumberDesc(md.GetGeneralDesc())}
			for _, d := range []*phonenumbers.PhoneNumberDesc{md.GetFixedLine(), md.GetPremiumRate(), md.GetTollFree(), md.GetSharedCost(),
				md.GetVoip(), md.GetPersonalNumber(), md.GetPager(), md.GetUan(), md.GetVoicemail()} {
				r.types = append(r.types, newNumberDesc(d))
			}
			if !md.GetSameMobileAndFixedLinePattern() {
				r.types = append(r.types, newNumberDesc(md.GetMobile()))
			}
			rules[md.GetId()] = r
		}
	})
	return rules[reg]
}
