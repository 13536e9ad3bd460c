package sim

import "github.com/bettyhq/betty/server/phones"

// The simulator sells fictional numbers only, so nothing it hands out rings a real phone:
// 555-0100 to 555-0199 in any North American area code (reserved for fiction), and Ofcom's
// ranges for drama in the UK.

// area is a block of numbers on sale: its country, type and area code, where it is, and the
// national numbers it sells: prefix followed by first…first+count-1 written with width digits.
type area struct {
	country          phones.Country
	kind             phones.NumberType
	code             string
	locality, region string
	prefix           string
	width            int
	first, count     int
}

// nanpLocal is 555-0100…0199 in an area code.
func nanpLocal(c phones.Country, code, locality, region string) area {
	return area{country: c, kind: phones.Local, code: code, locality: locality, region: region, prefix: code + "5550",
		width: 3, first: 100, count: 100}
}

// gbDrama is a thousand-number drama range.
func gbDrama(code, locality, region, prefix string) area {
	return area{country: phones.GB, kind: phones.Local, code: code, locality: locality, region: region, prefix: prefix,
		width: 3, count: 1000}
}

var localAreas = []area{
	nanpLocal(phones.US, "415", "San Francisco", "CA"),
	nanpLocal(phones.US, "212", "New York", "NY"),
	nanpLocal(phones.US, "312", "Chicago", "IL"),
	nanpLocal(phones.US, "213", "Los Angeles", "CA"),
	nanpLocal(phones.US, "617", "Boston", "MA"),
	nanpLocal(phones.US, "206", "Seattle", "WA"),
	nanpLocal(phones.US, "305", "Miami", "FL"),
	nanpLocal(phones.US, "512", "Austin", "TX"),
	nanpLocal(phones.US, "303", "Denver", "CO"),
	nanpLocal(phones.US, "404", "Atlanta", "GA"),
	nanpLocal(phones.US, "202", "Washington", "DC"),
	nanpLocal(phones.US, "702", "Las Vegas", "NV"),
	nanpLocal(phones.US, "602", "Phoenix", "AZ"),
	nanpLocal(phones.US, "713", "Houston", "TX"),
	nanpLocal(phones.US, "503", "Portland", "OR"),
	nanpLocal(phones.CA, "416", "Toronto", "ON"),
	nanpLocal(phones.CA, "604", "Vancouver", "BC"),
	nanpLocal(phones.CA, "514", "Montreal", "QC"),
	nanpLocal(phones.CA, "613", "Ottawa", "ON"),
	nanpLocal(phones.CA, "403", "Calgary", "AB"),
	nanpLocal(phones.CA, "780", "Edmonton", "AB"),
	nanpLocal(phones.CA, "902", "Halifax", "NS"),
	nanpLocal(phones.CA, "204", "Winnipeg", "MB"),
	gbDrama("20", "London", "England", "2079460"),
	gbDrama("121", "Birmingham", "England", "1214960"),
	gbDrama("161", "Manchester", "England", "1614960"),
	gbDrama("113", "Leeds", "England", "1134960"),
	gbDrama("114", "Sheffield", "England", "1144960"),
	gbDrama("116", "Leicester", "England", "1164960"),
	gbDrama("117", "Bristol", "England", "1174960"),
	gbDrama("118", "Reading", "England", "1184960"),
	gbDrama("151", "Liverpool", "England", "1514960"),
	gbDrama("191", "Newcastle upon Tyne", "England", "1914980"),
	gbDrama("24", "Coventry", "England", "2476180"),
	gbDrama("23", "Southampton", "England", "2380496"),
	gbDrama("131", "Edinburgh", "Scotland", "1314960"),
	gbDrama("141", "Glasgow", "Scotland", "1414960"),
	gbDrama("29", "Cardiff", "Wales", "2920180"),
	gbDrama("28", "Belfast", "Northern Ireland", "2896496"),
}

// tollFreeAreas: North American toll-free numbers are shared by the US and Canada; the
// simulator sells 555-0100…0149 of each toll-free code as US numbers and 555-0150…0199 as
// Canadian ones, so it can tell which country a number was bought in. The UK's freephone
// drama range is 0808 157 0000…0999.
var tollFreeAreas = func() []area {
	var out []area
	for _, code := range []string{"800", "833", "844", "855", "866", "877", "888"} {
		out = append(out,
			area{country: phones.US, kind: phones.TollFree, code: code, prefix: code + "5550", width: 3, first: 100, count: 50},
			area{country: phones.CA, kind: phones.TollFree, code: code, prefix: code + "5550", width: 3, first: 150, count: 50})
	}
	return append(out, area{country: phones.GB, kind: phones.TollFree, code: "808", prefix: "8081570", width: 3, count: 1000})
}()
