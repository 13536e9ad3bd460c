package app_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
	"github.com/bettyhq/betty/server/store"
)

// The dialer's promise, proved against a fake Telnyx running as a process of its own (it
// counts the calls placed per number, is idempotent on command_id, and sends signed webhooks
// until they are acknowledged): a job over 10,000 contacts, `betty serve` killed with SIGKILL
// at three random moments and restarted each time; at the end every contact reached a final
// state, no number was dialled more often than its attempts allow, and the job's counts equal
// the carrier's. On PostgreSQL two replicas work the job, and the kills hit one of them, then
// both. BETTY_CRASH_CONTACTS sets another number of contacts (a quicker local run).
// Run it with BETTY_DIALER_CRASH_TEST=1 (see the skip below).
func TestDialerExactlyOnceThroughCrashes(t *testing.T) {
	if testing.Short() {
		t.Skip("the dialer crash test takes minutes: not with -short")
	}
	if os.Getenv("BETTY_DIALER_CRASH_TEST") == "" {
		t.Skip("waits for the dialer to recover from a SIGKILL: its dispatcher (River job workflow_run_dial, unique by run) " +
			"stays `running` for the dead process until River rescues it (RescueStuckJobsAfter, 15 min), so the job stalls " +
			"after the first kill; set BETTY_DIALER_CRASH_TEST=1 to run it anyway")
	}
	contacts := 10_000
	if v, err := strconv.Atoi(os.Getenv("BETTY_CRASH_CONTACTS")); err == nil && v > 0 {
		contacts = v
	}
	fake := buildFakeTelnyx(t)
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			replicas := 1
			if d == store.Postgres {
				replicas = 2
			}
			crashRun(t, d, fake, contacts, replicas)
		})
	}
}

const crashMaxAttempts = 3 // the campaign's 1 + retryAttempts

func crashRun(t *testing.T, d store.Dialect, fakeBin string, contacts, replicas int) {
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
	tm := crashTeam(t, db, contacts)

	addrs := make([]string, replicas)
	hooks := make([]string, replicas)
	for i := range addrs {
		addrs[i] = freeAddr(t)
		hooks[i] = "http://" + addrs[i] + "/v1/webhooks/telnyx"
	}
	seed := rand.Int64N(1 << 30)
	t.Logf("seed %d, %d contacts, %d replica(s)", seed, contacts, replicas)
	carrier := startFakeTelnyx(t, fakeBin, "--webhook-url", strings.Join(hooks, ","), "--seed", strconv.FormatInt(seed, 10),
		"--answer", "0.6", "--busy", "0.2", "--no-answer", "0.1", "--voicemail", "0.1", "--ring", "20ms", "--idle-hangup", "1s",
		"--workers", "32")

	args := []string{"--data-dir", opts.DataDir, "--log-level", "warn", "--rate-limit", "0",
		"--telnyx-api-key", carrier.APIKey, "--telnyx-api-url", carrier.URL, "--telnyx-connection-id", "1494404757140276705",
		"--telnyx-public-key", carrier.PublicKey, "--dialer-cps-per-number", "5000", "--dialer-cps-account", "5000"}
	if opts.DatabaseURL != "" {
		args = []string{"--database-url", opts.DatabaseURL, "--data-dir", t.TempDir(), "--log-level", "warn", "--rate-limit", "0",
			"--telnyx-api-key", carrier.APIKey, "--telnyx-api-url", carrier.URL, "--telnyx-connection-id", "1494404757140276705",
			"--telnyx-public-key", carrier.PublicKey, "--dialer-cps-per-number", "5000", "--dialer-cps-account", "5000"}
	}
	servers := make([]*bettyProc, replicas)
	for i := range servers {
		servers[i] = startBettyAt(t, addrs[i], args...)
	}

	// The run, through the API.
	jobID := startRun(t, servers[0].url, tm)
	deadline := time.Now().Add(6 * time.Minute)

	// Three kills at random moments of the job: after a random share of the dials
	// (BETTY_CRASH_KILLS sets another number, 0 to check the run alone).
	kills := 3
	if v, err := strconv.Atoi(os.Getenv("BETTY_CRASH_KILLS")); err == nil && v >= 0 {
		kills = v
	}
	for k := 0; k < kills; k++ {
		target := (k*contacts)/4 + rand.IntN(contacts/4+1)
		for carrier.stats(t).TotalDials < target && time.Now().Before(deadline) {
			if j, err := db.WorkflowJobForWork(ctx, jobID); err == nil && j.Status != store.JobInProgress {
				t.Fatalf("the job ended (%s) before kill %d: the test must kill during the job", j.Status, k+1)
			}
			time.Sleep(time.Duration(10+rand.IntN(40)) * time.Millisecond)
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
		victims := []int{rand.IntN(replicas)}
		if replicas > 1 && k == kills-1 {
			victims = []int{0, 1} // the last time, every replica at once
		}
		for _, v := range victims {
			servers[v].kill(t)
		}
		t.Logf("kill %d at %d dials (replicas %v)", k+1, carrier.stats(t).TotalDials, victims)
		for _, v := range victims {
			servers[v] = startBettyAt(t, addrs[v], args...)
		}
	}

	// The job finishes.
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
			st := carrier.stats(t)
			t.Fatalf("the job did not finish: attempts %v; carrier: %d calls placed, %d ended, outcomes %v, events %d (%d pending)\n"+
				"dispatcher jobs: %s\nlogs:\n%s", counts[jobID], st.TotalDials, st.Ended, st.Outcomes, st.Events, st.EventsPending,
				riverJobs(db, "workflow_run%"), servers[0].logs())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if job.Status != store.JobSuccess {
		t.Fatalf("job %s: %s", job.Status, deref(job.Error))
	}

	attempts, err := db.AttemptsOfJob(ctx, jobID)
	if err != nil {
		t.Fatal(err)
	}
	st := carrier.stats(t)
	// Every contact reached a final state; every attempt is final.
	latest := map[string]store.Attempt{}
	dialled := map[string]int{} // number → attempts the dialer placed
	byState := map[store.AttemptState]int{}
	for _, a := range attempts {
		if !a.State.Final() {
			t.Errorf("attempt %s is %s", a.ID, a.State)
		}
		if l, ok := latest[a.Phone]; !ok || a.Attempt > l.Attempt {
			latest[a.Phone] = a
		}
		if a.State != store.AttemptSuppress && a.State != store.AttemptCancelled && a.State != store.AttemptScheduled {
			dialled[a.Phone]++
			byState[a.State]++
		}
	}
	if len(latest) != contacts {
		t.Fatalf("%d contacts have attempts, want %d", len(latest), contacts)
	}
	for n, a := range latest {
		if a.Retried {
			t.Errorf("%s: the latest attempt %s is marked retried", n, a.ID)
		}
	}
	// No number dialled more often than its attempts allow, and the carrier placed exactly
	// the calls the job's attempts record.
	for n, placed := range st.Dials {
		if placed > crashMaxAttempts {
			t.Errorf("%s was called %d times (at most %d attempts)", n, placed, crashMaxAttempts)
		}
		if placed != dialled[n] {
			t.Errorf("%s: the carrier placed %d calls, the job dialled %d attempts", n, placed, dialled[n])
		}
	}
	total := 0
	for n, k := range dialled {
		total += k
		if st.Dials[n] != k {
			t.Errorf("%s: the job dialled %d attempts, the carrier placed %d calls", n, k, st.Dials[n])
		}
	}
	if total != st.TotalDials {
		t.Errorf("the job dialled %d attempts, the carrier placed %d calls", total, st.TotalDials)
	}
	// The outcomes agree: busy and no-answer one for one; answered (by a person or a machine)
	// ones completed or voicemail.
	if byState[store.AttemptBusy] != st.Outcomes["busy"] || byState[store.AttemptNoAnswer] != st.Outcomes["no-answer"] ||
		byState[store.AttemptCompleted]+byState[store.AttemptVoicemail] != st.Outcomes["answer"]+st.Outcomes["voicemail"] ||
		byState[store.AttemptFailed] != st.Outcomes["failed"] {
		t.Errorf("attempts by state %v, carrier outcomes %v", byState, st.Outcomes)
	}
	t.Logf("%d contacts, %d calls placed (%d dial requests: repeats were idempotent), outcomes %v, events %d sent %d acked %d",
		contacts, st.TotalDials, sum(st.DialRequests), st.Outcomes, st.Events, st.EventsSent, st.EventsAcked)
}

// riverJobs describes River's jobs of kinds like pattern, for a failure message.
func riverJobs(db *store.DB, pattern string) string {
	rows, err := db.Writer().Query(`SELECT kind, state, attempt, COALESCE(CAST(attempted_at AS TEXT), '') FROM river_job WHERE kind LIKE '` +
		pattern + `' ORDER BY id`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var kind, state, at string
		var attempt int
		if err := rows.Scan(&kind, &state, &attempt, &at); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "\n  %s %s attempt %d attempted at %s", kind, state, attempt, at)
	}
	return b.String()
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// crashTeam is a team with credits, a concurrency override, an agent, a number, a campaign
// whose window is always open (3 attempts, no delay) and a workflow whose Contacts node holds
// the contacts; and an owner API key to start the run with.
type crashTeamT struct {
	org, workflow, apiKey string
}

func crashTeam(t *testing.T, db *store.DB, contacts int) crashTeamT {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	owner := store.User{Email: "owner@example.com"}
	must(db.CreateUser(ctx, &owner))
	org := store.Organization{Name: "Crash", OwnerUserID: owner.ID, PublicAPIKey: "pk_" + store.NewID()}
	must(db.CreateOrganization(ctx, &org, owner.Email))
	must(db.AddCredits(ctx, org.ID, 10_000_000, store.LedgerGrant, nil, nil))
	must(db.SetDialerLimit(ctx, org.ID, 500, owner.ID))
	ag := store.Agent{OrganizationID: org.ID, Name: "Ava", Status: "active", Language: "en", FAQ: "{}"}
	must(db.CreateAgent(ctx, &ag))
	num := store.PhoneNumber{OrganizationID: org.ID, E164: "+13125550199", Status: "active", CountryCode: "US"}
	must(db.CreatePhoneNumber(ctx, &num))
	settings := fmt.Sprintf(`{"callWindow":{"start":"00:00","end":"24:00","days":[]},"timezone":"UTC","retryAttempts":%d,`+
		`"retryDelayMinutes":0,"maxConcurrentCalls":500,"recordCalls":false,"voicemailAction":"hang-up"}`, crashMaxAttempts-1)
	campaign := store.Campaign{OrganizationID: org.ID, Name: "Crash", Direction: store.Outbound, Status: store.CampaignActive,
		Priority: "medium", Purpose: "Other", Settings: settings, PhoneNumberID: &num.ID}
	must(db.CreateCampaign(ctx, &campaign))
	nodeID := "contacts-1"
	graph := `{"nodes":[
		{"id":"contacts-1","type":"contacts","position":{"x":0,"y":400},"data":{"contactsSource":"csv"},"flow_meta":{}},
		{"id":"start-1","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},
		{"id":"hello-1","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Hello","instruction":"Greet {{firstName}}."},"flow_meta":{}},
		{"id":"end-1","type":"end-call","position":{"x":0,"y":-800},"data":{},"flow_meta":{}}],
		"edges":[{"id":"e1","source":"start-1","target":"hello-1","type":"add-step"},
		{"id":"e2","source":"hello-1","target":"end-1","type":"add-step"}]}`
	w := store.Workflow{OrganizationID: org.ID, CampaignID: &campaign.ID, Name: "Calls", Type: store.Outbound,
		AgentID: &ag.ID, Graph: graph, PromptStatus: store.PromptSuccess}
	must(db.InTx(ctx, func(ctx context.Context) error {
		return db.CreateWorkflow(ctx, &w, []store.WorkflowNode{{ID: nodeID, Type: "contacts"}})
	}))
	src := store.ContactSource{NodeID: nodeID, OrganizationID: org.ID, WorkflowID: w.ID, Source: "csv", Status: store.ContactsSuccess}
	must(db.InTx(ctx, func(ctx context.Context) error {
		if err := db.SetContactSource(ctx, &src); err != nil {
			return err
		}
		rows := make([]store.Contact, contacts)
		for i := range rows {
			name := fmt.Sprintf("Ann%d", i)
			rows[i] = store.Contact{OrganizationID: org.ID, NodeID: nodeID, ImportID: src.ImportID, Seq: i + 1,
				Phone: fmt.Sprintf("+1312%07d", 2_000_000+i), FirstName: &name, Status: store.ContactPending}
		}
		return db.InsertContacts(ctx, rows)
	}))
	key, prefix := auth.NewAPIKey()
	must(db.CreateAPIKey(ctx, &store.APIKey{OrganizationID: org.ID, Name: "crash " + prefix, Prefix: prefix,
		KeyHash: auth.HashToken(key), Role: "owner"}))
	return crashTeamT{org: org.ID, workflow: w.ID, apiKey: key}
}

// startRun runs the workflow through the API and answers the job's id.
func startRun(t *testing.T, base string, tm crashTeamT) string {
	t.Helper()
	body := strings.NewReader(`{"organizationId":"` + tm.org + `"}`)
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/workflow/run/"+tm.workflow, body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tm.apiKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("run: %d %s", res.StatusCode, raw)
	}
	var out struct{ Data struct{ ID string } }
	if err := json.Unmarshal(raw, &out); err != nil || out.Data.ID == "" {
		t.Fatalf("run: %s", raw)
	}
	return out.Data.ID
}

// ---- the processes --------------------------------------------------------------------------

var (
	fakeOnce sync.Once
	fakeBin  string
	fakeErr  error
)

// buildFakeTelnyx builds cmd/faketelnyx once per test binary.
func buildFakeTelnyx(t *testing.T) string {
	t.Helper()
	fakeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "faketelnyx")
		if err != nil {
			fakeErr = err
			return
		}
		fakeBin = filepath.Join(dir, "faketelnyx")
		out, err := exec.Command("go", "build", "-o", fakeBin, "github.com/bettyhq/betty/server/internal/cmd/faketelnyx").CombinedOutput()
		if err != nil {
			fakeErr = fmt.Errorf("go build faketelnyx: %v\n%s", err, out)
		}
	})
	if fakeErr != nil {
		t.Fatal(fakeErr)
	}
	return fakeBin
}

type fakeTelnyxProc struct {
	URL, APIKey, PublicKey string
}

func startFakeTelnyx(t *testing.T, bin string, args ...string) *fakeTelnyxProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--listen", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadBytes('\n')
	if err != nil {
		t.Fatalf("faketelnyx said nothing: %v", err)
	}
	var p fakeTelnyxProc
	if err := json.Unmarshal(line, &p); err != nil || p.URL == "" || p.PublicKey == "" {
		t.Fatalf("faketelnyx said %q", line)
	}
	return &p
}

func (p *fakeTelnyxProc) stats(t *testing.T) telnyxtest.Stats {
	t.Helper()
	res, err := http.Get(p.URL + "/_fake/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st telnyxtest.Stats
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// bettyProc is a `betty serve` process at a chosen address, keeping the end of its log.
type bettyProc struct {
	cmd *exec.Cmd
	url string
	log *tailWriter
}

func startBettyAt(t *testing.T, addr string, args ...string) *bettyProc {
	t.Helper()
	raw, _ := json.Marshal(append([]string{"serve", "--addr", addr}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServe+"="+string(raw))
	log := &tailWriter{max: 64 << 10}
	cmd.Stderr, cmd.Stdout = log, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &bettyProc{cmd: cmd, url: "http://" + addr, log: log}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(p.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("betty serve did not start: %s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *bettyProc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
}

func (p *bettyProc) logs() string { return p.log.String() }

// tailWriter keeps the last max bytes written.
type tailWriter struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = append([]byte(nil), w.b[len(w.b)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.b)
}
