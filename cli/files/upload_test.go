package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

func TestNewCmdUpload(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		purpose client.UploadPurpose
		wantErr string
	}{
		{name: "a document is a knowledge file", args: []string{"price-list.pdf"}, purpose: client.UploadPurposeKnowledgeFile},
		{name: "audio is for agents", args: []string{"Greeting.MP3"}, purpose: client.UploadPurposeAgentAudio},
		{name: "purpose", args: []string{"list.csv", "--purpose", "contacts-csv"}, purpose: client.UploadPurposeContactsCsv},
		{name: "bad purpose", args: []string{"a.pdf", "-p", "selfie"}, wantErr: `invalid purpose "selfie": want knowledge-file, agent-file, agent-audio, voice-sample or contacts-csv`},
		{name: "no path", wantErr: "give the path of the file to upload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *UploadOptions
			err := clitest.Run(NewCmdUpload(f, func(o *UploadOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Purpose != tt.purpose || got.Path != tt.args[0] {
				t.Errorf("options %+v", got)
			}
		})
	}
}

// tusStub is a stub server speaking tus for one upload, up-1.
func tusStub(t *testing.T) *clitest.Stub {
	stub := clitest.NewStub(t)
	var mu sync.Mutex
	var offset int
	stub.Handle("POST /v1/uploads", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", stub.URL+"/v1/uploads/up-1")
		w.Header().Set("Tus-Resumable", "1.0.0")
		w.WriteHeader(http.StatusCreated)
	})
	stub.Handle("PATCH /v1/uploads/up-1", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		offset += len(body)
		w.Header().Set("Upload-Offset", strconv.Itoa(offset))
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	link := "http://betty.test/v1/files/up-1?token=1773480413.c2lnbmF0dXJl"
	stub.Handle("GET /v1/uploads/up-1/info", clitest.Data(http.StatusOK, client.Upload{
		Id: "up-1", OrganizationId: "team-1", FileName: "price-list.pdf", FileType: "application/pdf",
		Purpose: client.UploadPurposeKnowledgeFile, Size: 1000, Offset: 1000, Complete: true, FileUrl: &link,
		CreatedAt: clitest.When, UpdatedAt: clitest.When,
	}))
	return stub
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUploadRun(t *testing.T) {
	stub := tusStub(t)
	path := writeFile(t, "price-list.pdf", uploadstest.PDF(1000))

	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdUpload(f, nil), path); err != nil {
		t.Fatal(err)
	}
	if s.Out.String() != "http://betty.test/v1/files/up-1?token=1773480413.c2lnbmF0dXJl\n" {
		t.Errorf("stdout = %q, want the file URL", s.Out)
	}
	if want := "Uploaded price-list.pdf (1000 bytes, application/pdf).\n"; s.ErrOut.String() != want {
		t.Errorf("stderr = %q, want %q", s.ErrOut, want)
	}
	created := stub.Requests()[0]
	enc := func(v string) string { return base64.StdEncoding.EncodeToString([]byte(v)) }
	if want := "filename " + enc("price-list.pdf") + ",organizationId " + enc("team-1") + ",purpose " + enc("knowledge-file"); created.Header.Get("Upload-Metadata") != want ||
		created.Header.Get("Upload-Length") != "1000" || created.Header.Get("Tus-Resumable") != "1.0.0" {
		t.Errorf("creation headers %v", created.Header)
	}

	t.Run("json", func(t *testing.T) {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(tusStub(t).URL)})
		if err := clitest.Run(NewCmdUpload(f, nil), path, "--json"); err != nil {
			t.Fatal(err)
		}
		clitest.Golden(t, "upload.json", s.Out.Bytes())
	})
	t.Run("a folder", func(t *testing.T) {
		f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		clitest.CheckErr(t, clitest.Run(NewCmdUpload(f, nil), t.TempDir()), "is not a file")
	})
}

// transport lets a test stop the CLI before a PATCH and counts the chunk bytes sent.
type transport struct {
	before func(n int) // called before PATCH n (from 1)
	mu     sync.Mutex
	n      int
	sent   int64
}

func (tr *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPatch {
		tr.mu.Lock()
		tr.n++
		n := tr.n
		tr.sent += r.ContentLength
		tr.mu.Unlock()
		if tr.before != nil {
			tr.before(n)
		}
		if err := r.Context().Err(); err != nil {
			return nil, err
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

func run(ctx context.Context, cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return cmd.ExecuteContext(ctx)
}

// Ctrl-C after the first chunk, then the same command again: it goes on from the server's
// offset, sends only the rest, and the file is the one on the disk.
func TestUploadResumesAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	owner := env.SignUp(t, "ada@example.com")
	team := env.Team(t, owner, "Acme")
	data := uploadstest.MP3(13<<20 + 999)
	path := writeFile(t, "greeting.mp3", data)
	f, s := clitest.NewFactory(t, clitest.Options{Profile: &config.Profile{Server: env.URL, AccessToken: owner.Access,
		RefreshToken: owner.Refresh, Email: owner.Email, Team: team}})
	withTransport := func(tr *transport) {
		f.Client = func() (*betty.Client, error) {
			return f.ClientFor(env.URL, betty.WithTokens(owner.Access, owner.Refresh), betty.WithHTTPClient(&http.Client{Transport: tr}))
		}
	}

	ctx, interrupt := context.WithCancel(context.Background())
	withTransport(&transport{before: func(n int) {
		if n == 2 {
			interrupt() // Ctrl-C while the second chunk starts
		}
	}})
	err := run(ctx, NewCmdUpload(f, nil), path)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("stopped with 6291456 of %d bytes of greeting.mp3 on the server", len(data))) {
		t.Fatalf("interrupted: %v", err)
	}
	remembered, _ := os.ReadFile(filepath.Join(f.Getenv("BETTY_CONFIG_DIR"), "uploads.json"))
	if !bytes.Contains(remembered, []byte(`"url"`)) {
		t.Fatalf("the unfinished upload is not remembered: %s", remembered)
	}

	s.ErrOut.Reset()
	again := &transport{}
	withTransport(again)
	if err := run(context.Background(), NewCmdUpload(f, nil), path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.ErrOut.String(), fmt.Sprintf("Resuming greeting.mp3 at 6291456 of %d bytes.", len(data))) {
		t.Errorf("stderr = %q", s.ErrOut)
	}
	if again.sent != int64(len(data))-6<<20 {
		t.Errorf("sent %d bytes again, want only the %d missing", again.sent, len(data)-6<<20)
	}
	link, err := url.Parse(strings.TrimSpace(s.Out.String()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(env.URL + link.RequestURI())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatalf("the uploaded file (%d bytes) differs from the one on the disk", len(got))
	}
	if remembered, _ := os.ReadFile(filepath.Join(f.Getenv("BETTY_CONFIG_DIR"), "uploads.json")); bytes.Contains(remembered, []byte(`"url"`)) {
		t.Fatalf("a finished upload is still remembered: %s", remembered)
	}

	// A refusal is final: an MP3 named .pdf, and nothing is left to resume.
	fake := writeFile(t, "report.pdf", uploadstest.MP3(20_000))
	withTransport(&transport{})
	err = run(context.Background(), NewCmdUpload(f, nil), fake)
	if !errors.Is(err, betty.ErrValidation) {
		t.Fatalf("an mp3 named .pdf: %v", err)
	}
	if remembered, _ := os.ReadFile(filepath.Join(f.Getenv("BETTY_CONFIG_DIR"), "uploads.json")); bytes.Contains(remembered, []byte(`"url"`)) {
		t.Fatalf("a refused upload is remembered: %s", remembered)
	}
}
