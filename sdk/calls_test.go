package betty

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// The recording is fetched from its signed URL without the client's credentials.
func TestDownloadRecording(t *testing.T) {
	audio := bytes.Repeat([]byte{0xff, 0xfb, 0x90, 0x64}, 1000)
	var base string
	var fileAuth string
	h := http.NewServeMux()
	h.HandleFunc("GET /v1/call/recordings/log-1", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("organizationId") != "team-1" || bearer(r) != "betty_sk_k" {
			t.Errorf("recording asked with %v %q", r.URL, bearer(r))
		}
		writeJSON(w, http.StatusOK, client.CallRecording{CallLogId: "log-1", Url: base + "/v1/files/f-1?token=sig", MimeType: "audio/mpeg", ExpiresAt: time.Now().Add(time.Hour)}, nil)
	})
	h.HandleFunc("GET /v1/call/recordings/log-2", func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusNotFound, "not_found", "No call recording exists")
	})
	h.HandleFunc("GET /v1/files/f-1", func(w http.ResponseWriter, r *http.Request) {
		fileAuth = r.Header.Get("Authorization")
		if r.URL.Query().Get("token") != "sig" {
			writeProblem(w, http.StatusNotFound, "not_found", "bad token")
			return
		}
		w.Header().Set("Content-Type", "audio/mpeg")
		w.Write(audio)
	})
	c, _ := newTestClient(t, h, WithAPIKey("betty_sk_k"))
	base = c.Server()
	var buf bytes.Buffer
	n, err := c.DownloadRecording(context.Background(), "team-1", "log-1", &buf)
	if err != nil || n != int64(len(audio)) || !bytes.Equal(buf.Bytes(), audio) {
		t.Fatalf("download: %d %v", n, err)
	}
	if fileAuth != "" {
		t.Errorf("credentials sent to the signed URL: %q", fileAuth)
	}
	_, err = c.DownloadRecording(context.Background(), "team-1", "log-2", io.Discard)
	var apiErr *APIError
	if !errors.Is(err, ErrNotFound) || !errors.As(err, &apiErr) || apiErr.Detail != "No call recording exists" {
		t.Errorf("no recording: %v", err)
	}
}

// An import sends the CSV as text/csv with its options; one over 2 MiB is refused before
// sending.
func TestImportDoNotCall(t *testing.T) {
	h := http.NewServeMux()
	var got string
	h.HandleFunc("POST /v1/do-not-call/import", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = r.Header.Get("Content-Type") + " " + r.URL.RawQuery + " " + string(body)
		writeJSON(w, http.StatusOK, client.DoNotCallImport{Added: 1, AlreadyListed: 0, Rejected: []client.DoNotCallRejectedRow{{Row: 2, Value: "x", Reason: "not a phone number"}}}, nil)
	})
	c, _ := newTestClient(t, h)
	res, err := c.ImportDoNotCall(context.Background(), "team-1", strings.NewReader("phone\n+14155550100\nx\n"), DoNotCallOptions{Reason: "asked", DefaultRegion: "GB"})
	if err != nil || res.Added != 1 || len(res.Rejected) != 1 {
		t.Fatalf("import: %+v %v", res, err)
	}
	if got != "text/csv organizationId=team-1&defaultRegion=GB&reason=asked phone\n+14155550100\nx\n" {
		t.Errorf("sent %q", got)
	}
	if _, err := c.ImportDoNotCall(context.Background(), "team-1", bytes.NewReader(make([]byte, 2<<20+1)), DoNotCallOptions{}); err == nil || !strings.Contains(err.Error(), "larger than 2 MiB") {
		t.Errorf("big import: %v", err)
	}
}
