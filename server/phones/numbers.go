package phones

import (
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
