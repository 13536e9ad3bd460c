package sim

import (
	"testing"

	"github.com/bettyhq/betty/server/phones"
)

// The numbers of the inventory are valid numbers of their area's country, type and area code
// (so Betty's own checks accept what the simulator sells), and are found back by lookup.
// Ranges are allocated as blocks: both ends of each and a sample between them are checked.
func TestEveryAreaOfTheInventoryIsValid(t *testing.T) {
	check := func(a area, i int) {
		e := a.number(i)
		p, ok := phones.Parse(e)
		wantCountry := a.country
		if a.kind == phones.TollFree && a.country == phones.CA {
			wantCountry = phones.US // +1 toll-free numbers are filed under the US
		}
		if !ok || p.Country != wantCountry || p.Type != a.kind || (a.kind == phones.Local && p.AreaCode != a.code) {
			t.Fatalf("%s of %+v parses as %+v (%v)", e, a, p, ok)
		}
		if got, ok := lookup(e); !ok || got.country != a.country || got.code != a.code {
			t.Fatalf("lookup(%s) = %+v %v", e, got, ok)
		}
	}
	for _, list := range [][]area{localAreas, tollFreeAreas} {
		for _, a := range list {
			for i := 0; i < a.count; i += 37 {
				check(a, i)
			}
			check(a, a.count-1)
		}
	}
}
