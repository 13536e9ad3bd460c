package sim_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
)

// holdings is what the store would say: the numbers teams hold.
type holdings struct {
	mu sync.Mutex
	m  map[string]bool
}

func (h *holdings) held(_ context.Context, e164s []string) (map[string]bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string]bool{}
	for _, n := range e164s {
		if h.m[n] {
			out[n] = true
		}
	}
	return out, nil
}

func (h *holdings) set(n string, on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.m[n] = on
}

func newSim() (*sim.Sim, *holdings) {
	h := &holdings{m: map[string]bool{}}
	return sim.New(slog.New(slog.NewTextHandler(io.Discard, nil)), h.held), h
}

func numbers(av []phones.Available) []string {
	out := make([]string, len(av))
	for i, a := range av {
		out[i] = a.E164
	}
	return out
}

// The inventory is fixed: the same search answers the same numbers, in the same order, from
// a fresh simulator too; every number is a valid one of the country, type and area asked.
func TestInventoryIsDeterministic(t *testing.T) {
	ctx := context.Background()
	queries := []phones.Query{
		{Country: phones.US, Type: phones.Local, Limit: 20},
		{Country: phones.US, Type: phones.Local, AreaCode: "415", Limit: 50},
		{Country: phones.US, Type: phones.Local, AreaCode: "718", Limit: 5}, // not listed, a real New York code
		{Country: phones.US, Type: phones.TollFree, Limit: 20},
		{Country: phones.CA, Type: phones.Local, Limit: 20},
		{Country: phones.CA, Type: phones.Local, AreaCode: "604", Limit: 10},
		{Country: phones.CA, Type: phones.TollFree, Limit: 20},
		{Country: phones.GB, Type: phones.Local, Limit: 20},
		{Country: phones.GB, Type: phones.Local, AreaCode: "20", Limit: 50},
		{Country: phones.GB, Type: phones.TollFree, Limit: 20},
	}
	for _, q := range queries {
		a, _ := newSim()
		b, _ := newSim()
		first, err := a.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := a.Search(ctx, q)
		fresh, _ := b.Search(ctx, q)
		if len(first) != q.Limit || !reflect.DeepEqual(first, again) || !reflect.DeepEqual(first, fresh) {
			t.Fatalf("%+v: %v, then %v, fresh %v", q, numbers(first), numbers(again), numbers(fresh))
		}
		seen := map[string]bool{}
		for _, av := range first {
			p, ok := phones.Parse(av.E164)
			if !ok || seen[av.E164] || av.Type != q.Type || av.Country != q.Country || av.MonthlyPrice != 0 || av.UpfrontPrice != 0 {
				t.Fatalf("%+v answered %+v (parsed %+v %v)", q, av, p, ok)
			}
			seen[av.E164] = true
			if q.Type == phones.Local && (p.AreaCode != av.AreaCode || (q.AreaCode != "" && av.AreaCode != q.AreaCode)) {
				t.Fatalf("%+v answered %+v in area %q", q, av, p.AreaCode)
			}
			if q.Country != phones.GB && !strings.Contains(av.E164[5:], "55501") {
				t.Fatalf("%s is not a fictional 555-01xx number", av.E164)
			}
		}
	}
	// Some searches vary: the unlisted area has no locality, the default search several areas.
	got, _ := newSimSearch(t, phones.Query{Country: phones.US, Type: phones.Local, AreaCode: "718", Limit: 1})
	if got[0].Locality != "" || got[0].AreaCode != "718" {
		t.Fatalf("unlisted area: %+v", got[0])
	}
	got, _ = newSimSearch(t, phones.Query{Country: phones.US, Type: phones.Local, Limit: 20})
	areas := map[string]bool{}
	for _, av := range got {
		areas[av.AreaCode] = true
	}
	if len(areas) < 5 {
		t.Fatalf("the default search draws on %d areas only: %v", len(areas), numbers(got))
	}
	got, _ = newSimSearch(t, phones.Query{Country: phones.GB, Type: phones.Local, AreaCode: "20", Limit: 1})
	if !strings.HasPrefix(got[0].E164, "+4420794600") && !strings.HasPrefix(got[0].E164, "+442079460") || got[0].Locality != "London" {
		t.Fatalf("London: %+v", got[0])
	}
	// No matches is an empty list.
	for _, q := range []phones.Query{
		{Country: phones.US, Type: phones.Local, AreaCode: "999", Limit: 5},
		{Country: phones.US, Type: phones.Local, AreaCode: "416", Limit: 5}, // Canadian
		{Country: phones.GB, Type: phones.Local, AreaCode: "1632", Limit: 5},
	} {
		if got, err := newSimSearch(t, q); err != nil || got == nil || len(got) != 0 {
			t.Fatalf("%+v: %v %v", q, numbers(got), err)
		}
	}
}

func newSimSearch(t *testing.T, q phones.Query) ([]phones.Available, error) {
	t.Helper()
	s, _ := newSim()
	return s.Search(context.Background(), q)
}

// Buying takes a number off sale; releasing puts it back.
func TestBuyReleaseSearchAgain(t *testing.T) {
	ctx := context.Background()
	s, h := newSim()
	q := phones.Query{Country: phones.CA, Type: phones.TollFree, Limit: 3}
	before, _ := s.Search(ctx, q)
	n := before[0].E164
	o, err := s.Order(ctx, n)
	if err != nil || !o.Active || o.Country != phones.CA || o.Type != phones.TollFree || o.OrderID == "" || o.CarrierID != "sim-"+n[1:] {
		t.Fatalf("order %s: %+v %v", n, o, err)
	}
	h.set(n, true) // the team holds it now
	after, _ := s.Search(ctx, q)
	if reflect.DeepEqual(numbers(before), numbers(after)) || numbers(after)[0] != before[1].E164 {
		t.Fatalf("after buying %s: %v, before %v", n, numbers(after), numbers(before))
	}
	if _, err := s.Order(ctx, n); !errors.Is(err, phones.ErrNotOnSale) {
		t.Fatalf("ordering a sold number: %v", err)
	}
	if err := s.Release(ctx, phones.Bought{E164: n, CarrierID: o.CarrierID}); err != nil {
		t.Fatal(err)
	}
	h.set(n, false)
	if again, _ := s.Search(ctx, q); !reflect.DeepEqual(again, before) {
		t.Fatalf("after releasing: %v, want %v", numbers(again), numbers(before))
	}
	for _, n := range []string{"+14155550200", "+14155551234", "+442079461000", "+15551234567", "+1415555010"} {
		if _, err := s.Order(ctx, n); !errors.Is(err, phones.ErrNotOnSale) {
			t.Errorf("ordering %s, not in the inventory: %v", n, err)
		}
	}
	// A number of an unlisted area code is on sale too, in its country.
	if o, err := s.Order(ctx, "+17185550142"); err != nil || o.Country != phones.US || o.Type != phones.Local {
		t.Fatalf("unlisted area: %+v %v", o, err)
	}
	if o, err := s.Order(ctx, "+18005550120"); err != nil || o.Country != phones.US {
		t.Fatalf("US toll-free: %+v %v", o, err)
	}
}

// The code "sent" is the one accepted, once.
func TestVerificationCodes(t *testing.T) {
	ctx := context.Background()
	s, _ := newSim()
	const n = "+16045550150"
	if err := s.CheckVerificationCode(ctx, n, "123456"); !errors.Is(err, phones.ErrNoVerification) {
		t.Fatalf("before sending: %v", err)
	}
	if err := s.SendVerificationCode(ctx, n, phones.BySMS); err != nil {
		t.Fatal(err)
	}
	code, ok := s.Code(n)
	if !ok || len(code) != 6 {
		t.Fatalf("code %q %v", code, ok)
	}
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	if err := s.CheckVerificationCode(ctx, n, wrong); !errors.Is(err, phones.ErrWrongCode) {
		t.Fatalf("wrong code: %v", err)
	}
	if err := s.CheckVerificationCode(ctx, n, code); err != nil {
		t.Fatalf("right code: %v", err)
	}
	if err := s.CheckVerificationCode(ctx, n, code); !errors.Is(err, phones.ErrNoVerification) {
		t.Fatalf("the code twice: %v", err)
	}
	// A new request replaces the code.
	_ = s.SendVerificationCode(ctx, n, phones.ByCall)
	first, _ := s.Code(n)
	for i := 0; i < 20; i++ {
		_ = s.SendVerificationCode(ctx, n, phones.ByCall)
		if c, _ := s.Code(n); c != first {
			if err := s.CheckVerificationCode(ctx, n, first); !errors.Is(err, phones.ErrWrongCode) {
				t.Fatalf("a replaced code: %v", err)
			}
			if err := s.ForgetVerified(ctx, n); err != nil {
				t.Fatal(err)
			}
			if _, ok := s.Code(n); ok {
				t.Fatal("forgotten number still has a code")
			}
			return
		}
	}
	t.Fatal("twenty codes in a row were the same")
}
