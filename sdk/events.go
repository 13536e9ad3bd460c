package betty

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Events: GET /v1/events is a server-sent event stream of what changes in a team (jobs,
// calls, inbox items, campaigns, knowledge files), so a client can refresh what changed instead of polling.
// Events reads it the way the contract describes: it sends the client's credentials, reads
// `id`, `event`, `data` and `retry` fields, and when the connection drops it connects again
// after the server's `retry` delay (growing while the server stays away) with `Last-Event-ID`,
// so the server replays what was missed. When that id is too old the server sends one `reset`
// event: the caller must refetch what it shows.

// EventReset is the event a server sends when it cannot replay what was missed since the
// Last-Event-ID a client gave: refetch everything shown.
const EventReset = "reset"

// Event is one server-sent event.
type Event struct {
	// ID is the event's opaque id (sent back as Last-Event-ID when reconnecting).
	ID string
	// Type is the event name: one of client.EventType, or EventReset.
	Type string
	// Data is the event's JSON payload.
	Data json.RawMessage
}

// Deleted reports whether the event says its entity was deleted (data {"id", "deleted": true}),
// with the entity's id.
func (e Event) Deleted() (string, bool) {
	var d struct {
		ID      string `json:"id"`
		Deleted bool   `json:"deleted"`
	}
	if json.Unmarshal(e.Data, &d) != nil || !d.Deleted {
		return "", false
	}
	return d.ID, true
}

// Job decodes the data of a job.updated event.
func (e Event) Job() (client.Job, error) { return decodeEvent[client.Job](e, client.JobUpdated) }

// Call decodes the data of a call.updated event.
func (e Event) Call() (client.CallLog, error) {
	return decodeEvent[client.CallLog](e, client.CallUpdated)
}

// Campaign decodes the data of a campaign.updated event.
func (e Event) Campaign() (client.Campaign, error) {
	return decodeEvent[client.Campaign](e, client.CampaignUpdated)
}

// InboxItem decodes the data of an inbox.updated event.
func (e Event) InboxItem() (client.InboxItem, error) {
	return decodeEvent[client.InboxItem](e, client.InboxUpdated)
}

// KnowledgeFile decodes the data of a knowledge.updated event.
func (e Event) KnowledgeFile() (client.KnowledgeFile, error) {
	return decodeEvent[client.KnowledgeFile](e, client.KnowledgeUpdated)
}

func decodeEvent[T any](e Event, want client.EventType) (T, error) {
	var out T
	if e.Type != string(want) {
		return out, fmt.Errorf("betty: event %s is a %s, not a %s", e.ID, e.Type, want)
	}
	if err := json.Unmarshal(e.Data, &out); err != nil {
		return out, fmt.Errorf("betty: event %s (%s): %w", e.ID, e.Type, err)
	}
	return out, nil
}

// EventsOptions tune Events.
type EventsOptions struct {
	// Types keeps only these events (every type when empty). A reset is always sent.
	Types []client.EventType
	// LastEventID resumes after this event (the ID of the last event seen earlier).
	LastEventID string
	// OnConnect, when set, is called each time the stream is (re)connected, before its first
	// event: what changed while it was not connected and is not replayed can be fetched then.
	OnConnect func()
}

const (
	// defaultEventsRetry is the reconnection delay until the server sends `retry`.
	defaultEventsRetry = 3 * time.Second
	// maxEventsRetry caps the delay between attempts while the server stays away.
	maxEventsRetry = time.Minute
)

// StreamError is a failed connection to the event stream. Permanent says that connecting
// again cannot help (the credentials were refused, the team is not the caller's, the server
// has no event stream); Events then stops. Otherwise Events connects again by itself.
type StreamError struct {
	Err       error
	Permanent bool
}

func (e *StreamError) Error() string { return "betty: event stream: " + e.Err.Error() }
func (e *StreamError) Unwrap() error { return e.Err }

// Events streams a team's events until ctx ends or the consumer stops ranging. Each failed
// connection is yielded as (Event{}, *StreamError): a consumer that keeps ranging after a
// temporary one is reconnected (with Last-Event-ID) after a back-off; after a permanent one
// the sequence ends. The end of ctx ends the sequence without an error.
//
//	for ev, err := range bc.Events(ctx, team, betty.EventsOptions{Types: []client.EventType{client.JobUpdated}}) {
//		if err != nil { log.Print(err); continue }
//		job, _ := ev.Job()
//		…
//	}
func (c *Client) Events(ctx context.Context, team string, opts EventsOptions) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		s := &sseReader{lastID: opts.LastEventID, retry: defaultEventsRetry}
		failures := 0
		for ctx.Err() == nil {
			connected, err := c.streamOnce(ctx, team, opts, s, yield)
			if ctx.Err() != nil || errors.Is(err, errStopped) {
				return
			}
			if connected {
				failures = 0
			}
			if err != nil {
				failures++
				var se *StreamError
				if !errors.As(err, &se) {
					se = &StreamError{Err: err}
				}
				if !yield(Event{}, se) || se.Permanent {
					return
				}
			}
			if c.sleep(ctx, eventsBackoff(s.retry, failures)) != nil {
				return
			}
		}
	}
}

// errStopped is the consumer stopping the range.
var errStopped = errors.New("stopped")

// streamOnce makes one connection and yields its events until it ends. It reports whether
// the server accepted the connection; a clean end of the stream is a nil error.
func (c *Client) streamOnce(ctx context.Context, team string, opts EventsOptions, s *sseReader, yield func(Event, error) bool) (bool, error) {
	params := &client.StreamEventsParams{OrganizationId: team}
	if len(opts.Types) > 0 {
		types := append([]client.EventType(nil), opts.Types...)
		params.Types = &types
	}
	if s.lastID != "" {
		id := s.lastID
		params.LastEventID = &id
	}
	resp, err := c.api.StreamEvents(ctx, params, func(_ context.Context, req *http.Request) error {
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Cache-Control", "no-cache")
		return nil
	})
	if err != nil {
		if unreachable(err) {
			return false, &UnreachableError{Server: c.server, Err: err}
		}
		return false, err
	}
	defer resp.Body.Close()
	if !isSuccess(resp.StatusCode) {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, peekLimit))
		return false, &StreamError{Err: newAPIError(resp, body), Permanent: permanentStatus(resp.StatusCode)}
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		return false, &StreamError{Err: fmt.Errorf("the server answered %q, not text/event-stream", resp.Header.Get("Content-Type")), Permanent: true}
	}
	if opts.OnConnect != nil {
		opts.OnConnect()
	}
	err = s.read(resp.Body, func(ev Event) bool { return yield(ev, nil) })
	if errors.Is(err, errStopped) || ctx.Err() != nil {
		return true, err
	}
	if err != nil {
		return true, &StreamError{Err: err}
	}
	return true, nil
}

// permanentStatus says whether asking again cannot change an answer: a 4xx other than a
// timeout or a rate limit, or a server that does not implement the stream.
func permanentStatus(code int) bool {
	switch {
	case code == http.StatusRequestTimeout, code == http.StatusTooManyRequests:
		return false
	case code >= 400 && code < 500, code == http.StatusNotImplemented:
		return true
	}
	return false
}

// eventsBackoff is the wait before reconnecting: the server's retry delay after a clean end,
// doubling with each failure in a row up to maxEventsRetry, the upper half jittered.
func eventsBackoff(retry time.Duration, failures int) time.Duration {
	if failures == 0 {
		return retry
	}
	d := retry
	for i := 1; i < failures && d < maxEventsRetry; i++ {
		d *= 2
	}
	d = min(d, maxEventsRetry)
	half := d / 2
	return half + rand.N(half+1)
}

// sseReader parses the text/event-stream format (WHATWG HTML, "Server-sent events"). It keeps
// the last event id and the retry delay across connections.
type sseReader struct {
	lastID string
	retry  time.Duration
}

// maxEventLine bounds one line of the stream.
const maxEventLine = 4 << 20

// read parses a stream and calls emit with every complete event; an event cut off by the end
// of the stream is dropped. It returns errStopped when emit answers false.
func (s *sseReader) read(r io.Reader, emit func(Event) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventLine)
	sc.Split(scanLines)
	var (
		data    bytes.Buffer
		typ     string
		idBuf   = s.lastID
		hasData bool
		first   = true
	)
	for sc.Scan() {
		line := sc.Text()
		if first {
			line = strings.TrimPrefix(line, "\ufeff")
			first = false
		}
		if line == "" {
			s.lastID = idBuf
			if hasData {
				payload := bytes.TrimSuffix(data.Bytes(), []byte("\n"))
				ev := Event{ID: s.lastID, Type: typ, Data: json.RawMessage(append([]byte(nil), payload...))}
				if ev.Type == "" {
					ev.Type = "message"
				}
				if !emit(ev) {
					return errStopped
				}
			}
			data.Reset()
			typ, hasData = "", false
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue // a comment, such as the keep-alive
		}
		field, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch field {
		case "event":
			typ = value
		case "data":
			data.WriteString(value)
			data.WriteByte('\n')
			hasData = true
		case "id":
			if !strings.ContainsRune(value, 0) {
				idBuf = value
			}
		case "retry":
			if ms, err := strconv.ParseUint(value, 10, 31); err == nil && value != "" && strings.Trim(value, "0123456789") == "" {
				s.retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
	return sc.Err()
}

// scanLines splits at LF, CRLF or a lone CR, as the event-stream format allows.
func scanLines(data []byte, atEOF bool) (int, []byte, error) {
	for i, b := range data {
		switch b {
		case '\n':
			return i + 1, data[:i], nil
		case '\r':
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if atEOF {
				return i + 1, data[:i], nil
			}
			return 0, nil, nil // a LF may follow
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, bufio.ErrFinalToken
	}
	return 0, nil, nil
}
