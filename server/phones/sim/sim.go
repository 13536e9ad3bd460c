// Package sim is the offline telephony simulator, Betty's carrier when no Telnyx account is
// configured: it sells fictional numbers free from a fixed inventory (inventory.go) and
// "sends" verification codes by writing them to the server log, where a local user reads
// them.
//
// What is sold is what Betty's teams hold (Held, the store), so the inventory survives
// restarts and is shared by replicas; pending verification codes live in the process's
// memory: a code requested before a restart, or on another replica, must be requested again.
package sim

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/big"
	"sort"
	"strings"
	"sync"

	"github.com/bettyhq/betty/server/phones"
)

// Held says which of these numbers a team of this server holds (bought).
type Held func(ctx context.Context, e164s []string) (map[string]bool, error)

// Sim is the simulator. It implements phones.Telephony.
type Sim struct {
	log  *slog.Logger
	held Held

	mu    sync.Mutex
	codes map[string]string
}

var _ phones.Telephony = (*Sim)(nil)

// New returns a simulator whose sold numbers are those held answers.
func New(log *slog.Logger, held Held) *Sim {
	return &Sim{log: log, held: held, codes: map[string]string{}}
}

// Name is "sim".
func (s *Sim) Name() string { return "sim" }

// FreeNumbers is true: the simulator charges nothing.
func (s *Sim) FreeNumbers() bool { return true }

// MonthlyPrice is 0.
func (s *Sim) MonthlyPrice(phones.Country, phones.NumberType) float64 { return 0 }

// callingCode is a country's calling code without "+".
func callingCode(c phones.Country) string {
	if c == phones.GB {
		return "44"
	}
	return "1"
}

func (a area) number(i int) string {
	return "+" + callingCode(a.country) + a.prefix + fmt.Sprintf("%0*d", a.width, a.first+i)
}

// contains says whether a national number is one of the area's.
func (a area) contains(national string) bool {
	rest, ok := strings.CutPrefix(national, a.prefix)
	if !ok || len(rest) != a.width {
		return false
	}
	n := 0
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
		n = n*10 + int(r-'0')
	}
	return n >= a.first && n < a.first+a.count
}

func (a area) available(e164 string) phones.Available {
	return phones.Available{E164: e164, Country: a.country, Type: a.kind, AreaCode: a.code, Locality: a.locality, Region: a.region}
}

// areas are the blocks a query may pick from.
func areas(q phones.Query) []area {
	all := localAreas
	if q.Type == phones.TollFree {
		all = tollFreeAreas
	}
	var out []area
	for _, a := range all {
		if a.country == q.Country && (q.AreaCode == "" || q.AreaCode == a.code) {
			out = append(out, a)
		}
	}
	if len(out) == 0 && q.Type == phones.Local {
		if a, ok := otherNANPArea(q.Country, q.AreaCode); ok {
			out = append(out, a)
		}
	}
	return out
}

// otherNANPArea is 555-01xx in a North American area code the inventory does not list, when
// it is a real area code of that country.
func otherNANPArea(c phones.Country, code string) (area, bool) {
	if c == phones.GB || len(code) != 3 {
		return area{}, false
	}
	p, ok := phones.Parse("+1" + code + "5550100")
	if !ok || p.Country != c || p.Type != phones.Local {
		return area{}, false
	}
	return nanpLocal(c, code, "", ""), true
}

// lookup finds the area of a number of the inventory.
func lookup(e164 string) (area, bool) {
	var national string
	var country phones.Country
	switch {
	case strings.HasPrefix(e164, "+44"):
		national, country = e164[3:], phones.GB
	case strings.HasPrefix(e164, "+1") && len(e164) == 12:
		national = e164[2:]
	default:
		return area{}, false
	}
	for _, list := range [][]area{localAreas, tollFreeAreas} {
		for _, a := range list {
			if (country == "" || a.country == country) && a.contains(national) {
				return a, true
			}
		}
	}
	if country == "" {
		if p, ok := phones.Parse(e164); ok {
			if a, ok := otherNANPArea(p.Country, national[:3]); ok && a.contains(national) {
				return a, true
			}
		}
	}
	return area{}, false
}

// Search answers the inventory's numbers matching q that nobody holds, in an order fixed by
// the query: the same search answers the same numbers.
func (s *Sim) Search(ctx context.Context, q phones.Query) ([]phones.Available, error) {
	type candidate struct {
		a    area
		e164 string
		rank uint64
	}
	key := fmt.Sprintf("%s|%s|%s|", q.Country, q.Type, q.AreaCode)
	var all []candidate
	for _, a := range areas(q) {
		for i := range a.count {
			e := a.number(i)
			all = append(all, candidate{a, e, rank(key + e)})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].rank < all[j].rank })
	out := []phones.Available{}
	for start := 0; start < len(all) && len(out) < q.Limit; start += 100 {
		batch := all[start:min(start+100, len(all))]
		numbers := make([]string, len(batch))
		for i, c := range batch {
			numbers[i] = c.e164
		}
		held, err := s.held(ctx, numbers)
		if err != nil {
			return nil, err
		}
		for _, c := range batch {
			if !held[c.e164] && len(out) < q.Limit {
				out = append(out, c.a.available(c.e164))
			}
		}
	}
	return out, nil
}

// rank orders numbers for a query: a hash whose every bit depends on every character, so
// neighbouring numbers scatter across the list.
func rank(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	x := h.Sum64() // then splitmix64's finaliser
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Order sells a number of the inventory nobody holds, active at once.
func (s *Sim) Order(ctx context.Context, e164 string) (phones.Order, error) {
	a, ok := lookup(e164)
	if !ok {
		return phones.Order{}, fmt.Errorf("%w: %s is not in the simulator's inventory", phones.ErrNotOnSale, e164)
	}
	held, err := s.held(ctx, []string{e164})
	if err != nil {
		return phones.Order{}, err
	}
	if held[e164] {
		return phones.Order{}, fmt.Errorf("%w: %s is sold", phones.ErrNotOnSale, e164)
	}
	return phones.Order{OrderID: "sim-order-" + randomHex(8), CarrierID: "sim-" + strings.TrimPrefix(e164, "+"), Active: true,
		Country: a.country, Type: a.kind}, nil
}

// Release puts a number back on sale: there is nothing to do, since a number nobody holds is
// on sale.
func (s *Sim) Release(context.Context, phones.Bought) error { return nil }

// SendVerificationCode makes a six-digit code and writes it to the log instead of calling or
// texting the number.
func (s *Sim) SendVerificationCode(ctx context.Context, e164 string, m phones.Method) error {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return err
	}
	code := fmt.Sprintf("%06d", n.Int64())
	s.mu.Lock()
	s.codes[e164] = code
	s.mu.Unlock()
	s.log.InfoContext(ctx, "telephony simulator: verification code (no "+string(m)+" was placed; type this code into Betty)",
		"phone_number", e164, "code", code)
	return nil
}

// CheckVerificationCode accepts the code last sent to the number, once.
func (s *Sim) CheckVerificationCode(_ context.Context, e164, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	want, ok := s.codes[e164]
	switch {
	case !ok:
		return fmt.Errorf("%w: no code was sent to %s by this process", phones.ErrNoVerification, e164)
	case subtle.ConstantTimeCompare([]byte(want), []byte(code)) != 1:
		return phones.ErrWrongCode
	}
	delete(s.codes, e164)
	return nil
}

// ForgetVerified forgets any code waiting for the number.
func (s *Sim) ForgetVerified(_ context.Context, e164 string) error {
	s.mu.Lock()
	delete(s.codes, e164)
	s.mu.Unlock()
	return nil
}

// Code is the code waiting for a number, for tests.
func (s *Sim) Code(e164 string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.codes[e164]
	return c, ok
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
