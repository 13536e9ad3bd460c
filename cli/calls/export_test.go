package calls

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestExport(t *testing.T) {
	csv := "call_id,to,status,started_at,duration_seconds,outcome,summary,email\ncall-1,+14155550123,completed,2026-03-14T09:26:53Z,65,completed,Ann asked for a demo.,ann@example.com\n"
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/workflow/job/job-1/calls.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="calls-job-1.csv"`)
		w.Write([]byte(csv))
	})
	stub.Handle("GET /v1/workflow/job/job-2/calls.csv", clitest.Problem(http.StatusNotFound, client.ProblemCodeNotFound, "There is nothing at this address."))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdCalls(f), "export", "job-1"); err != nil || s.Out.String() != csv {
		t.Fatalf("stdout: %v %q", err, s.Out)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "calls.csv")
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true})
	if err := clitest.Run(NewCmdCalls(f), "export", "job-1", "-o", path); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != csv || !strings.Contains(s.ErrOut.String(), "Wrote "+path) {
		t.Fatalf("file %q, %q", got, s.ErrOut)
	}
	// A job it cannot find: an error, and no file left behind.
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	err := clitest.Run(NewCmdCalls(f), "export", "job-2", "-o", filepath.Join(dir, "none.csv"))
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("unknown job: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files left: %v", entries)
	}
}
