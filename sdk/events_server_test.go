package betty_test

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/testserver"
)

// The event stream of the real server: a call's updates and the inbox item it files arrive
// typed; a client resuming with Last-Event-ID is sent what it missed, one whose id is unknown
// a reset.
func TestEventsAgainstTheRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh), betty.WithHTTPClient(streamingClient(t)))
	if err != nil {
		t.Fatal(err)
	}
	files, err := storage.NewDisk(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	svc := calls.New(env.DB, files, nil, events.New(env.DB, nil))

	connected := make(chan struct{})
	got := make(chan betty.Event, 100)
	streamCtx, stop := context.WithCancel(ctx)
	go func() {
		defer close(got)
		opts := betty.EventsOptions{Types: []client.EventType{client.CallUpdated, client.InboxUpdated}, OnConnect: func() { close(connected) }}
		for ev, err := range c.Events(streamCtx, team, opts) {
			if err != nil {
				t.Errorf("stream: %v", err)
				return
			}
			got <- ev
		}
	}()
	select {
	case <-connected:
	case <-ctx.Done():
		t.Fatal("the stream did not connect")
	}
	id, err := svc.Open(ctx, runs.CallOpened{OrganizationID: team, Direction: "outbound", From: "+14155550100", To: "+14155550123", AttemptID: "a-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Close(ctx, team, id, runs.CallClosed{Status: "busy", EndedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var seen []betty.Event
	for len(seen) < 3 {
		select {
		case ev := <-got:
			seen = append(seen, ev)
		case <-ctx.Done():
			t.Fatalf("events so far: %+v", seen)
		}
	}
	stop()
	// The stream renders the call as it is when it sends: both events may show it busy.
	if first, err := seen[0].Call(); err != nil || first.Id != id || seen[0].Type != string(client.CallUpdated) {
		t.Errorf("first: %+v %v", first, err)
	}
	if last, err := seen[1].Call(); err != nil || last.Status != client.CallLogStatusBusy || last.EndTime == nil {
		t.Errorf("closed: %+v %v", last, err)
	}
	if item, err := seen[2].InboxItem(); err != nil || item.CallLogId == nil || *item.CallLogId != id {
		t.Errorf("inbox item: %+v %v", item, err)
	}

	// Resuming after the first event replays the two that followed, with their ids.
	resumed := collect(t, ctx, c, team, seen[0].ID, 2)
	if resumed[0].ID != seen[1].ID || resumed[1].ID != seen[2].ID || resumed[1].Type != string(client.InboxUpdated) {
		t.Errorf("resumed: %+v, want the events after %s of %+v", resumed, seen[0].ID, seen)
	}
	if reset := collect(t, ctx, c, team, "999999", 1); reset[0].Type != betty.EventReset {
		t.Errorf("unknown id: %+v", reset)
	}
}

// collect reads n events of a stream resumed after lastID.
func collect(t *testing.T, ctx context.Context, c *betty.Client, team, lastID string, n int) []betty.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var out []betty.Event
	for ev, err := range c.Events(ctx, team, betty.EventsOptions{LastEventID: lastID}) {
		if err != nil {
			t.Fatalf("after %s: %v", lastID, err)
		}
		if out = append(out, ev); len(out) == n {
			return out
		}
	}
	t.Fatalf("after %s: %d events of %d", lastID, len(out), n)
	return nil
}

// streamingClient is an HTTP client whose idle connections are closed when the test ends,
// before the server shuts down: a client that streams and polls at once may keep a connection
// it dialled and never used, which a server's graceful shutdown waits 5 s for.
func streamingClient(t *testing.T) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}
