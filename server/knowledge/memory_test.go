package knowledge_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/store"
)

// maxBombGrowth is how far eight zip bombs read at once may raise the process's peak memory.
const maxBombGrowth = 150 << 20

// Eight zip bombs of 1.2 GB read at once, as eight job workers would, raise the peak memory of
// the process (VmHWM) by at most 150 MB above idle: each parse streams its file, stops at the
// text cap, and first waits for its share of the memory budget. A child process measures
// itself, so nothing else this test binary did counts.
func TestEightBombsInBoundedMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEightBombsChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "BETTY_BOMBS_CHILD=1")
	out, err := cmd.CombinedOutput()
	var idle, peak int64
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		if _, e := fmt.Sscanf(strings.TrimSpace(sc.Text()), "bombs: idle %d kB, peak %d kB", &idle, &peak); e == nil {
			break
		}
	}
	if err != nil || peak == 0 {
		t.Fatalf("child: %v\n%s", err, out)
	}
	growth := (peak - idle) << 10
	t.Logf("eight bombs at once: peak RSS %d MiB above idle (%d MiB → %d MiB)", growth>>20, idle>>10, peak>>10)
	if growth > maxBombGrowth {
		t.Fatalf("peak RSS grew by %d MiB, more than %d MiB", growth>>20, maxBombGrowth>>20)
	}
}

// TestEightBombsChild is the child of TestEightBombsInBoundedMemory.
func TestEightBombsChild(t *testing.T) {
	if os.Getenv("BETTY_BOMBS_CHILD") == "" {
		t.Skip("run by TestEightBombsInBoundedMemory")
	}
	ctx := context.Background()
	db := testdb.Open(t, store.SQLite, true)
	svc, files, a, kbID := kb(t, db, knowledge.Limits{}) // the defaults `betty serve` runs with
	var ids []string
	for i, bomb := range knowledgetest.EightBombs() {
		e, err := svc.AddFile(ctx, a, kbID, files.add(fmt.Sprintf("bomb-%d.docx", i), docxType, bomb), "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	runtime.GC()
	debug.FreeOSMemory()
	idle := procStatus(t, "VmRSS")
	// Writing 5 to clear_refs resets the peak (VmHWM) to what is resident now.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := svc.ParseFile(ctx, a.OrganizationID, id, false); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	peak := procStatus(t, "VmHWM")
	fmt.Printf("bombs: idle %d kB, peak %d kB\n", idle, peak)
	for _, id := range ids {
		if f, err := db.KnowledgeFileByID(ctx, a.OrganizationID, id); err != nil || f.Status != store.KnowledgeError {
			t.Errorf("bomb %s: %+v %v", id, f, err)
		}
	}
}

// procStatus reads a kB field of /proc/self/status.
func procStatus(t *testing.T, field string) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, field+": %d kB", &kb); err == nil {
			return kb
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}
