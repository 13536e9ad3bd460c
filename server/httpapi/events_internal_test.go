package httpapi

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// An idle stream sends keep-alive comments, and ends when the server shuts down.
func TestEventStreamKeepsAliveAndEndsAtShutdown(t *testing.T) {
	db := testdb.Open(t, store.SQLite, true)
	svc := events.New(db, nil, events.WithPoll(10*time.Millisecond), events.WithKeepAlive(30*time.Millisecond))
	h := &Events{svc: svc, calls: calls.New(db, nil, nil, svc)}
	cur, _, err := svc.Open(context.Background(), "org", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	done := make(chan error, 1)
	go func() {
		done <- (&eventStream{h: h, ctx: context.Background(), orgID: "org", cur: cur}).VisitStreamEventsResponse(rec)
	}()
	time.Sleep(150 * time.Millisecond)
	svc.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end at shutdown")
	}
	body := rec.Body.String()
	if !strings.HasPrefix(body, "retry: 5000\n\n") || strings.Count(body, ": keep-alive\n\n") < 2 || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("stream: %q", body)
	}
}
