// Command benchreport measures Betty as people meet it and prints one table, from one run:
// the authenticated list read through the whole stack next to the same SQL served by a bare
// net/http handler (with the ratio), the server's start-up time and idle memory, a CLI round
// trip, the dashboard's initial JavaScript and its Lighthouse scores (landing page and Home),
// and knowledge bases (parse and index throughput, search latency; on PostgreSQL too when
// BETTY_TEST_POSTGRES_URL is set; the peak memory of eight zip bombs read at once). `make
// bench` runs it after the Go benchmarks; later features add their rows.
//
// usage: benchreport -bin bin/betty [-duration 3s] [-clients 8] [-knowledge-only] [-searches 2000]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bettyhq/betty/server/app"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/store"
)

type row struct{ metric, value, note string }

func main() {
	bin := flag.String("bin", "bin/betty", "the betty binary to measure")
	duration := flag.Duration("duration", 3*time.Second, "how long each throughput run lasts")
	clients := flag.Int("clients", 8, "concurrent clients of the throughput runs")
	members := flag.Int("members", 200, "members of the team whose member list is read")
	kbOnly := flag.Bool("knowledge-only", false, "measure only the knowledge-base rows")
	searches := flag.Int("searches", 2000, "searches timed for the knowledge search latency")
	bombsChild := flag.Bool("bombs-child", false, "be the child process that reads the zip bombs (bombRows)")
	flag.Parse()
	if *bombsChild {
		if err := readBombs(); err != nil {
			fmt.Fprintf(os.Stderr, "benchreport: bombs: %v\n", err)
			os.Exit(1)
		}
		return
	}
	var rows []row
	add := func(r ...row) { rows = append(rows, r...) }
	fail := func(what string, err error) {
		fmt.Fprintf(os.Stderr, "benchreport: %s: %v\n", what, err)
		os.Exit(1)
	}

	if !*kbOnly {
		r, err := listThroughput(*duration, *clients, *members)
		if err != nil {
			fail("list throughput", err)
		}
		add(r...)
		r, err = campaignList(*duration, *clients)
		if err != nil {
			fail("campaign list", err)
		}
		add(r...)
		r, err = process(*bin)
		if err != nil {
			fail("server process", err)
		}
		add(r...)
	}
	r, err := knowledgeRows(os.Getenv("BETTY_TEST_POSTGRES_URL"), *searches)
	if err != nil {
		fail("knowledge", err)
	}
	add(r...)
	r, err = bombRows()
	if err != nil {
		fail("zip bombs", err)
	}
	add(r...)
	if !*kbOnly {
		if out, err := exec.Command("node", "dashboard/scripts/size.mjs").Output(); err == nil {
			add(row{"dashboard initial load", strings.TrimPrefix(strings.TrimSpace(string(out)), "dashboard initial bundle: "), "lazy routes not counted"})
		} else {
			add(row{"dashboard initial load", "not measured", "build the dashboard first (make dashboard)"})
		}
		add(lighthouse(*bin)...)
		add(canvas(*bin)...)
		add(importRows(os.Getenv("BETTY_TEST_POSTGRES_URL"))...)
		add(conversationRows()...)
		add(turnLatencyRows()...)
	}
	fmt.Printf("\nBetty benchmark report — %s, %d CPU, %s\n\n", runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format(time.DateOnly))
	w := 0
	for _, r := range rows {
		w = max(w, len(r.metric))
	}
	for _, r := range rows {
		fmt.Printf("  %-*s  %-22s  %s\n", w, r.metric, r.value, r.note)
	}
	fmt.Println()
}

// bench is one read served through the whole server (JWT, session, user, membership, rate
// limiter off, validation, handler, domain, store, JSON) and as the same store call on a bare
// net/http handler, on one fresh SQLite file.
type bench struct {
	members int                                                       // the team's size
	fill    func(ctx context.Context, db *store.DB, org string) error // more data, or nil
	query   func(org string) string                                   // the query string of both
	path    string                                                    // the operation's path
	bare    func(r *http.Request, db *store.DB) (data any, total int, err error)
}

// rates answers the requests per second of the full stack and of the bare handler.
func (b bench) rates(d time.Duration, clients int) (full, bare float64, err error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "betty-bench-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	cfg := config.Default()
	cfg.DataDir, cfg.RateLimit, cfg.BaseURL = dir, 0, "http://bench"
	a, err := app.New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, "bench")
	if err != nil {
		return 0, 0, err
	}
	defer a.Close()
	fullURL, stop, err := serve(a.Handler())
	if err != nil {
		return 0, 0, err
	}
	defer stop()
	token, org, err := seed(ctx, fullURL, a.DB(), b.members)
	if err != nil {
		return 0, 0, err
	}
	db := a.DB()
	if b.fill != nil {
		if err := b.fill(ctx, db, org); err != nil {
			return 0, 0, err
		}
	}
	if full, err = hammer(d, clients, fullURL+b.path+"?"+b.query(org), token); err != nil {
		return 0, 0, err
	}
	bareURL, stopBare, err := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, total, err := b.bare(r, db)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"status": 200, "data": data, "meta": map[string]int{"totalSize": total}})
	}))
	if err != nil {
		return 0, 0, err
	}
	defer stopBare()
	bare, err = hammer(d, clients, bareURL+"/?"+b.query(org), "")
	return full, bare, err
}

// compared is the three rows of a bench: both rates and their ratio.
func compared(what, note, ratioNote string, full, bare float64) []row {
	return []row{
		{what + ", full stack", fmt.Sprintf("%.0f req/s", full), note},
		{"same SQL, bare net/http", fmt.Sprintf("%.0f req/s", bare), "the list's count and page queries, JSON-encoded"},
		{"full stack / bare", fmt.Sprintf("%.2f", full/bare), ratioNote},
	}
}

// listThroughput compares the member list of a team, page 1.
func listThroughput(d time.Duration, clients, members int) ([]row, error) {
	full, bare, err := bench{
		members: members,
		path:    "/v1/team/members/list",
		query:   func(org string) string { return "organizationId=" + org },
		bare: func(r *http.Request, db *store.DB) (any, int, error) {
			return db.ListMembers(r.Context(), r.URL.Query().Get("organizationId"), 10, 0)
		},
	}.rates(d, clients)
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("GET /v1/team/members/list, page 1 of a %d-member team, %d clients, %s", members, clients, d)
	return compared("member list", note, "auth, validation, policy, domain and rendering cost", full, bare), nil
}

// campaignList reads page 1 of a team's campaigns, filtered by status and name with totals, in a
// database of 100,000 campaigns of which 10,000 are the team's.
func campaignList(d time.Duration, clients int) ([]row, error) {
	full, bare, err := bench{
		members: 1,
		fill:    fillCampaigns,
		path:    "/v1/campaigns/list",
		query: func(org string) string {
			return "organizationId=" + org + "&status=draft&name=renewals&page=1&sizePerPage=5"
		},
		bare: func(r *http.Request, db *store.DB) (any, int, error) {
			q := r.URL.Query()
			return db.ListCampaigns(r.Context(), q.Get("organizationId"),
				store.CampaignFilter{Status: store.CampaignStatus(q.Get("status")), Name: q.Get("name")}, 5, 0)
		},
	}.rates(d, clients)
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("status=draft&name=renewals, page 1 of 5 with totals; 10,000 of 100,000 campaigns; %d clients", clients)
	return compared("campaign list", note, "target: at least 0.5", full, bare), nil
}

// fillCampaigns gives org 10,000 campaigns and nine other teams as many.
func fillCampaigns(ctx context.Context, db *store.DB, org string) error {
	statuses := []store.CampaignStatus{store.CampaignDraft, store.CampaignPaused, store.CampaignCompleted, store.CampaignActive}
	words := []string{"Renewals", "Welcome calls", "Survey", "Reminders", "Win-back"}
	return db.InTx(ctx, func(ctx context.Context) error {
		for team := range 10 {
			owner := org
			if team > 0 {
				o := store.Organization{Name: fmt.Sprintf("Other %d", team), OwnerUserID: ownerOf(ctx, db, org), PublicAPIKey: fmt.Sprintf("pk_%d", team)}
				if err := db.CreateOrganization(ctx, &o, "bench@example.com"); err != nil {
					return err
				}
				owner = o.ID
			}
			for i := range 10_000 {
				c := store.Campaign{OrganizationID: owner, Name: fmt.Sprintf("%s %d", words[i%len(words)], i), Direction: store.Outbound,
					Status: statuses[i%len(statuses)], Priority: "medium", Purpose: "Other", Settings: "{}"}
				if err := db.CreateCampaign(ctx, &c); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func ownerOf(ctx context.Context, db *store.DB, org string) string {
	o, _ := db.OrganizationByID(ctx, org)
	return o.OwnerUserID
}

func serve(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// seed signs a user up through the API, and gives them a team of n members in the store.
func seed(ctx context.Context, base string, db *store.DB, n int) (token, org string, err error) {
	res, err := http.Post(base+"/v1/auth/sign-up", "application/json",
		strings.NewReader(`{"email":"bench@example.com","password":"correct horse battery"}`))
	if err != nil {
		return "", "", err
	}
	defer res.Body.Close()
	var body struct {
		Data struct {
			User    struct{ ID string }
			Session struct{ AccessToken string }
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.Data.Session.AccessToken == "" {
		return "", "", fmt.Errorf("sign up: %d %v", res.StatusCode, err)
	}
	o := store.Organization{Name: "Bench", OwnerUserID: body.Data.User.ID, PublicAPIKey: "betty_pk_bench"}
	if err := db.CreateOrganization(ctx, &o, "bench@example.com"); err != nil {
		return "", "", err
	}
	for i := range n - 1 {
		if _, err := db.Invite(ctx, o.ID, fmt.Sprintf("member%d@example.com", i), "member", ""); err != nil {
			return "", "", err
		}
	}
	return body.Data.Session.AccessToken, o.ID, nil
}

// hammer sends GETs from clients goroutines for d and answers the rate of 200s.
func hammer(d time.Duration, clients int, url, token string) (float64, error) {
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	var ok atomic.Int64
	var firstErr error
	var once sync.Once
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				res, err := c.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 {
						err = fmt.Errorf("status %d", res.StatusCode)
					}
				}
				if err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(ok.Load()) / d.Seconds(), firstErr
}

// lighthouse runs dashboard/scripts/lighthouse.mjs against the binary (its own server on a fresh
// data dir) and reports the performance and accessibility scores of the landing page and Home.
func lighthouse(bin string) []row {
	cmd := exec.Command("node", "dashboard/scripts/lighthouse.mjs", "--json")
	cmd.Env = append(os.Environ(), "BETTY_BIN="+bin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var results []struct {
		Page          string `json:"page"`
		Performance   int    `json:"performance"`
		Accessibility int    `json:"accessibility"`
		LCP           string `json:"lcp"`
		TBT           string `json:"tbt"`
	}
	if err == nil {
		err = json.Unmarshal(bytes.TrimSpace(out), &results)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		return []row{{"lighthouse", "not measured", fmt.Sprintf("%v %s (needs make deps and /usr/bin/chromium or CHROME_PATH)", err, msg)}}
	}
	var rows []row
	for _, r := range results {
		rows = append(rows, row{"lighthouse, " + r.Page, fmt.Sprintf("perf %d · a11y %d", r.Performance, r.Accessibility),
			fmt.Sprintf("mobile profile (slow 4G, 4x CPU); LCP %s, TBT %s", r.LCP, r.TBT)})
	}
	return rows
}

// process starts the real binary: start-up time on a fresh and on an existing data dir, idle
// memory, and a CLI round trip against it.
func process(bin string) ([]row, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%s: %w (run make build)", bin, err)
	}
	dir, err := os.MkdirTemp("", "betty-bench-serve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fresh, _, stop, err := start(bin, dir)
	if err != nil {
		return nil, err
	}
	stop()
	again, url, stop, err := start(bin, dir)
	if err != nil {
		return nil, err
	}
	defer stop()
	time.Sleep(2 * time.Second) // let it settle: idle
	rss := "unknown"
	if raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", lastPID)); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			var kb int
			if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &kb); err == nil {
				rss = fmt.Sprintf("%.1f MiB", float64(kb)/1024)
			}
		}
	}
	// A CLI round trip: a process start, a signed-in request and its output.
	key, err := apiKey(url)
	if err != nil {
		return nil, err
	}
	var times []time.Duration
	for range 21 {
		cmd := exec.Command(bin, "whoami", "--json")
		cmd.Env = append(os.Environ(), "BETTY_SERVER="+url, "BETTY_API_KEY="+key, "BETTY_CONFIG_DIR="+dir)
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("betty whoami: %v: %s", err, out)
		}
		times = append(times, time.Since(t0))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	var starts []time.Duration
	for range 21 {
		t0 := time.Now()
		if out, err := exec.Command(bin, "--version").CombinedOutput(); err != nil {
			return nil, fmt.Errorf("betty --version: %v: %s", err, out)
		}
		starts = append(starts, time.Since(t0))
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	return []row{
		{"server start-up, fresh data dir", ms(fresh), "process start to /readyz 200, migrations included"},
		{"server start-up, existing data", ms(again), "process start to /readyz 200"},
		{"idle RSS", rss, "2 s after start-up, no traffic"},
		{"CLI start-up", ms(starts[len(starts)/2]), "betty --version, process start to exit, median of 21"},
		{"CLI round trip", ms(times[len(times)/2]), "betty whoami --json with an API key, median of 21"},
	}, nil
}

var lastPID int

func start(bin, dir string) (time.Duration, string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, "", nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "serve", "--data-dir", dir, "--addr", addr, "--log-level", "warn")
	var logs bytes.Buffer
	cmd.Stderr = &logs
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, "", nil, err
	}
	lastPID = cmd.Process.Pid
	stop := func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }
	url := "http://" + addr
	for time.Since(t0) < 30*time.Second {
		res, err := http.Get(url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return time.Since(t0), url, stop, nil
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	stop()
	return 0, "", nil, errors.New("no readiness within 30 s: " + logs.String())
}

// apiKey signs up on the server at url, makes a team and answers an API key of it.
func apiKey(url string) (string, error) {
	post := func(path, token string, body any, out any) error {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, url+path, bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 {
			b, _ := io.ReadAll(res.Body)
			return fmt.Errorf("%s: %d %s", path, res.StatusCode, b)
		}
		return json.NewDecoder(res.Body).Decode(out)
	}
	var up struct {
		Data struct{ Session struct{ AccessToken string } }
	}
	if err := post("/v1/auth/sign-up", "", map[string]any{"email": "cli@example.com", "password": "correct horse battery"}, &up); err != nil {
		return "", err
	}
	tok := up.Data.Session.AccessToken
	var team struct{ Data struct{ ID string } }
	if err := post("/v1/team/new", tok, map[string]any{"name": "CLI"}, &team); err != nil {
		return "", err
	}
	var key struct{ Data struct{ Key string } }
	if err := post("/v1/team/api-keys", tok, map[string]any{"organizationId": team.Data.ID, "name": "bench"}, &key); err != nil {
		return "", err
	}
	return key.Data.Key, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
