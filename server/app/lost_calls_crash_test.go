package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// Calls on the line when `betty serve` dies, whose hang-ups are then lost (the fake Telnyx,
// a process of its own, drops every call.hangup), are swept by the next process: a first
// process that never sweeps (--dialer-silent-after 1h) places two calls on the team's two
// lines and is killed with SIGKILL once Telnyx has ended both; the restarted one asks Telnyx
// about them as it starts, ends them, frees the lines, and the run calls its other contacts
// and ends, every call log closed with the reason, no contact dialled twice.
func TestCallsLeftByACrashAreSwept(t *testing.T) {
	fake := buildFakeTelnyx(t)
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			opts := testdb.Options(t, d)
			db, err := store.Open(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			const contacts = 5
			tm := crashTeam(t, db, contacts)
			if err := db.SetDialerLimit(ctx, tm.org, 2, ""); err != nil {
				t.Fatal(err)
			}
			addr := freeAddr(t)
			carrier := startFakeTelnyx(t, fake, "--webhook-url", "http://"+addr+"/v1/webhooks/telnyx", "--seed", "5",
				"--answer", "1", "--busy", "0", "--no-answer", "0", "--voicemail", "0", "--ring", "20ms", "--idle-hangup", "1s",
				"--drop-hangups")
			args := []string{"--data-dir", opts.DataDir, "--log-level", "warn", "--rate-limit", "0",
				"--telnyx-api-key", carrier.APIKey, "--telnyx-api-url", carrier.URL, "--telnyx-connection-id", "1494404757140276705",
				"--telnyx-public-key", carrier.PublicKey}
			if opts.DatabaseURL != "" {
				args[0], args[1] = "--database-url", opts.DatabaseURL
				args = append(args, "--data-dir", t.TempDir())
			}
			betty := startBettyAt(t, addr, append(args, "--dialer-silent-after", "1h")...)
			jobID := startRun(t, betty.url, tm)
			deadline := time.Now().Add(60 * time.Second)
			for carrier.stats(t).DroppedHangups < 2 {
				if time.Now().After(deadline) {
					t.Fatalf("the first two calls did not end: %+v\n%s", carrier.stats(t), betty.logs())
				}
				time.Sleep(50 * time.Millisecond)
			}
			if st := carrier.stats(t); st.TotalDials != 2 {
				t.Fatalf("with two lines held, the carrier placed %d calls", st.TotalDials)
			}
			betty.kill(t)
			betty = startBettyAt(t, addr, append(args, "--dialer-silent-after", "1s")...)

			var job store.WorkflowJob
			for {
				if job, err = db.WorkflowJobForWork(ctx, jobID); err != nil {
					t.Fatal(err)
				}
				if job.Status != store.JobInProgress {
					break
				}
				if time.Now().After(deadline) {
					counts, _ := db.AttemptCounts(ctx, []string{jobID})
					t.Fatalf("the run did not end: %v; carrier %+v\n%s", counts[jobID], carrier.stats(t), betty.logs())
				}
				time.Sleep(100 * time.Millisecond)
			}
			if job.Status != store.JobSuccess {
				t.Fatalf("the run: %s", job.Status)
			}
			attempts, err := db.AttemptsOfJob(ctx, jobID)
			if err != nil {
				t.Fatal(err)
			}
			if len(attempts) != contacts {
				t.Fatalf("%d attempts", len(attempts))
			}
			for _, a := range attempts {
				if a.State != store.AttemptCompleted || a.EndedAt == nil || a.CallLogID == nil {
					t.Fatalf("attempt %+v", a)
				}
				l, err := db.CallLogByAttempt(ctx, tm.org, a.ID)
				if err != nil {
					t.Fatal(err)
				}
				if l.EndTime == nil || l.EndReason == nil || !strings.Contains(*l.EndReason, "carrier lost this call") || l.Status != store.CallCompleted {
					t.Fatalf("call log %+v", l)
				}
			}
			st := carrier.stats(t)
			for n, placed := range st.Dials {
				if placed != 1 {
					t.Errorf("%s was called %d times", n, placed)
				}
			}
			if st.TotalDials != contacts || st.DroppedHangups != contacts || st.StatusRequests < contacts {
				t.Fatalf("carrier: %+v", st)
			}
		})
	}
}
