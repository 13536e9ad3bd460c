package calls

import (
	"context"
	"testing"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// A recording that arrives after the hang-up is attached once; the first stays.
func TestAttachRecordingAfterTheHangUp(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		org := team(t, db, "owner@example.com")
		s := newService(t, db)
		id, err := s.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "outbound", From: "+14155550100", To: "+14155550123", AttemptID: "a1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(ctx, org, id, runs.CallClosed{Status: "completed"}); err != nil {
			t.Fatal(err)
		}
		a := auth.Actor{Grant: auth.Grant{OrganizationID: org}}
		if l, err := s.Get(ctx, a, id); err != nil || l.RecordingUploadID != nil {
			t.Fatalf("closed without a recording: %+v %v", l, err)
		}
		if err := s.AttachRecording(ctx, org, id, []byte("ID3 first")); err != nil {
			t.Fatal(err)
		}
		l, err := s.Get(ctx, a, id)
		if err != nil || l.RecordingUploadID == nil {
			t.Fatalf("after the recording: %+v %v", l, err)
		}
		first := *l.RecordingUploadID
		if err := s.AttachRecording(ctx, org, id, []byte("ID3 second")); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Get(ctx, a, id); l.RecordingUploadID == nil || *l.RecordingUploadID != first {
			t.Fatalf("a second recording replaced the first: %+v", l.RecordingUploadID)
		}
		if err := s.AttachRecording(ctx, org, id, nil); err != nil {
			t.Fatal(err)
		}
	})
}
