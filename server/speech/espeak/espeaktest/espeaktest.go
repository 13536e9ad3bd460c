// Package espeaktest is for tests that need the local speech engine.
package espeaktest

import (
	"os"
	"os/exec"
	"testing"
)

// Installed reports whether espeak-ng and lame are both on PATH.
func Installed() bool {
	for _, p := range []string{"espeak-ng", "lame"} {
		if _, err := exec.LookPath(p); err != nil {
			return false
		}
	}
	return true
}

// Require skips the test when espeak-ng or lame is not installed, except in CI, where it
// fails: .ci/run installs both.
func Require(t testing.TB) {
	t.Helper()
	for _, p := range []string{"espeak-ng", "lame"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (.ci/run installs espeak-ng and lame)", p)
			}
			t.Skipf("%s is not installed: apt-get install espeak-ng lame", p)
		}
	}
}
