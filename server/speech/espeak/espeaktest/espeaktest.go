// Package espeaktest is for tests that need the local speech engine.
package espeaktest

import (
	"testing"

	"github.com/bettyhq/betty/server/speech/speechtest"
)

// Installed reports whether espeak-ng and lame are both on PATH.
func Installed() bool { return speechtest.Installed(speechtest.Espeak...) }

// Require skips the test when espeak-ng or lame is not installed, except in CI, where it
// fails: .ci/run installs both.
func Require(t testing.TB) {
	t.Helper()
	speechtest.Require(t, speechtest.Espeak...)
}
