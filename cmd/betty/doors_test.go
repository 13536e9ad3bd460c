package main

// The doors a newcomer comes in by (issue 21), each tested from a fresh `betty serve` started
// with default flags (only its address and data directory are chosen, so tests do not share
// them), and driven the way a person would: here the CLI alone and the SDK example, each as
// its own process. The browser's door is dashboard/e2e/firstrun.test.mjs.
//
// The test binary is also the betty binary: started with BETTY_TEST_AS_BETTY=1 it runs main,
// so the processes below run exactly the code under test, without a separate build.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if os.Getenv("BETTY_TEST_AS_BETTY") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// server is a `betty serve` child process with default flags on a fresh data directory.
type server struct {
	URL string
	log *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve starts `betty serve --addr 127.0.0.1:<free> --data-dir <fresh>` and waits until it is ready.
func serve(t *testing.T) *server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := &server{URL: "http://" + addr, log: &syncBuffer{}}
	cmd := exec.Command(os.Args[0], "serve", "--addr", addr, "--data-dir", t.TempDir())
	cmd.Env = append(os.Environ(), "BETTY_TEST_AS_BETTY=1")
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("betty serve's log:\n%s", s.log.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-exited:
			t.Fatalf("betty serve exited before it was ready (%v):\n%s", err, s.log.String())
		default:
		}
		if res, err := http.Get(s.URL + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("betty serve was not ready within a minute:\n%s", s.log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// person is one person's machine: the betty CLI with its own configuration directory.
type person struct {
	t       *testing.T
	dir     string
	lastErr string // what the last command run by betty wrote to stderr
}

func newPerson(t *testing.T) *person { return &person{t: t, dir: t.TempDir()} }

func (p *person) command(ctx context.Context, stdin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BETTY_TEST_AS_BETTY=1", "BETTY_CONFIG_DIR="+p.dir, "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

// betty runs one command to its end and answers its stdout; any exit but 0 fails the test.
func (p *person) betty(stdin string, args ...string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := p.command(ctx, stdin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		p.t.Fatalf("betty %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	p.t.Logf("$ betty %s\n%s%s", strings.Join(args, " "), out.String(), errOut.String())
	p.lastErr = errOut.String()
	return out.String()
}

// follow starts a long-running command: each line it writes to stderr goes to lines, which is
// closed when it exits; then exit holds its exit code.
func (p *person) follow(ctx context.Context, args ...string) (lines <-chan string, exit *int) {
	p.t.Helper()
	cmd := p.command(ctx, "", args...)
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = io.Discard, w
	out := make(chan string, 1000)
	code := -1
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		code = cmd.ProcessState.ExitCode()
		close(exited)
		w.Close()
	}()
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			out <- sc.Text()
		}
		<-exited
		close(out)
	}()
	return out, &code
}

var e164 = regexp.MustCompile(`\+1\d{10}`)

// contactsCSV writes the 20 contacts of the journeys: 17 reachable numbers in the window's
// zone, and three rows no one can call (no number, not a number, letters in the number).
func contactsCSV(t *testing.T, reachable []string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("phone,firstName,lastName,email\n")
	for i, p := range reachable {
		fmt.Fprintf(&b, "%s,Ann%d,Lee%d,ann%d@example.com\n", p, i, i, i)
	}
	b.WriteString(",Nora,Nonumber,nora@example.com\n")
	b.WriteString("call me maybe,Will,Words,will@example.com\n")
	b.WriteString("+1-41A-555-ZZZZ,Vic,Vanity,vic@example.com\n")
	path := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The CLI's door: one person with only the betty CLI, on a fresh server, from signing up to a
// run whose calls have transcripts. The campaign's calling window is open now for the San
// Francisco contacts and closed for the New York one, so `--wait` has to say why that contact
// waits and until when; widening the window while the run goes on lets the run finish.
func TestTheCLIDoor(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and runs a calling job")
	}
	srv := serve(t)
	ada := newPerson(t)
	ada.betty("correct horse battery\n", "signup", "--server", srv.URL, "--email", "ada@example.com", "--name", "Ada", "--password-stdin")
	ada.betty("", "teams", "create", "Acme renewals", "--switch")
	agent := strings.TrimSpace(ada.betty("", "agents", "create", "Sam", "--greeting", "Hello, this is Sam from Acme."))
	number := e164.FindString(ada.betty("", "numbers", "search", "--area-code", "415", "--limit", "1"))
	if number == "" {
		t.Fatal("betty numbers search found no number")
	}
	ada.betty("", "numbers", "buy", number)

	// A window open now in San Francisco and closed in New York, three hours ahead.
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	h := time.Now().In(la).Hour()
	window := fmt.Sprintf("%02d:00-%02d:59", max(h-1, 0), min(h+2, 23))
	campaign := strings.TrimSpace(ada.betty("", "campaigns", "create", "Renewals", "--phone-number", number, "--call-window", window, "--days", "mon-sun",
		"--timezone", "America/Los_Angeles", "--retries", "0"))
	workflow := strings.TrimSpace(ada.betty("", "workflow", "create", "Order calls", "--template", "template-order-update",
		"--campaign", "Renewals", "--phone-number", number, "--activate"))
	ada.betty("", "workflow", "set-agent", workflow, agent)

	reachable := make([]string, 0, 17)
	for i := range 16 {
		reachable = append(reachable, fmt.Sprintf("+1415720%04d", i))
	}
	reachable = append(reachable, "+12127200000")
	ada.betty("", "contacts", "import", workflow, contactsCSV(t, reachable), "--wait")
	if !strings.Contains(ada.lastErr, ": 17 contacts, 3 rejected.") {
		t.Fatalf("the import: %s", ada.lastErr)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	lines, exit := ada.follow(ctx, "workflow", "run", workflow, "--wait")
	var said []string
	waiting := regexp.MustCompile(`1 contact waits for (its|their) calling window; the next opens \w{3} \d{2}:\d{2} America/New_York \(in [^)]+\)`)
	for line := range lines {
		said = append(said, line)
		if waiting.MatchString(line) {
			break
		}
	}
	if !waiting.MatchString(strings.Join(said, "\n")) {
		t.Fatalf("`betty workflow run --wait` never said why the New York contact waits:\n%s", strings.Join(said, "\n"))
	}
	// Changed while the run goes on, the window applies to the contacts not called yet.
	ada.betty("", "campaigns", "edit", campaign, "--call-window", "00:00-23:59")
	for line := range lines {
		said = append(said, line)
	}
	t.Logf("$ betty workflow run %s --wait\n%s", workflow, strings.Join(said, "\n"))
	if *exit != 0 || !strings.Contains(strings.Join(said, "\n"), "The run succeeded: ") {
		t.Fatalf("the run did not succeed (exit %d):\n%s", *exit, strings.Join(said, "\n"))
	}
	calls := ada.betty("", "calls", "list", "--json")
	if strings.Count(calls, `"to":`) < 17 {
		t.Errorf("17 contacts were called, the call logs hold:\n%s", calls)
	}
}

// The SDK's door: the example program, built as a user would build it, against a fresh
// server, signing up and doing everything else through the SDK.
func TestTheSDKDoor(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server, builds the example and runs a calling job")
	}
	srv := serve(t)
	bin := filepath.Join(t.TempDir(), "campaign")
	build := exec.Command("go", "build", "-o", bin, "github.com/bettyhq/betty/sdk/examples/campaign")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the example: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-server", srv.URL, "-signup", "-email", "ada@example.com", "-password", "correct horse battery")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("the example: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errOut.String())
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	job := regexp.MustCompile(`Job       \S+: success, (\d) completed, (\d) failed of 5\n`).FindStringSubmatch(out.String())
	if job == nil {
		t.Errorf("the example's job did not call its five contacts:\n%s", out.String())
	}
	if !strings.Contains(errOut.String(), "progress: 100%") {
		t.Errorf("no progress to 100%% on stderr:\n%s", errOut.String())
	}
}
