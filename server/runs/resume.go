package runs

import (
	"context"
	"time"

	"github.com/bettyhq/betty/server/store"
)

// The crash gap: the driver commits a call's new state and then sends the carrier the
// commands that state decided (transition, driver.go). A process that dies between the two
// leaves the call silent: the carrier waits for a command, the dialer for an event.
//
// So the state keeps the commands of its last step (callState.Outbox, with the number of the
// first, which makes their keys), and the sweep (every 10 s, on the leader replica) calls
// Resume: every call on the line that nothing moved for Config.ResumeAfter (default 30 s,
// longer than a listen) is sent its last commands again, with the same keys (attempt id and
// command number, Telnyx's command_id), and an inbound call still ringing is answered again
// (key "<attempt>:answer"). A command the carrier carried out already is not carried out
// twice (command_id); one it never got is carried out now, and the call goes on. A call
// quiet for a good reason (the person speaks for long) gets the same commands again, which
// changes nothing. With Telnyx, sending a listen again also restarts its silence timer, which
// lived in the dead process.

// resumeBatch is how many quiet calls one Resume looks at.
const resumeBatch = 500

// Resume sends the last commands of quiet calls again (see above) and answers how many calls
// it resumed.
func (s *Service) Resume(ctx context.Context) (int, error) {
	if s.d.Calls == nil {
		return 0, nil
	}
	quiet, err := s.db.QuietCalls(ctx, s.d.Now().Add(-s.cfg.ResumeAfter), resumeBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, a := range quiet {
		callID := deref(a.CallControlID)
		switch {
		case a.State == store.AttemptRinging && a.DialledAt == nil: // an inbound call not answered yet
			j, err := s.job(ctx, a.JobID)
			if err != nil {
				return n, err
			}
			s.d.Log.InfoContext(ctx, "inbound call answered again", "attempt", a.ID, "call", callID)
			s.answer(ctx, a.ID, callID, decodeSettings(j.Settings).Record)
			n++
		case a.State == store.AttemptInCall:
			cs := readState(a)
			if len(cs.Outbox) == 0 {
				break
			}
			s.d.Log.InfoContext(ctx, "quiet call: its last commands sent again", "attempt", a.ID, "call", callID, "commands", len(cs.Outbox))
			s.send(ctx, a.ID, callID, cs.OutboxFirst, cs.Outbox, cs.OutboxEarly)
			n++
		}
		if err := s.db.TouchAttempt(ctx, a.ID); err != nil {
			return n, err
		}
	}
	return n, nil
}

// resumeAfterDefault is Config.ResumeAfter's default.
const resumeAfterDefault = 30 * time.Second
