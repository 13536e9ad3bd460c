package betty

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

// patches lets a test break PATCH requests on their way to the server: break_ is asked for
// each one (numbered from 1) and answers how many of its bytes go out before the connection
// breaks, or -1 to send it whole. It counts the chunk bytes that were offered.
type patches struct {
	base   http.RoundTripper
	break_ func(n int) int
	mu     sync.Mutex
	n      int
	bytes  int64
}

func (p *patches) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodPatch {
		return p.base.RoundTrip(r)
	}
	p.mu.Lock()
	p.n++
	n := p.n
	p.bytes += r.ContentLength
	p.mu.Unlock()
	if keep := p.break_(n); keep >= 0 {
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(io.MultiReader(io.LimitReader(r.Body, int64(keep)), brokenPipe{}))
		r.GetBody = nil
	}
	return p.base.RoundTrip(r)
}

type brokenPipe struct{}

func (brokenPipe) Read([]byte) (int, error) { return 0, errors.New("the network went away") }

type uploadEnv struct {
	env  *testserver.Env
	org  string
	file string
	data []byte
}

func startUploads(t *testing.T, size int) uploadEnv {
	t.Helper()
	env := testserver.Start(t)
	owner := env.SignUp(t, "ada@example.com")
	data := uploadstest.MP3(size)
	file := filepath.Join(t.TempDir(), "greeting.mp3")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	u := uploadEnv{env: env, org: env.Team(t, owner, "Acme"), file: file, data: data}
	return u
}

// client is an API-key client of the team whose PATCHes go through p (when not nil) and
// whose waits are recorded, not slept.
func (u uploadEnv) client(t *testing.T, p *patches) (*Client, *sleeps) {
	t.Helper()
	var opts []Option
	if p != nil {
		p.base = http.DefaultTransport
		opts = append(opts, WithHTTPClient(&http.Client{Transport: p}))
	}
	c, err := New(u.env.URL, append(opts, WithAPIKey(u.env.APIKey(t, u.org, "developer")))...)
	if err != nil {
		t.Fatal(err)
	}
	s := &sleeps{}
	c.sleep = s.sleep
	return c, s
}

// downloaded fetches a finished upload's file from the test server and checks it is the one
// sent.
func (u uploadEnv) downloaded(t *testing.T, up client.Upload) {
	t.Helper()
	if !up.Complete || up.FileUrl == nil || up.Size != int64(len(u.data)) {
		t.Fatalf("upload %+v", up)
	}
	link, _ := url.Parse(*up.FileUrl)
	res, err := http.Get(u.env.URL + link.RequestURI())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if sha256.Sum256(got) != sha256.Sum256(u.data) {
		t.Fatalf("the file downloaded (%d bytes) differs from the one uploaded", len(got))
	}
}

func TestUploadFile(t *testing.T) {
	u := startUploads(t, 13<<20+4321)
	c, sleeps := u.client(t, nil)
	var seen []int64
	var created string
	up, err := c.UploadFile(context.Background(), u.file, UploadOptions{OrganizationID: u.org, Purpose: client.UploadPurposeAgentAudio,
		OnCreate: func(url string) { created = url },
		Progress: func(sent, total int64) {
			if total != int64(len(u.data)) {
				t.Errorf("total %d", total)
			}
			seen = append(seen, sent)
		}})
	if err != nil {
		t.Fatal(err)
	}
	u.downloaded(t, up)
	if up.FileName != "greeting.mp3" || up.FileType != "audio/mpeg" || uploadID(created) != up.Id {
		t.Fatalf("upload %+v, created %q", up, created)
	}
	if want := []int64{0, 6 << 20, 12 << 20, int64(len(u.data))}; !slices.Equal(seen, want) {
		t.Fatalf("progress %v, want %v", seen, want)
	}
	if len(sleeps.all()) != 0 {
		t.Fatalf("waited %v without a failure", sleeps.all())
	}
}

// A chunk cut off mid-way: the client waits 0 s, asks the offset and goes on from the bytes the
// server kept; the file is the one sent.
func TestUploadResumesAfterABrokenConnection(t *testing.T) {
	u := startUploads(t, 13<<20+4321)
	p := &patches{break_: func(n int) int {
		if n == 2 {
			return 1_000_000
		}
		return -1
	}}
	c, sleeps := u.client(t, p)
	up, err := c.UploadFile(context.Background(), u.file, UploadOptions{OrganizationID: u.org, Purpose: client.UploadPurposeAgentAudio})
	if err != nil {
		t.Fatal(err)
	}
	u.downloaded(t, up)
	if got := sleeps.all(); len(got) == 0 || got[0] != 0 {
		t.Fatalf("waits %v, want a first retry at once", got)
	}
}

// A connection that never works: the client waits 0, 3, 5, 10 and 20 seconds between tries,
// then gives up with the error.
func TestUploadGivesUpAfterTheDelays(t *testing.T) {
	u := startUploads(t, 100_000)
	c, sleeps := u.client(t, &patches{break_: func(int) int { return 10 }})
	_, err := c.UploadFile(context.Background(), u.file, UploadOptions{OrganizationID: u.org, Purpose: client.UploadPurposeAgentAudio})
	if err == nil {
		t.Fatal("the upload succeeded through a broken network")
	}
	if got := sleeps.all(); !slices.Equal(got, UploadRetryDelays) {
		t.Fatalf("waits %v, want %v", got, UploadRetryDelays)
	}
}

// Refusals end the upload at once: no retry can change the file's type.
func TestUploadRefusalsAreNotRetried(t *testing.T) {
	u := startUploads(t, 100_000)
	c, sleeps := u.client(t, nil)
	_, err := c.UploadFile(context.Background(), u.file, UploadOptions{OrganizationID: u.org, Purpose: client.UploadPurposeKnowledgeFile,
		FileName: "report.pdf"})
	var apiErr *APIError
	if !errors.Is(err, ErrValidation) || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("an mp3 named .pdf: %v", err)
	}
	if len(sleeps.all()) != 0 {
		t.Fatalf("retried a refusal: %v", sleeps.all())
	}
}

// An upload stopped part-way (the process ended) resumes from its URL: only the missing bytes
// are sent. A URL the server no longer knows starts a new upload.
func TestUploadResumesFromItsURL(t *testing.T) {
	u := startUploads(t, 13<<20+4321)
	c, _ := u.client(t, nil)
	ctx, stop := context.WithCancel(context.Background())
	var location string
	_, err := c.UploadFile(ctx, u.file, UploadOptions{OrganizationID: u.org, Purpose: client.UploadPurposeAgentAudio,
		OnCreate: func(url string) { location = url },
		Progress: func(sent, _ int64) {
			if sent > 0 {
				stop() // after the first chunk
			}
		}})
	if !errors.Is(err, context.Canceled) || location == "" {
		t.Fatalf("stopped upload: %v (%q)", err, location)
	}

	p := &patches{break_: func(int) int { return -1 }}
	c, _ = u.client(t, p)
	var first int64 = -1
	up, err := c.UploadFile(context.Background(), u.file, UploadOptions{OrganizationID: u.org, Purpose: client.UploadPurposeAgentAudio,
		Resume:   location,
		OnCreate: func(string) { t.Error("a new upload was created instead of resuming") },
		Progress: func(sent, _ int64) {
			if first < 0 {
				first = sent
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	u.downloaded(t, up)
	if first != 6<<20 || p.bytes != int64(len(u.data))-6<<20 {
		t.Fatalf("resumed at %d and sent %d bytes, want 6 MiB and the rest", first, p.bytes)
	}
	if uploadID(location) != up.Id {
		t.Fatalf("resumed %s, finished %s", uploadID(location), up.Id)
	}

	var created bool
	again, err := c.UploadFile(context.Background(), u.file, UploadOptions{OrganizationID: u.org, Purpose: client.UploadPurposeAgentAudio,
		Resume: u.env.URL + "/v1/uploads/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10", OnCreate: func(string) { created = true }})
	if err != nil || !created || again.Id == up.Id {
		t.Fatalf("resume of an unknown upload: %v, created %v", err, created)
	}
}
