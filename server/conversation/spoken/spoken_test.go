package spoken_test

import (
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation/spoken"
)

func TestSay(t *testing.T) {
	for in, want := range map[string]string{
		// times
		"We are open 9:00–17:00.":         "We are open 9 a.m. to 5 p.m.",
		"Open 9am-5pm on weekdays.":       "Open 9 a.m. to 5 p.m. on weekdays.",
		"Lunch is served 11:30 to 14:00.": "Lunch is served 11:30 a.m. to 2 p.m.",
		"Call between 9-11am.":            "Call between 9 to 11 a.m.",
		"The shift runs 11-2pm.":          "The shift runs 11 a.m. to 2 p.m.",
		"Late opening 18:00 - 22:00.":     "Late opening 6 p.m. to 10 p.m.",
		"Saturday 8:30–12:00.":            "Saturday 8:30 a.m. to noon.",
		"The store closes at 12:00.":      "The store closes at noon.",
		"Backups run at 0:00.":            "Backups run at midnight.",
		"Pick-up at 14:30 sharp.":         "Pick-up at 2:30 p.m. sharp.",
		"Doors open at 9:30.":             "Doors open at 9:30.",
		"We open at 10 AM.":               "We open at 10 a.m.",
		"Until 6 p.m. on Fridays.":        "Until 6 p.m. on Fridays.",
		"Open 9 a.m. to 5 p.m.":           "Open 9 a.m. to 5 p.m.",
		"Pick 2 to 3 colours.":            "Pick 2 to 3 colours.",
		"Version 3:16 is out.":            "Version 3:16 is out.",
		"Support is available 24/7.":      "Support is available 24 hours a day, 7 days a week.",
		// days, months, dates
		"Mon–Fri 9:00–17:00, Sat 10:00–14:00": "Monday to Friday 9 a.m. to 5 p.m., Saturday 10 a.m. to 2 p.m.",
		"Closed on Sun.":               "Closed on Sunday.",
		"Open Monday-Friday.":          "Open Monday to Friday.",
		"The sale ends Mar 14.":        "The sale ends March 14.",
		"March is busy; we sat down.":  "March is busy; we sat down.",
		"Renewals are due 2025-03-14.": "Renewals are due March 14, 2025.",
		// money
		"The plan costs $1,200.":   "The plan costs 1,200 dollars.",
		"Only $19.99/month.":       "Only 19 dollars 99 a month.",
		"A stamp is $0.50.":        "A stamp is 50 cents.",
		"It costs $1.":             "It costs 1 dollar.",
		"Seats are £5 per head.":   "Seats are 5 pounds per head.",
		"We raised €3k.":           "We raised 3 thousand euros.",
		"The fee is 20 USD.":       "The fee is 20 dollars.",
		"Pro is $12/user/mo.":      "Pro is 12 dollars per user a month.",
		"Storage is 2 dollars/GB.": "Storage is 2 dollars/GB.",
		// numbers, units
		"Save 15% today.":                   "Save 15 percent today.",
		"Delivery takes 3–5 business days.": "Delivery takes 3 to 5 business days.",
		"Delivery takes 3-5 days.":          "Delivery takes 3 to 5 days.",
		"Parcels over 30 kg go by freight.": "Parcels over 30 kilograms go by freight.",
		"Within 1 km of the shop.":          "Within 1 kilometre of the shop.",
		"Each plan has 5 GB and 10 min.":    "Each plan has 5 gigabytes and 10 minutes.",
		"Charging takes 2 hrs.":             "Charging takes 2 hours.",
		"Store below 20°C.":                 "Store below 20 degrees Celsius.",
		"Runs 5 in a row.":                  "Runs 5 in a row.",
		"It takes ~20 minutes.":             "It takes about 20 minutes.",
		"Ask for form No. 5 or #6.":         "Ask for form number 5 or number 6.",
		// phone numbers, addresses
		"Call +1 (415) 555-0123 today.":  "Call plus 1, 4 1 5, 5 5 5, 0 1 2 3 today.",
		"Ring 0800 123 4567.":            "Ring 0 8 0 0, 1 2 3, 4 5 6 7.",
		"Dial (020) 7946 0958.":          "Dial 0 2 0, 7 9 4 6, 0 9 5 8.",
		"Write to help@acme.com.":        "Write to help at acme dot com.",
		"See https://www.acme.com/help.": "See acme dot com slash help.",
		// abbreviations
		"Bring ID, e.g. a passport.":      "Bring ID, for example a passport.",
		"Pay by card, i.e. Visa.":         "Pay by card, that is Visa.",
		"Kettles, toasters etc.":          "Kettles, toasters and so on.",
		"Basic vs. Pro.":                  "Basic versus Pro.",
		"Tea & coffee w/ milk.":           "Tea and coffee with milk.",
		"Price incl. tax.":                "Price including tax.",
		"It takes approx. 3 days.":        "It takes about 3 days.",
		"Call 1-800-555-0199 now.":        "Call 1, 8 0 0, 5 5 5, 0 1 9 9 now.",
		"Our number is +44 20 7946 0958.": "Our number is plus 4 4, 2 0, 7 9 4 6, 0 9 5 8.",
		"Tickets $5-$10.":                 "Tickets 5 dollars to 10 dollars.",
		"Tickets $5–10.":                  "Tickets 5 dollars to 10.",
		"Call us Mon-Fri, 9-5.":           "Call us Monday to Friday, 9 to 5.",
		"The 2023-2024 season.":           "The 2023 to 2024 season.",
		"We're closed on Dec 25.":         "We're closed on December 25.",
		// left alone
		"COVID-19 rules apply.":     "COVID-19 rules apply.",
		"ISO 9001:2015 certified.":  "ISO 9001:2015 certified.",
		"Sizes S-XL.":               "Sizes S-XL.",
		"Scores went 30-12.":        "Scores went 30-12.",
		"Order 555-0123 is late.":   "Order 555-0123 is late.",
		"Pages 500-1000 are blank.": "Pages 500 to 1000 are blank.",
		"We sell 4G phones.":        "We sell 4G phones.",
	} {
		if got := spoken.Say(in); got != want {
			t.Errorf("Say(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestUnits(t *testing.T) {
	type u = spoken.Unit
	const (
		st = spoken.Statement
		hd = spoken.Heading
		qu = spoken.Question
	)
	for name, c := range map[string]struct {
		in   string
		want []u
	}{
		"headings": {"# Opening hours\nWe open **early**.\n\nDelivery\n========\nFast.",
			[]u{{hd, "Opening hours"}, {st, "We open early."}, {hd, "Delivery"}, {st, "Fast."}}},
		"lists": {"What we sell:\n- Kettles\n* Toasters\n1. Irons\n2) Fans\n- [x] Lamps",
			[]u{{st, "What we sell:"}, {st, "Kettles"}, {st, "Toasters"}, {st, "Irons"}, {st, "Fans"}, {st, "Lamps"}}},
		"FAQ labels": {"Q: Do you deliver?\nA: Yes, every day.\n\n**Q:** Can I return it?\n**A:** Within _30 days_.\nQuestion: Is it safe?\nAnswer: Yes.",
			[]u{{qu, "Do you deliver?"}, {st, "Yes, every day."}, {qu, "Can I return it?"}, {st, "Within 30 days."}, {qu, "Is it safe?"}, {st, "Yes."}}},
		"table": {"| Day | Hours |\n|---|:---:|\n| Mon–Fri | 9:00–17:00 |\n| Sat | closed |",
			[]u{{hd, "Day, Hours"}, {st, "Mon–Fri: 9:00–17:00"}, {st, "Sat: closed"}}},
		"wide table": {"| Plan | Price | Users |\n| --- | --- | --- |\n| Basic | $10 | 5 |",
			[]u{{hd, "Plan, Price, Users"}, {st, "Basic: price $10, users 5"}}},
		"links and code": {"See [our site](https://acme.com) or ![logo](x.png) <br> run `betty help`[^1].\n> Quoted ~~old~~ text.\n\n---\n[1]: https://acme.com",
			[]u{{st, "See our site or run betty help."}, {st, "Quoted old text."}}},
		"snake case stays": {"Set max_retries to 3 and 2*3 = 6.", []u{{st, "Set max_retries to 3 and 2*3 = 6."}}},
		"empty labels":     {"Q:\nA:\n\nQ: Why?", []u{{qu, "Why?"}}},
		"quote":            {"Note:\n> Keep the\n> receipt.\nThanks.", []u{{st, "Note:"}, {st, "Keep the receipt. Thanks."}}},
		"fenced code":      {"Run:\n```\nbetty start\n```", []u{{st, "Run:"}, {st, "betty start"}}},
		"title line":       {"Warranty\nEvery kettle has a\nwarranty.\nShort lines. Are\nJoined.", []u{{hd, "Warranty"}, {st, "Every kettle has a warranty. Short lines. Are Joined."}}},
		"title paragraph":  {"Opening hours\n\n| Sat | 10:00 |\n\nShort answer", []u{{hd, "Opening hours"}, {st, "Sat: 10:00"}, {st, "Short answer"}}},
		"pdf lines":        {"Refunds reach your card\nwithin five working days.", []u{{st, "Refunds reach your card within five working days."}}},
	} {
		got := spoken.Units(c.in)
		if len(got) != len(c.want) {
			t.Errorf("%s: %+v", name, got)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: unit %d is %+v, want %+v", name, i, got[i], c.want[i])
			}
		}
	}
}

func TestSentences(t *testing.T) {
	for in, want := range map[string][]string{
		"## Hours\nQ: When are you open?\nA: We open at 9 a.m. Closing is at 5 p.m. sharp, e.g. on Mondays.": {
			"We open at 9 a.m.", "Closing is at 5 p.m. sharp, e.g. on Mondays."},
		"Dr. Smith sees patients. Ask for No. 5! Do you want more? Fine": {"Dr. Smith sees patients.", "Ask for No. 5!", "Fine."},
		"- Free delivery over $50\n- Returns: 30 days":                   {"Free delivery over $50.", "Returns: 30 days."},
		"Prices went up 2.5 percent. \"Great,\" they said.":              {"Prices went up 2.5 percent.", "\"Great,\" they said."},
		"Our hours:": {"Our hours."},
	} {
		got := spoken.Sentences(in)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Sentences(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestPlain(t *testing.T) {
	got := spoken.Plain("# Refunds\n**Q:** How long?\n**A:** Five *working* days.\n\n| Card | Days |\n|--|--|\n| Visa | 5 |")
	want := "Refunds\nHow long?\nFive working days.\nCard, Days\nVisa: 5"
	if got != want {
		t.Fatalf("Plain\n%s\nwant\n%s", got, want)
	}
}
