// Package speechtest is for tests that need the programs of the local speech engines.
package speechtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Flite, Sphinx and Espeak are the programs each local engine runs (Debian's packages of the
// same names install them, with pocketsphinx-en-us for Sphinx's model).
var (
	Espeak = []string{"espeak-ng", "lame"}
	Flite  = []string{"flite", "lame"}
	Sphinx = []string{"pocketsphinx_continuous", "sox", "lame"}
)

// Installed reports whether every program is on PATH.
func Installed(programs ...string) bool {
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			return false
		}
	}
	return true
}

// Require skips the test when a program is not installed, except in CI, where it fails:
// .ci/run installs them all.
func Require(t testing.TB, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (.ci/run installs %s)", p, strings.Join(programs, ", "))
			}
			t.Skipf("%s is not installed: apt-get install %s", p, strings.Join(programs, " "))
		}
	}
}
