package calls

import (
	"context"

	"github.com/bettyhq/betty/server/events"
)

// AttachRecording stores the MP3 of a call closed before its recording arrived (runs.CallLogs:
// a carrier's recording comes after the hang-up), in the transaction in ctx. A call log with a
// recording keeps it. (Added by the runs feature, which owns the port.)
func (s *Service) AttachRecording(ctx context.Context, orgID, callLogID string, mp3 []byte) error {
	if len(mp3) == 0 {
		return nil
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		has, err := s.db.CallLogHasRecording(ctx, orgID, callLogID)
		if err != nil || has {
			return err
		}
		id, err := s.storeRecording(ctx, orgID, callLogID, mp3)
		if err != nil {
			return err
		}
		if ok, err := s.db.SetCallLogRecording(ctx, orgID, callLogID, id); err != nil || !ok {
			return err
		}
		return s.events.Publish(ctx, orgID, events.CallUpdated, callLogID)
	})
}
