// Package calls is what calls leave behind: the call log of every call (opened, moved along
// and closed by the dialer through the runs.CallLogs port), its transcript per turn, its
// recording (an MP3 kept as an upload of the team, served at the uploads' signed URL so
// browsers can seek in it), the statistics of calls per day, the inbox item each finished
// call files, and the team's do-not-call list the dialer checks before every dial
// (runs.Suppressions). Every change a client may be watching is published to the team's
// event stream in the same transaction (call.updated, inbox.updated).
package calls

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/store"
)

// The dialer's ports this package and events satisfy (server/app wires them).
var (
	_ runs.CallLogs     = (*Service)(nil)
	_ runs.Suppressions = (*Service)(nil)
	_ runs.Events       = (*events.Service)(nil)
)

// Links signs download URLs of a team's uploads (uploads.Service).
type Links interface {
	URL(ctx context.Context, orgID, uploadID string) (string, error)
}

// RecordingPurpose is the upload purpose of call recordings.
const RecordingPurpose = "call-recording"

// LinkTTL is how long a recording URL works: as long as every file URL (uploads.LinkTTL).
const LinkTTL = 24 * time.Hour

// Service is the calls domain.
type Service struct {
	db     *store.DB
	files  storage.Storage
	links  Links
	events events.Publisher
	now    func() time.Time
}

// New returns the service: recordings are written to files (the storage uploads use, under
// the team's prefix) and signed by links; changes are published to events.
func New(db *store.DB, files storage.Storage, links Links, events events.Publisher) *Service {
	return &Service{db: db, files: files, links: links, events: events, now: time.Now}
}

// CallLog is a call placed or received.
type CallLog = store.CallLog

// Open records a call about to be placed (status queued) and answers its id (runs.CallLogs).
// Opening the call of an attempt again answers the call log it has.
func (s *Service) Open(ctx context.Context, c runs.CallOpened) (string, error) {
	if c.Direction != "inbound" && c.Direction != "outbound" {
		return "", fmt.Errorf("calls: direction %q", c.Direction)
	}
	var id string
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		if c.AttemptID != "" {
			if got, err := s.db.CallLogByAttempt(ctx, c.OrganizationID, c.AttemptID); err == nil {
				id = got.ID
				return nil
			} else if !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		l := CallLog{OrganizationID: c.OrganizationID, Direction: c.Direction, From: c.From, To: c.To, Status: store.CallQueued,
			CampaignID: orNil(c.CampaignID), AgentID: orNil(c.AgentID), WorkflowID: orNil(c.WorkflowID), JobID: orNil(c.JobID),
			AttemptID: orNil(c.AttemptID), StartTime: s.now(), Simulated: c.Simulated}
		if err := s.db.CreateCallLog(ctx, &l); err != nil {
			return err
		}
		id = l.ID
		return s.events.Publish(ctx, c.OrganizationID, events.CallUpdated, id)
	})
	return id, err
}

// Progress records the carrier's id and a status change of a call under way
// (runs.CallLogs). A call that ended is left as it ended.
func (s *Service) Progress(ctx context.Context, orgID, callLogID string, p runs.CallProgress) error {
	st := store.CallStatus(p.Status)
	switch st {
	case store.CallQueued, store.CallRinging, store.CallInProgress:
	default:
		return fmt.Errorf("calls: progress to %q (end a call with Close)", p.Status)
	}
	var answered *time.Time
	if st == store.CallInProgress {
		at := p.At
		if at.IsZero() {
			at = s.now()
		}
		answered = utc(&at)
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.ProgressCallLog(ctx, orgID, callLogID, orNil(p.CallControlID), st, answered); err != nil {
			return err
		}
		return s.events.Publish(ctx, orgID, events.CallUpdated, callLogID)
	})
}

// Close records how a call ended (runs.CallLogs): its final status, times and cost, its
// transcript, its recording and the inbox item it files, all in the transaction in ctx.
// Closing a call that ended already changes nothing.
//
// The recording's bytes are written to the storage before the transaction commits; should
// it roll back, they stay behind without an upload row (storage objects are not transactional).
func (s *Service) Close(ctx context.Context, orgID, callLogID string, c runs.CallClosed) error {
	st := store.CallStatus(c.Status)
	if !st.Final() {
		return fmt.Errorf("calls: close with status %q", c.Status)
	}
	if err := checkTurns(c.Turns); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		l, err := s.db.CallLogByID(ctx, orgID, callLogID)
		if err != nil {
			return err
		}
		if l.EndTime != nil {
			return nil
		}
		end := store.CallEnd{Status: st, AnsweredAt: utc(c.AnsweredAt), EndTime: c.EndedAt, BilledMinutes: max(c.BilledMinutes, 0),
			Cost: max(c.Cost, 0), HasTranscript: len(c.Turns) > 0 || l.HasTranscript, EndReason: orNil(strings.TrimSpace(c.Reason))}
		if c.Path != nil {
			end.Path = store.Strings(c.Path)
		}
		if end.EndTime.IsZero() {
			end.EndTime = s.now()
		}
		end.EndTime = end.EndTime.UTC().Truncate(time.Microsecond)
		if len(c.Recording) > 0 {
			id, err := s.storeRecording(ctx, orgID, callLogID, c.Recording)
			if err != nil {
				return err
			}
			end.RecordingUploadID = &id
		}
		if closed, err := s.db.CloseCallLog(ctx, orgID, callLogID, end); err != nil || !closed {
			return err
		}
		if err := s.addTurns(ctx, orgID, callLogID, c.Turns); err != nil {
			return err
		}
		if c.Analysis != nil {
			if err := s.addAnalysis(ctx, orgID, callLogID, *c.Analysis); err != nil {
				return err
			}
		}
		item := store.InboxItem{OrganizationID: orgID, CallLogID: &l.ID, CallControlID: l.CallControlID, CampaignID: l.CampaignID,
			Title: inboxTitle(c, l), Summary: strings.TrimSpace(c.Summary), Outcome: orDefault(strings.TrimSpace(c.Outcome), c.Status),
			Priority: min(max(c.Priority, 0), 100), Visibility: store.InboxPrivate}
		if err := s.db.CreateInboxItem(ctx, &item); err != nil {
			return err
		}
		if err := s.events.Publish(ctx, orgID, events.CallUpdated, callLogID); err != nil {
			return err
		}
		return s.events.Publish(ctx, orgID, events.InboxUpdated, item.ID)
	})
}

// Said records the turns of a call under way as they are said (runs.CallLogs): turns is the
// conversation so far, and those not stored yet are added after the stored ones, so the
// transcript of a call in progress shows what was said until now. Turns said after the call
// ended are left to Close (which stores what is missing, never a turn twice).
func (s *Service) Said(ctx context.Context, orgID, callLogID string, turns []runs.Turn) error {
	if err := checkTurns(turns); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		l, err := s.db.CallLogByID(ctx, orgID, callLogID)
		if err != nil || l.EndTime != nil {
			return err
		}
		n, err := s.db.CountTranscriptTurns(ctx, orgID, callLogID)
		if err != nil || n >= len(turns) {
			return err
		}
		if err := s.addTurns(ctx, orgID, callLogID, turns); err != nil {
			return err
		}
		return s.events.Publish(ctx, orgID, events.CallUpdated, callLogID)
	})
}

// Walked records where a call under way stands in its workflow (runs.CallLogs): the node it
// is on now ("" for none) and the nodes it has been on, in order. It publishes call.updated
// when that changed; a call that ended is left as it ended.
func (s *Service) Walked(ctx context.Context, orgID, callLogID, current string, path []string) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		changed, err := s.db.WalkCallLog(ctx, orgID, callLogID, orNil(current), store.Strings(path))
		if err != nil || !changed {
			return err
		}
		return s.events.Publish(ctx, orgID, events.CallUpdated, callLogID)
	})
}

// addTurns stores the turns of turns (the whole conversation so far) not stored yet.
func (s *Service) addTurns(ctx context.Context, orgID, callLogID string, turns []runs.Turn) error {
	n, err := s.db.CountTranscriptTurns(ctx, orgID, callLogID)
	if err != nil || n >= len(turns) {
		return err
	}
	add := make([]store.TranscriptTurn, 0, len(turns)-n)
	for _, t := range turns[n:] {
		add = append(add, store.TranscriptTurn{Speaker: t.Speaker, Text: t.Text, OffsetMS: max(t.Offset.Milliseconds(), 0)})
	}
	return s.db.AddTranscriptTurns(ctx, orgID, callLogID, add)
}

func checkTurns(turns []runs.Turn) error {
	for _, t := range turns {
		if t.Speaker != "agent" && t.Speaker != "customer" {
			return fmt.Errorf("calls: a turn's speaker is %q, not agent or customer", t.Speaker)
		}
	}
	return nil
}

// storeRecording keeps an MP3 as a finished upload of the team used by the call log.
func (s *Service) storeRecording(ctx context.Context, orgID, callLogID string, mp3 []byte) (string, error) {
	at := s.now()
	u := store.Upload{OrganizationID: orgID, Purpose: RecordingPurpose, FileName: "call-" + callLogID + ".mp3", FileType: "audio/mpeg",
		Size: int64(len(mp3)), ExpiresAt: at.Add(24 * time.Hour)}
	if err := s.db.CreateUpload(ctx, &u); err != nil {
		return "", err
	}
	key := u.ID + "/recording.mp3"
	if err := storage.Prefixed(s.files, orgID+"/").Put(ctx, key, bytes.NewReader(mp3), int64(len(mp3))); err != nil {
		return "", fmt.Errorf("call recording: %w", err)
	}
	if err := s.db.CompleteUpload(ctx, orgID, u.ID, 0, key, "audio/mpeg", at); err != nil {
		return "", err
	}
	return u.ID, s.db.UseUpload(ctx, orgID, u.ID, "call-log:"+callLogID)
}

func inboxTitle(c runs.CallClosed, l CallLog) string {
	if t := strings.TrimSpace(c.Title); t != "" {
		return t
	}
	who := l.To
	if l.Direction == "inbound" {
		who = l.From
	}
	return fmt.Sprintf("Call with %s: %s", who, orDefault(strings.TrimSpace(c.Outcome), c.Status))
}

// List answers a page of the team's call logs, newest first, and how many there are.
func (s *Service) List(ctx context.Context, a auth.Actor, limit, offset int) ([]CallLog, int, error) {
	return s.db.ListCallLogs(ctx, a.OrganizationID, limit, offset)
}

// Get answers a call log of the team.
func (s *Service) Get(ctx context.Context, a auth.Actor, id string) (CallLog, error) {
	return s.CallLogOf(ctx, a.OrganizationID, id)
}

// CallLogOf answers a call log of team orgID (for the event stream).
func (s *Service) CallLogOf(ctx context.Context, orgID, id string) (CallLog, error) {
	l, err := s.db.CallLogByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return CallLog{}, errs.NotFoundf("Call log")
	}
	return l, err
}

// Transcript is what was said on a call.
type Transcript struct {
	CallLog CallLog
	Turns   []store.TranscriptTurn
}

// Transcript answers the transcript of the team's call with this carrier id; a call without
// one is errs NotFound.
func (s *Service) Transcript(ctx context.Context, a auth.Actor, callControlID string) (Transcript, error) {
	l, err := s.db.CallLogByControlID(ctx, a.OrganizationID, callControlID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !l.HasTranscript) {
		return Transcript{}, errs.NotFoundf("Transcript")
	}
	if err != nil {
		return Transcript{}, err
	}
	turns, err := s.db.TranscriptTurns(ctx, a.OrganizationID, l.ID)
	return Transcript{CallLog: l, Turns: turns}, err
}

// Recording is where to download a call's recording.
type Recording struct {
	CallLogID string
	URL       string
	ExpiresAt time.Time
}

// Recording answers a signed URL of the MP3 of the team's call; "No call recording exists"
// (errs NotFound) when it has none.
func (s *Service) Recording(ctx context.Context, a auth.Actor, callLogID string) (Recording, error) {
	l, err := s.Get(ctx, a, callLogID)
	if err != nil {
		return Recording{}, err
	}
	if l.RecordingUploadID == nil {
		return Recording{}, errs.New(errs.NotFound, "No call recording exists")
	}
	at := s.now()
	link, err := s.links.URL(ctx, a.OrganizationID, *l.RecordingUploadID)
	return Recording{CallLogID: l.ID, URL: link, ExpiresAt: at.Add(LinkTTL).UTC().Truncate(time.Second)}, err
}

func orNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC().Truncate(time.Microsecond)
	return &v
}
