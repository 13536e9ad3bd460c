package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/root"
	"github.com/bettyhq/betty/server/internal/smtptest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// envServe makes this test binary run `betty` with the JSON-encoded arguments it holds instead
// of the tests: how a test starts a real `betty serve` process it can kill.
const envServe = "BETTY_TEST_RUN_BETTY"

func TestMain(m *testing.M) {
	if raw := os.Getenv(envServe); raw != "" {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		f := cmdutil.NewFactory("crash-test", func() fs.FS { return nil })
		os.Exit(root.Run(context.Background(), f, args))
	}
	os.Exit(m.Run())
}

// server is a `betty serve` process.
type server struct {
	cmd *exec.Cmd
	url string
	log *strings.Builder
}

func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	addr := freeAddr(t)
	raw, _ := json.Marshal(append([]string{"serve", "--addr", addr, "--log-level", "debug"}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServe+"="+string(raw))
	log := &strings.Builder{}
	cmd.Stderr, cmd.Stdout = &lockedWriter{b: log}, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, url: "http://" + addr, log: log}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(s.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start: %s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill ends the process at once, as a crash or an OOM kill would.
func (s *server) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type lockedWriter struct{ b *strings.Builder }

func (w *lockedWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

// The outbox survives a crash: an e-mail committed with the change that caused it, but not yet
// sent when the server is killed (-9), goes out after the restart, exactly once. The relay is
// down at first, so the message is provably between commit and send when the kill comes.
func TestAnEmailCommittedBeforeACrashIsSentOnceAfterIt(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			// After a kill, the new process waits for the dead one's leadership to lapse (River's
			// leader runs the scheduler that makes the retry due): about 20 s, so the dialects
			// run side by side.
			t.Parallel()
			opts := testdb.Options(t, d)
			dbArgs := []string{"--data-dir", opts.DataDir}
			if opts.DatabaseURL != "" {
				dbArgs = []string{"--database-url", opts.DatabaseURL, "--data-dir", t.TempDir()}
			}
			relayAddr := freeAddr(t) // nothing listens there yet: the relay is down
			args := append(dbArgs, "--smtp-url", "smtp://"+relayAddr, "--mail-from", "betty@betty.test", "--rate-limit", "0")

			first := startServer(t, args...)
			res, err := http.Post(first.url+"/v1/auth/sign-up", "application/json",
				strings.NewReader(`{"email":"ada@example.com","password":"correct horse battery"}`))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusCreated {
				t.Fatalf("sign up: %d", res.StatusCode)
			}
			db, err := store.Open(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			// The sending job ran and failed, and River recorded it for a retry: committed, not
			// sent, and not being worked when the kill comes.
			mail := waitFor(t, db, "ada@example.com", store.EmailFailed, first)
			waitForJob(t, db, "send_email", "retryable")
			first.kill(t)

			relay := smtptest.StartAt(t, relayAddr)
			second := startServer(t, args...)
			sent := waitFor(t, db, "ada@example.com", store.EmailSent, second)
			if sent.ID != mail.ID {
				t.Fatalf("a different message was sent: %+v", sent)
			}
			// Give a duplicate every chance to show up.
			time.Sleep(1500 * time.Millisecond)
			msgs := relay.Messages()
			if len(msgs) != 1 || msgs[0].To != "ada@example.com" || !strings.Contains(msgs[0].Data, sent.Link) {
				t.Fatalf("the relay got %d messages: %+v", len(msgs), msgs)
			}
			all, err := db.Outbox(context.Background(), "ada@example.com")
			if err != nil || len(all) != 1 {
				t.Fatalf("outbox: %+v %v", all, err)
			}
		})
	}
}

// waitFor waits until the newest message to addr has status want.
func waitFor(t *testing.T, db *store.DB, addr string, want store.EmailStatus, s *server) store.Email {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		msgs, err := db.Outbox(context.Background(), addr)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) > 0 && msgs[0].Status == want {
			return msgs[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the message to %s never became %s: %+v\nserver log:\n%s", addr, want, msgs, s.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitForJob waits until River's newest job of a kind is in state.
func waitForJob(t *testing.T, db *store.DB, kind, state string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got string
		err := db.Writer().QueryRow(`SELECT state FROM river_job WHERE kind = '` + kind + `' ORDER BY id DESC LIMIT 1`).Scan(&got)
		if err == nil && got == state {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s never %s (last %q, %v)", kind, state, got, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
