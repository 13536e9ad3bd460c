package runs_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// counted counts the dials of the simulator (phones/sim with ZeroLength: every call is
// answered and hung up at once, without a conversation, its three events delivered by the
// simulator's workers while the dialer goes on).
type counted struct {
	*sim.Calls
	n atomic.Int64
}

func (c *counted) Dial(ctx context.Context, req phones.DialRequest) (phones.Call, error) {
	c.n.Add(1)
	return c.Calls.Dial(ctx, req)
}

func (c *counted) count() int { return int(c.n.Load()) }

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchSample is how many dials each measurement places, whatever the job's size: the cost per
// dial is compared between a job of 10,000 contacts and one of 1,000,000.
const benchSample = 5000

// BenchmarkDialer places dials of a job of 10,000 and of 1,000,000 contacts on SQLite (one
// replica) with the simulator's zero-length calls, and reports dials a second and the time per dial. The
// issue asks for at least 1,000 dials a second and a cost per dial that does not grow with the
// job; `make bench` prints both.
func BenchmarkDialer(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("contacts=%d", n), func(b *testing.B) {
			ctx := context.Background()
			db := testdb.Open(b, store.SQLite, true)
			tm := newTeam(b, db, 1e9, alwaysOpen)
			must(b, db.SetDialerLimit(ctx, tm.org.ID, 10000, tm.owner.ID))
			numbers := make([]string, n)
			for i := range numbers {
				numbers[i] = fmt.Sprintf("+1%010d", 4152000000+i) // valid landlines: the dialer calls no other kind
			}
			start := time.Now()
			addContacts(b, db, tm, numbers, nil)
			simCalls := sim.NewCalls(sim.CallOptions{Seed: 1, Answer: 1, ZeroLength: true})
			b.Cleanup(simCalls.Close)
			calls := &counted{Calls: simCalls}
			h := newHarness(b, db, nil, runs.Config{Slice: 50 * time.Millisecond, Batch: 500, CPSPerNumber: 1e6, CPSAccount: 1e6})
			h.svc.SetCalls(calls)
			simCalls.SetHandler(h.svc)
			j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
			must(b, err)
			b.Logf("%d contacts imported and the run started in %s", n, time.Since(start).Round(time.Millisecond))
			var dialled int
			var elapsed, cpu time.Duration
			for b.Loop() {
				target := calls.count() + benchSample
				c0 := cpuTime()
				t0 := time.Now()
				for calls.count() < target {
					if _, done, err := h.svc.Dispatch(ctx, j.ID); err != nil || done {
						b.Fatalf("dispatch: done %v, %v", done, err)
					}
				}
				// Until every call placed has ended: its events are part of the cost.
				for {
					live, err := db.LiveCalls(ctx, tm.org.ID)
					must(b, err)
					if live == 0 {
						break
					}
					time.Sleep(time.Millisecond)
				}
				elapsed += time.Since(t0)
				cpu += cpuTime() - c0
				dialled = calls.count()
			}
			b.ReportMetric(float64(dialled)/elapsed.Seconds(), "dials/s")
			b.ReportMetric(float64(elapsed.Microseconds())/float64(dialled), "µs/dial")
			// CPU time per dial does not depend on how loaded the machine is: 1e6 over it is
			// the dials a second one free core sustains.
			b.ReportMetric(float64(cpu.Microseconds())/float64(dialled), "cpu-µs/dial")
		})
	}
}

// BenchmarkSweepLostCalls is the trial of issue 20 on SQLite: 10,000 calls answered whose
// hang-ups never come (the simulator's DropHangups with zero-length calls) hold 10,000 lines;
// once they are silent for long, the sweep ends them all. It reports the calls ended a second
// and how many sweeps (one a quarter of --dialer-silent-after, 30 s by default) that took.
func BenchmarkSweepLostCalls(b *testing.B) {
	n := 10_000
	if v, err := strconv.Atoi(os.Getenv("BETTY_BENCH_LOST_CALLS")); err == nil && v > 0 {
		n = v // a quicker local run
	}
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db := testdb.Open(b, store.SQLite, true)
		// Every line the team may have, held: the campaign's cap and the override are n.
		tm := newTeam(b, db, 1e9, strings.Replace(alwaysOpen, `"maxConcurrentCalls":1000`, fmt.Sprintf(`"maxConcurrentCalls":%d`, n), 1))
		must(b, db.SetDialerLimit(ctx, tm.org.ID, n, tm.owner.ID))
		numbers := make([]string, n)
		for i := range numbers {
			numbers[i] = fmt.Sprintf("+1%010d", 2000000000+i)
		}
		addContacts(b, db, tm, numbers, nil)
		carrier := sim.NewCalls(sim.CallOptions{Seed: 1, Answer: 1, ZeroLength: true, DropHangups: true})
		clk := &clock{}
		svc, _ := sweepHarness(b, db, carrier, fakeConversation{}, clk)
		carrier.SetHandler(svc)
		j, err := svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(b, err)
		for {
			counts, err := db.AttemptCounts(ctx, []string{j.ID})
			must(b, err)
			if counts[j.ID][store.AttemptInCall] == n {
				break
			}
			if _, _, err := svc.Dispatch(ctx, j.ID); err != nil {
				b.Fatal(err)
			}
		}
		clk.advance(3 * time.Minute)
		b.StartTimer()
		t0, rounds := time.Now(), 0
		for {
			sw, err := svc.SweepCalls(ctx)
			must(b, err)
			if sw.Lost == 0 {
				break
			}
			rounds++
		}
		elapsed := time.Since(t0)
		b.StopTimer()
		live, err := db.LiveCalls(ctx, tm.org.ID)
		must(b, err)
		if live != 0 {
			b.Fatalf("%d calls still on the line", live)
		}
		b.ReportMetric(float64(n)/elapsed.Seconds(), "calls/s")
		b.ReportMetric(float64(rounds), "sweeps")
		carrier.Close()
	}
}
