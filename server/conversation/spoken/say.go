package spoken

import (
	"regexp"
	"strconv"
	"strings"
)

// Say reads a sentence as a person would say it, for a speech synthesiser that would
// otherwise spell symbols out or read digits as one number:
//
//   - times: "9:00–17:00" → "9 a.m. to 5 p.m.", "9am-5pm" → "9 a.m. to 5 p.m.", "9-11am" →
//     "9 to 11 a.m.", "12:00" → "noon", "0:00" → "midnight", "14:30" → "2:30 p.m."; a time
//     before 13:00 without a.m. or p.m. is said as written ("9:30"), unless a range's
//     other end is on the 24-hour clock;
//   - days and months: "Mon–Fri" → "Monday to Friday", "Sat" → "Saturday", "Mar 14" →
//     "March 14", "2025-03-14" → "March 14, 2025";
//   - money: "$1,200" → "1,200 dollars", "$19.99" → "19 dollars 99", "$0.50" → "50 cents",
//     "$5-$10" → "5 dollars to 10 dollars",
//     "£5" → "5 pounds", "€3k" → "3 thousand euros", "20 USD" → "20 dollars", and "/month",
//     "/yr", "/user" … → "a month", "a year", "per user";
//   - "15%" → "15 percent", "3–5 days" → "3 to 5 days", "24/7" → "24 hours a day, 7 days a
//     week", "~20" or "approx. 20" → "about 20", "No. 5" or "#5" → "number 5";
//   - units after a number: "30 kg" → "30 kilograms", "1 km" → "1 kilometre", "5 GB",
//     "10 min", "2 hrs", "20°C" …;
//   - phone numbers digit by digit in their groups: "+1 (415) 555-0123" → "plus 1, 4 1 5,
//     5 5 5, 0 1 2 3";
//   - e-mail and web addresses: "help@acme.com" → "help at acme dot com";
//   - abbreviations: "e.g." → "for example", "i.e." → "that is", "etc." → "and so on",
//     "vs." → "versus", "incl." → "including", "w/" → "with", "&" → "and".
func Say(s string) string {
	s = strings.TrimSpace(s)
	end := ""
	if n := len(s); n > 0 && strings.ContainsRune(".!?", rune(s[n-1])) {
		end = s[n-1:] // kept when a reading takes it ("… on Sat." → "… on Saturday.")
	}
	for _, r := range readings {
		if r.when(s) {
			s = r.read(s)
		}
	}
	s = strings.ReplaceAll(strings.Join(strings.Fields(s), " "), ".m..", ".m.") // "5 p.m." closing a sentence
	if end != "" && !strings.HasSuffix(s, end) && !strings.HasSuffix(s, ".") {
		s += end
	}
	return s
}

// readings are Say's rules in the order they apply, each with what a text must hold for it
// to apply: most sentences hold no digit, and skip most rules unread.
var readings = []struct {
	when func(string) bool
	read func(string) string
}{
	{holds("@"), func(s string) string { return reEmail.ReplaceAllStringFunc(s, sayEmail) }},
	{func(s string) bool { return strings.Contains(s, "http") || strings.Contains(s, "www.") },
		func(s string) string { return reURL.ReplaceAllStringFunc(s, sayURL) }},
	{holds("24/7"), func(s string) string { return strings.ReplaceAll(s, "24/7", "24 hours a day, 7 days a week") }},
	{digitsAnd("-"), func(s string) string { return reISODate.ReplaceAllStringFunc(s, sayISODate) }},
	{digitsAnd(""), func(s string) string { return rePhone.ReplaceAllStringFunc(s, sayPhone) }},
	{digitsAnd(""), func(s string) string { return reTimeRange.ReplaceAllStringFunc(s, sayTimeRange) }},
	{digitsAnd(""), func(s string) string {
		return reTime.ReplaceAllStringFunc(s, func(m string) string {
			t, _ := parseTime(m)
			return t.say(false)
		})
	}},
	{func(string) bool { return true }, func(s string) string {
		return reDayAbbr.ReplaceAllStringFunc(s, func(m string) string { return days[strings.TrimSuffix(m, ".")] })
	}},
	{holds("day"), func(s string) string { return reDayRange.ReplaceAllString(s, "$1 to $2") }},
	{digitsAnd(""), func(s string) string {
		return reMonthAbbr.ReplaceAllStringFunc(s, func(m string) string {
			f := strings.Fields(m)
			return months[strings.TrimSuffix(f[0], ".")] + " " + f[1]
		})
	}},
	{digitsAnd("$£€"), func(s string) string {
		s = reMoney.ReplaceAllStringFunc(s, sayMoney)
		return reMoneyRange.ReplaceAllString(s, "$1 to $2")
	}},
	{digitsAnd("USDGBPEUR"), func(s string) string {
		return reCurrencyCode.ReplaceAllStringFunc(s, func(m string) string {
			f := reCurrencyCode.FindStringSubmatch(m)
			return plural(f[1], currencies[codes[f[2]]])
		})
	}},
	{holds("/"), func(s string) string {
		for range 3 { // "$12/user/mo": each "/" after the last
			s = rePer.ReplaceAllStringFunc(s, func(m string) string {
				f := rePer.FindStringSubmatch(m)
				return f[1] + " " + per[strings.ToLower(f[2])]
			})
		}
		return s
	}},
	{holds("%"), func(s string) string { return rePercent.ReplaceAllString(s, "$1 percent") }},
	{digitsAnd("-–—"), func(s string) string { return reNumRange.ReplaceAllStringFunc(s, sayNumRange) }},
	{digitsAnd(""), func(s string) string {
		return reUnit.ReplaceAllStringFunc(s, func(m string) string {
			f := reUnit.FindStringSubmatch(m)
			u := units[f[2]]
			if u == [2]string{} {
				u = units[strings.ToLower(f[2])]
			}
			if f[1] == "1" {
				return f[1] + " " + u[0]
			}
			return f[1] + " " + u[1]
		})
	}},
	{func(string) bool { return true }, func(s string) string {
		for _, a := range abbreviations {
			if strings.Contains(s, a.holds) {
				s = a.re.ReplaceAllString(s, a.with)
			}
		}
		return s
	}},
}

// holds is a text holding sub.
func holds(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, sub) }
}

// digitsAnd is a text holding a digit and one of chars (any text with a digit for "").
func digitsAnd(chars string) func(string) bool {
	return func(s string) bool {
		return strings.ContainsAny(s, "0123456789") && (chars == "" || strings.ContainsAny(s, chars))
	}
}

var (
	reEmail = regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`)
	reURL   = regexp.MustCompile(`\b(?:https?://|www\.)[^\s<>()]*[^\s<>().,;:!?'"]`)
)

func sayEmail(m string) string {
	at := strings.LastIndex(m, "@")
	return sayDots(m[:at]) + " at " + sayDots(m[at+1:])
}

func sayURL(m string) string {
	m = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(m, "https://"), "http://"), "www.")
	m = strings.TrimSuffix(m, "/")
	return strings.ReplaceAll(sayDots(m), "/", " slash ")
}

func sayDots(s string) string { return strings.ReplaceAll(s, ".", " dot ") }

var (
	reISODate  = regexp.MustCompile(`\b(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b`)
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

func sayISODate(m string) string {
	f := reISODate.FindStringSubmatch(m)
	mo, _ := strconv.Atoi(f[2])
	d, _ := strconv.Atoi(f[3])
	return monthNames[mo-1] + " " + strconv.Itoa(d) + ", " + f[1]
}

// rePhone is a number dialled, not counted: an international one (+…), one with an area code
// in brackets, or three groups of digits.
var rePhone = regexp.MustCompile(`(?:\+\d{1,3}(?:[ .-]?\(?\d{1,5}\)?){2,5}|\(\d{2,5}\) ?\d{3,4}[ .-]?\d{3,4}|\b(?:1[ -])?\d{3,5}[ -]\d{3,4}[ -]\d{3,4})\b`)

var reDigits = regexp.MustCompile(`\d+`)

func sayPhone(m string) string {
	var groups []string
	for _, g := range reDigits.FindAllString(m, -1) {
		groups = append(groups, strings.Join(strings.Split(g, ""), " "))
	}
	out := strings.Join(groups, ", ")
	if strings.HasPrefix(m, "+") {
		out = "plus " + out
	}
	return out
}

// A clock time: "9", "9:30", "17:00", each with an optional "am", "a.m.", "PM" ….
const timePat = `(\d{1,2})(?::([0-5]\d))?(?:\s?([AaPp])\.?[Mm]\b\.?)?`

var (
	reTimeRange = regexp.MustCompile(`\b` + timePat + `\s*(?:–|—|-|to|until|till)\s*` + timePat)
	reTime      = regexp.MustCompile(`\b(?:\d{1,2}:[0-5]\d\b(?:\s?[AaPp]\.?[Mm]\b\.?)?|\d{1,2}\s?[AaPp]\.?[Mm]\b\.?)`)
	reOneTime   = regexp.MustCompile(`^` + timePat + `$`)
)

type clock struct {
	h, m   int
	colon  bool
	marker string // "a", "p" or ""
}

func parseTime(s string) (clock, bool) {
	f := reOneTime.FindStringSubmatch(strings.TrimSpace(s))
	if f == nil {
		return clock{}, false
	}
	return clockOf(f[1], f[2], f[3])
}

func clockOf(h, m, marker string) (clock, bool) {
	c := clock{colon: m != "", marker: strings.ToLower(marker)}
	c.h, _ = strconv.Atoi(h)
	c.m, _ = strconv.Atoi(m)
	if c.h > 24 || (c.marker != "" && (c.h == 0 || c.h > 12)) {
		return c, false
	}
	return c, true
}

// h24 says the time is on the 24-hour clock: 0:00, or an hour past 12.
func (c clock) h24() bool { return c.marker == "" && c.colon && (c.h == 0 || c.h == 24 || c.h >= 13) }

// say reads the time; am says a time without a marker is in the morning (its range's other
// end is on the 24-hour clock).
func (c clock) say(am bool) string {
	mins := ""
	if c.m != 0 {
		mins = ":" + twoDigits(c.m)
	}
	switch {
	case c.marker == "" && c.colon && c.m == 0 && (c.h == 0 || c.h == 24):
		return "midnight"
	case c.marker == "" && c.colon && c.m == 0 && c.h == 12:
		return "noon"
	case c.h24():
		return strconv.Itoa(c.h%12) + mins + " p.m."
	case c.marker == "" && c.colon && c.h == 12:
		return "12" + mins + " p.m."
	case c.marker == "" && am:
		return strconv.Itoa(c.h) + mins + " a.m."
	case c.marker == "":
		return strconv.Itoa(c.h) + mins
	}
	return strconv.Itoa(c.h) + mins + " " + c.marker + ".m."
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// sayTimeRange reads "9:00–17:00", "9am-5pm" or "9-11am" as "… to …". A range is a time
// range only when one end has a colon or a.m./p.m.: "3-5" stays a number range.
func sayTimeRange(m string) string {
	f := reTimeRange.FindStringSubmatch(m)
	a, okA := clockOf(f[1], f[2], f[3])
	b, okB := clockOf(f[4], f[5], f[6])
	if !okA || !okB || (!a.colon && a.marker == "" && !b.colon && b.marker == "") {
		return m
	}
	switch {
	case a.marker == "" && !a.colon && b.marker != "":
		// "9-11am": the first end shares the marker when it comes before the second.
		if a.h < b.h || b.h == 12 && b.marker == "p" {
			return strconv.Itoa(a.h) + " to " + b.say(false)
		}
		if b.marker == "a" {
			a.marker = "p"
		} else {
			a.marker = "a"
		}
	case a.marker == "" && a.colon && b.marker == "p" && a.h < 12:
		a.marker = "a"
	}
	am := b.h24() || b.marker == "p" || (b.colon && b.h == 12)
	return a.say(am) + " to " + b.say(a.h24())
}

var (
	days = map[string]string{"Mon": "Monday", "Tue": "Tuesday", "Tues": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday",
		"Thur": "Thursday", "Thurs": "Thursday", "Fri": "Friday", "Sat": "Saturday", "Sun": "Sunday"}
	reDayAbbr  = regexp.MustCompile(`\b(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\b\.?`)
	dayNames   = `(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)`
	reDayRange = regexp.MustCompile(dayNames + `\s*(?:–|—|-)\s*` + dayNames)
	months     = map[string]string{"Jan": "January", "Feb": "February", "Mar": "March", "Apr": "April", "Jun": "June",
		"Jul": "July", "Aug": "August", "Sep": "September", "Sept": "September", "Oct": "October", "Nov": "November", "Dec": "December"}
	reMonthAbbr = regexp.MustCompile(`\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?\s+\d`)
)

// currency names, singular and plural, and their smaller unit.
var currencies = map[string][3]string{
	"$": {"dollar", "dollars", "cents"}, "£": {"pound", "pounds", "pence"}, "€": {"euro", "euros", "cents"},
}

var codes = map[string]string{"USD": "$", "GBP": "£", "EUR": "€"}

var (
	reMoney        = regexp.MustCompile(`([$£€])\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?(?:\s?(k|K|m|M|bn)\b)?`)
	reMoneyRange   = regexp.MustCompile(`(\d (?:dollars?|pounds?|euros?|cents|pence))\s?[–—-]\s?(\d)`)
	reCurrencyCode = regexp.MustCompile(`\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(USD|GBP|EUR)\b`)
)

var scale = map[string]string{"k": "thousand", "K": "thousand", "m": "million", "M": "million", "bn": "billion"}

func sayMoney(m string) string {
	f := reMoney.FindStringSubmatch(m)
	c := currencies[f[1]]
	whole, cents, mult := f[2], f[3], f[4]
	if mult != "" {
		return whole + " " + scale[mult] + " " + c[1]
	}
	switch {
	case cents == "" || cents == "00":
		return plural(whole, c)
	case whole == "0":
		n, _ := strconv.Atoi(cents)
		return strconv.Itoa(n) + " " + c[2]
	}
	return plural(whole, c) + " " + cents
}

func plural(n string, c [3]string) string {
	if n == "1" {
		return n + " " + c[0]
	}
	return n + " " + c[1]
}

var (
	per = map[string]string{"month": "a month", "mo": "a month", "year": "a year", "yr": "a year", "week": "a week", "wk": "a week",
		"day": "a day", "hour": "an hour", "hr": "an hour", "h": "an hour", "night": "a night", "user": "per user", "seat": "per user",
		"person": "per person", "head": "per person"}
	rePer     = regexp.MustCompile(`(?i)(\w)\s?/\s?(month|mo|year|yr|week|wk|day|hour|hr|h|night|user|seat|person|head)\b`)
	rePercent = regexp.MustCompile(`(\d)\s?%`)
	// reNumRange is "3–5" or "3-5" (not a date, a phone number or a time: those are read
	// before); with a hyphen the second number must be the larger ("555-0123" is left) or
	// both be hours of the clock ("9-5").
	reNumRange = regexp.MustCompile(`\b(\d[\d,]*(?:\.\d+)?)\s?(–|—|-)\s?(\d[\d,]*(?:\.\d+)?)\b`)
)

func sayNumRange(m string) string {
	f := reNumRange.FindStringSubmatch(m)
	if f[2] == "-" {
		a, errA := strconv.ParseFloat(strings.ReplaceAll(f[1], ",", ""), 64)
		b, errB := strconv.ParseFloat(strings.ReplaceAll(f[3], ",", ""), 64)
		hours := a == float64(int(a)) && b == float64(int(b)) && a <= 12 && b >= 1 && b <= 12 // "9-5"
		if errA != nil || errB != nil || (b <= a && !hours) || strings.HasPrefix(f[3], "0") {
			return m
		}
	}
	return f[1] + " to " + f[3]
}

// units after a number, singular and plural. Letters that are also words ("in", "m", "s")
// are left alone.
var units = map[string][2]string{
	"kg": {"kilogram", "kilograms"}, "g": {"gram", "grams"}, "km": {"kilometre", "kilometres"}, "cm": {"centimetre", "centimetres"},
	"mm": {"millimetre", "millimetres"}, "lb": {"pound", "pounds"}, "lbs": {"pounds", "pounds"}, "oz": {"ounce", "ounces"},
	"ml": {"millilitre", "millilitres"}, "ft": {"foot", "feet"}, "mph": {"mile an hour", "miles an hour"},
	"km/h": {"kilometre an hour", "kilometres an hour"}, "kph": {"kilometre an hour", "kilometres an hour"},
	"kb": {"kilobyte", "kilobytes"}, "mb": {"megabyte", "megabytes"}, "gb": {"gigabyte", "gigabytes"}, "tb": {"terabyte", "terabytes"},
	"min": {"minute", "minutes"}, "mins": {"minutes", "minutes"}, "hr": {"hour", "hours"}, "hrs": {"hours", "hours"}, "h": {"hour", "hours"},
	"sec": {"second", "seconds"}, "secs": {"seconds", "seconds"},
	"°C": {"degree Celsius", "degrees Celsius"}, "°F": {"degree Fahrenheit", "degrees Fahrenheit"},
}

var reUnit = regexp.MustCompile(`\b(\d[\d,]*(?:\.\d+)?)\s?(km/h|kph|kg|km|cm|mm|lbs|lb|oz|ml|ft|mph|[KkMGT][Bb]|mins?|hrs?|secs?|h|g|°C|°F)(?:\b|$)`)

// abbreviations, each read only in a text that holds its mark.
var abbreviations = []struct {
	holds string
	re    *regexp.Regexp
	with  string
}{
	{"e.", regexp.MustCompile(`\be\.\s?g\.`), "for example"},
	{"i.", regexp.MustCompile(`\bi\.\s?e\.`), "that is"},
	{"etc", regexp.MustCompile(`\betc\b\.?`), "and so on"},
	{"approx", regexp.MustCompile(`\bapprox\b\.?\s`), "about "},
	{"ca.", regexp.MustCompile(`\bca\.\s`), "about "},
	{"~", regexp.MustCompile(`~\s?(\d)`), "about $1"},
	{"vs", regexp.MustCompile(`\bvs\.?\s`), "versus "},
	{"incl.", regexp.MustCompile(`\bincl\.\s`), "including "},
	{"w/o", regexp.MustCompile(`\bw/o\s`), "without "},
	{"w/", regexp.MustCompile(`\bw/\s?`), "with "},
	{"&", regexp.MustCompile(`\s&\s`), " and "},
	{"o.", regexp.MustCompile(`\b(?:No|no)\.\s?(\d)`), "number $1"},
	{"Nr.", regexp.MustCompile(`\bNr\.\s?(\d)`), "number $1"},
	{"#", regexp.MustCompile(`(^|\s)#(\d)`), "${1}number $2"},
}
