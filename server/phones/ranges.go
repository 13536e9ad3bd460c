package phones

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"sync"

	"github.com/nyaruka/phonenumbers"
)

// The kind of a number, read from libphonenumber's metadata with each region's patterns
// compiled once: the library builds the key of its regex cache from the whole pattern on
// every check (kilobytes of garbage a number), which would be most of a contacts import's
// time (server/workflows/phones.go classifies every imported number here).

// KindOfNumber answers the kind of n, a number of region (phonenumbers.GetRegionCodeForNumber).
func KindOfNumber(n *phonenumbers.PhoneNumber, region string) Kind {
	if region == "" || region == phonenumbers.UNKNOWN_REGION {
		return KindUnknown
	}
	if k, ok := KindIn(phonenumbers.GetNationalSignificantNumber(n), region); ok {
		return k
	}
	// The international networks ("001") share one region id across calling codes: the
	// library reads them by calling code.
	if !phonenumbers.IsValidNumberForRegion(n, region) {
		return KindUnknown
	}
	return KindInternational
}

// KindIn answers the kind of a number whose national significant number is nsn in the
// geographic region region; ok is false when region has no metadata of its own (the
// international networks, "001"): then ask KindOfNumber.
//
// It is libphonenumber's GetNumberType (getNumberTypeHelper, the same order of checks), with
// one addition: a landline or mobile number whose leading digits lie in the range of another
// kind (it is the beginning of a longer number of that kind) is of that kind.
// Carriers price a call by the longest prefix of the number in their rate table, not by its
// length, so +353 15 1234567 (libphonenumber: a Dublin landline, as its fixed-line pattern
// is loose about lengths) is billed as the Irish premium-rate range 15xx it starts with.
func KindIn(nsn, region string) (Kind, bool) {
	r := regionRules(region)
	if r == nil {
		return KindUnknown, false
	}
	return r.kind(nsn), true
}

// kindOfDigits answers the kind of "+<country code><national number>" of a geographic
// region when it finds the number valid; ok is false otherwise, and then the library decides
// (its parser also strips and transforms national prefixes, which an invalid-looking number
// may need, and reads the international networks): this only saves time.
func kindOfDigits(e164 string) (Kind, bool) {
	if len(e164) < 5 || len(e164) > 20 || e164[0] != '+' {
		return KindUnknown, false
	}
	for i := 1; i < len(e164); i++ {
		if e164[i] < '0' || e164[i] > '9' {
			return KindUnknown, false
		}
	}
	// Country calling codes are prefix-free: the first one that names a region is the one.
	for l := 1; l <= 3; l++ {
		cc, _ := strconv.Atoi(e164[1 : 1+l])
		regions := phonenumbers.GetRegionCodesForCountryCode(cc)
		if len(regions) == 0 {
			continue
		}
		nsn := e164[1+l:]
		if nsn == "" || nsn[0] == '0' {
			return KindUnknown, false
		}
		for _, reg := range regions {
			r := regionRules(reg)
			if r == nil {
				return KindUnknown, false // the international networks: the library reads them
			}
			// getRegionCodeForNumberFromRegionList: a region's leading digits decide when it
			// has them (a single region is the number's whatever they are); else the first
			// region where the number is valid.
			switch {
			case len(regions) == 1, r.leading != nil && r.leading.MatchString(nsn):
				k := r.kind(nsn)
				return k, k != KindUnknown
			case r.leading == nil:
				if k := r.kind(nsn); k != KindUnknown {
					return k, true
				}
			}
		}
		return KindUnknown, false
	}
	return KindUnknown, false
}

// numberDesc is a kind's possible lengths and national number pattern, as the library
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

// rangeDesc is a kind checked before landlines and mobiles, with what it takes to tell
// whether a number lies in its range.
type rangeDesc struct {
	numberDesc
	kind Kind
	// begins matches every beginning of the kind's numbers; nil when the region has none.
	begins *regexp.Regexp
	// longest is the kind's longest possible length.
	longest int
	// leads are the two digits the kind's numbers may start with: most numbers are refused
	// by a bit instead of a regular expression (a contacts import checks eight kinds a row).
	leads [2]uint64
}

// may says whether nsn may be a number of the kind, or the beginning of one, by its first two
// digits.
func (d rangeDesc) may(nsn string) bool {
	if len(nsn) < 2 || nsn[0] < '0' || nsn[0] > '9' || nsn[1] < '0' || nsn[1] > '9' {
		return true
	}
	i := int(nsn[0]-'0')*10 + int(nsn[1]-'0')
	return d.leads[i/64]&(1<<(i%64)) != 0
}

func newRangeDesc(k Kind, d *phonenumbers.PhoneNumberDesc) rangeDesc {
	r := rangeDesc{numberDesc: newNumberDesc(d), kind: k}
	p := d.GetNationalNumberPattern()
	if p == "" || p == "NA" || slices.Contains(d.GetPossibleLength(), -1) {
		return r // the region has no numbers of this kind
	}
	for _, l := range d.GetPossibleLength() {
		r.longest = max(r.longest, int(l))
	}
	re, err := syntax.Parse(p, syntax.Perl)
	if err == nil {
		r.begins, err = regexp.Compile("^(?:" + beginnings(re).String() + ")$")
	}
	if err != nil {
		r.begins, r.leads = nil, [2]uint64{^uint64(0), ^uint64(0)} // never refused by its leading digits
		return r
	}
	for i := range 100 {
		if r.begins.MatchString(string([]byte{'0' + byte(i/10), '0' + byte(i%10)})) {
			r.leads[i/64] |= 1 << (i % 64)
		}
	}
	return r
}

// inRange says whether nsn lies in the kind's range: it is the beginning of one of its
// longer numbers.
func (d rangeDesc) inRange(nsn string) bool {
	if d.begins == nil {
		return false
	}
	return len(nsn) < d.longest && d.may(nsn) && d.begins.MatchString(nsn)
}

// beginnings answers a pattern matching exactly the beginnings (prefixes, the empty one and
// whole matches included) of the strings re matches.
func beginnings(re *syntax.Regexp) *syntax.Regexp {
	empty := &syntax.Regexp{Op: syntax.OpEmptyMatch}
	alt := func(subs ...*syntax.Regexp) *syntax.Regexp { return &syntax.Regexp{Op: syntax.OpAlternate, Sub: subs} }
	cat := func(subs ...*syntax.Regexp) *syntax.Regexp { return &syntax.Regexp{Op: syntax.OpConcat, Sub: subs} }
	switch re.Op {
	case syntax.OpLiteral:
		out := []*syntax.Regexp{empty}
		for i := 1; i <= len(re.Rune); i++ {
			out = append(out, &syntax.Regexp{Op: syntax.OpLiteral, Rune: re.Rune[:i], Flags: re.Flags})
		}
		return alt(out...)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return alt(empty, re)
	case syntax.OpCapture:
		return beginnings(re.Sub[0])
	case syntax.OpConcat:
		// The beginnings of ab…z: a beginning of a, or all of a and a beginning of b…z.
		out := make([]*syntax.Regexp, 0, len(re.Sub))
		for i := range re.Sub {
			out = append(out, cat(append(slices.Clone(re.Sub[:i]), beginnings(re.Sub[i]))...))
		}
		return alt(out...)
	case syntax.OpAlternate:
		out := make([]*syntax.Regexp, len(re.Sub))
		for i, s := range re.Sub {
			out[i] = beginnings(s)
		}
		return alt(out...)
	case syntax.OpQuest:
		return beginnings(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return cat(&syntax.Regexp{Op: syntax.OpStar, Sub: re.Sub[:1], Flags: re.Flags}, beginnings(re.Sub[0]))
	case syntax.OpRepeat:
		if re.Max == 0 {
			return empty
		}
		most := re.Max - 1
		if re.Max < 0 {
			most = -1
		}
		return cat(&syntax.Regexp{Op: syntax.OpRepeat, Min: 0, Max: most, Sub: re.Sub[:1], Flags: re.Flags}, beginnings(re.Sub[0]))
	}
	return re // anchors and empty matches: only the empty beginning
}

// regionRule is a region's metadata as kind needs it.
type regionRule struct {
	general numberDesc
	// ranges are the kinds libphonenumber checks before landlines and mobiles, in its order.
	ranges        []rangeDesc
	fixed, mobile numberDesc
	sameMobile    bool
	// leading are the region's leading digits, when its metadata has them (regions sharing a
	// country calling code).
	leading *regexp.Regexp
}

// kind is getNumberTypeHelper, then the range check (KindIn).
func (r *regionRule) kind(nsn string) Kind {
	if !r.general.match(nsn) {
		return KindUnknown
	}
	for _, d := range r.ranges {
		if d.may(nsn) && d.match(nsn) {
			return d.kind
		}
	}
	k := KindUnknown
	switch {
	case r.fixed.match(nsn):
		k = KindFixedLine
		if r.sameMobile || r.mobile.match(nsn) {
			k = KindFixedOrMobile
		}
	case !r.sameMobile && r.mobile.match(nsn):
		k = KindMobile
	default:
		return KindUnknown
	}
	for _, d := range r.ranges {
		if d.inRange(nsn) {
			return d.kind
		}
	}
	return k
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
			r := &regionRule{general: newNumberDesc(md.GetGeneralDesc()),
				ranges: []rangeDesc{newRangeDesc(KindPremiumRate, md.GetPremiumRate()), newRangeDesc(KindTollFree, md.GetTollFree()),
					newRangeDesc(KindSharedCost, md.GetSharedCost()), newRangeDesc(KindVoIP, md.GetVoip()),
					newRangeDesc(KindPersonal, md.GetPersonalNumber()), newRangeDesc(KindPager, md.GetPager()),
					newRangeDesc(KindUAN, md.GetUan()), newRangeDesc(KindVoicemail, md.GetVoicemail())},
				fixed: newNumberDesc(md.GetFixedLine()), mobile: newNumberDesc(md.GetMobile()),
				sameMobile: md.GetSameMobileAndFixedLinePattern()}
			if ld := md.GetLeadingDigits(); ld != "" {
				r.leading = regexp.MustCompile("^(?:" + ld + ")")
			}
			rules[md.GetId()] = r
		}
	})
	return rules[reg]
}
