package apitest

import (
	"testing"
	"time"

	"github.com/bettyhq/betty/server/workflows"
)

// AwakeNumber answers a number ending in last (four digits) whose local time is within the
// default calling window (08:00–21:00, with an hour to spare) now: in San Francisco, London or
// Sydney, one of which is always awake. A run over such numbers outside any campaign dials them
// at once, whatever the hour the test runs; a test that waits for calls to end needs them.
func AwakeNumber(t testing.TB, last string) string {
	t.Helper()
	if len(last) != 4 {
		t.Fatalf("AwakeNumber: %q is not four digits", last)
	}
	for _, n := range []string{"+1415555" + last, "+4420794601" + last[2:], "+6129374" + last} {
		_, _, tz, ok := workflows.NormalizePhone(n, "US")
		if !ok || tz == nil {
			t.Fatalf("%s: not a valid number with a zone", n)
		}
		loc, err := time.LoadLocation(*tz)
		if err != nil {
			t.Fatal(err)
		}
		if h := time.Now().In(loc).Hour(); h >= 8 && h < 20 {
			return n
		}
	}
	t.Fatal("no candidate number is within its calling window now")
	return ""
}
