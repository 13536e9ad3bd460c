package calls

import (
	"fmt"
	"io"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// The one transcript printer: `betty calls transcript` (a table), `betty calls view` (what
// was said, after the call's fields) and `betty workflow test-run --follow` (each turn as it
// is said) show turns the same way.

// Offset shows a turn's time from the answer as m:ss.
func Offset(sec float64) string {
	s := int(sec)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Speaker names who spoke a turn.
func Speaker(s client.TranscriptSpeaker) string {
	switch s {
	case client.TranscriptSpeakerAgent:
		return "Agent"
	case client.TranscriptSpeakerCustomer:
		return "Customer"
	}
	return string(s)
}

// TurnRows writes turns as rows of t (AT, SPEAKER, TEXT).
func TurnRows(t *cmdutil.Table, turns []client.TranscriptEntry) {
	t.Header("AT", "SPEAKER", "TEXT")
	for _, e := range turns {
		t.Row(Offset(e.OffsetSeconds), Speaker(e.Speaker), e.Text)
	}
}

// PrintTurns writes turns one a line: "[0:04] Customer: Yes, go ahead."
func PrintTurns(w io.Writer, turns []client.TranscriptEntry) {
	for _, e := range turns {
		fmt.Fprintf(w, "[%s] %s: %s\n", Offset(e.OffsetSeconds), Speaker(e.Speaker), e.Text)
	}
}
