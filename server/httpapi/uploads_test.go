package httpapi_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

const chunkSize = 6 << 20

// uploadMetadata is an Upload-Metadata header.
func uploadMetadata(org, purpose, name string) string {
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return "filename " + enc(name) + ",organizationId " + enc(org) + ",purpose " + enc(purpose)
}

func tus(h http.Header) http.Header {
	if h == nil {
		h = http.Header{}
	}
	h.Set("Tus-Resumable", "1.0.0")
	return h
}

// createUpload starts an upload and answers its id.
func createUpload(t *testing.T, env *apitest.Env, token, org, purpose, name string, size int) string {
	t.Helper()
	res := env.Do(apitest.Request{Method: http.MethodPost, Path: "/v1/uploads", Token: token, Header: tus(http.Header{
		"Upload-Length": {strconv.Itoa(size)}, "Upload-Metadata": {uploadMetadata(org, purpose, name)}})})
	if res.Status != http.StatusCreated {
		t.Fatalf("create upload: %d %s", res.Status, res.Body)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.Path, "/v1/uploads/") {
		t.Fatalf("Location %q", res.Header.Get("Location"))
	}
	return strings.TrimPrefix(loc.Path, "/v1/uploads/")
}

func sendChunk(env *apitest.Env, token, id string, offset int, b []byte) *apitest.Response {
	return env.Do(apitest.Request{Method: http.MethodPatch, Path: "/v1/uploads/" + id, Token: token, Body: b,
		Header: tus(http.Header{"Upload-Offset": {strconv.Itoa(offset)}, "Content-Type": {"application/offset+octet-stream"}})})
}

func uploadOffset(t *testing.T, env *apitest.Env, token, id string) int {
	t.Helper()
	res := env.Do(apitest.Request{Method: http.MethodHead, Path: "/v1/uploads/" + id, Token: token, Header: tus(nil)})
	if res.Status != http.StatusOK {
		t.Fatalf("HEAD: %d", res.Status)
	}
	n, err := strconv.Atoi(res.Header.Get("Upload-Offset"))
	if err != nil {
		t.Fatalf("Upload-Offset %q", res.Header.Get("Upload-Offset"))
	}
	return n
}

// sendFrom sends data from offset to the end in 6 MiB chunks.
func sendFrom(t *testing.T, env *apitest.Env, token, id string, offset int, data []byte) {
	t.Helper()
	for off := offset; off < len(data); off += chunkSize {
		end := min(off+chunkSize, len(data))
		if res := sendChunk(env, token, id, off, data[off:end]); res.Status != http.StatusNoContent || res.Header.Get("Upload-Offset") != strconv.Itoa(end) {
			t.Fatalf("chunk at %d: %d %s %q", off, res.Status, res.Body, res.Header.Get("Upload-Offset"))
		}
	}
}

type uploadInfo struct {
	Data struct {
		ID, FileName, FileType, Purpose string
		Size, Offset                    int64
		Complete                        bool
		FileURL                         *string
	}
}

func getUploadInfo(t *testing.T, env *apitest.Env, token, id string) uploadInfo {
	t.Helper()
	res := env.Do(apitest.Request{Method: http.MethodGet, Path: "/v1/uploads/" + id + "/info", Token: token})
	if res.Status != http.StatusOK {
		t.Fatalf("info: %d %s", res.Status, res.Body)
	}
	var info uploadInfo
	res.JSON(t, &info)
	return info
}

// download fetches a file URL (its path: the server's base URL is not the test listener's).
func download(env *apitest.Env, fileURL string, header http.Header) *apitest.Response {
	u, _ := url.Parse(fileURL)
	return env.Do(apitest.Request{Method: http.MethodGet, Path: u.RequestURI(), Header: header})
}

// finishedUpload uploads data and answers its id and fileUrl.
func finishedUpload(t *testing.T, env *apitest.Env, token, org, purpose, name string, data []byte) (string, string) {
	t.Helper()
	id := createUpload(t, env, token, org, purpose, name, len(data))
	sendFrom(t, env, token, id, 0, data)
	return id, fileURLOf(t, env, token, id)
}

// fileURLOf answers the fileUrl of an upload that is complete.
func fileURLOf(t *testing.T, env *apitest.Env, token, id string) string {
	t.Helper()
	info := getUploadInfo(t, env, token, id)
	if !info.Data.Complete || info.Data.FileURL == nil {
		t.Fatalf("not complete: %+v", info.Data)
	}
	return *info.Data.FileURL
}

func sha(b []byte) string { return fmt.Sprintf("%x", sha256.Sum256(b)) }

// Isolation fixtures: an unfinished upload of team A, a creation naming team A, and a finished
// file of team A (downloadFile is public: only the fuzz test uses it).
func uploadFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	return map[string]string{"uploadId": createUpload(t, env, owner.Access, org, "knowledge-file", "price-list.pdf", 100_000), "Upload-Offset": "0"}
}

func creationFixture(_ *testing.T, _ *apitest.Env, _ apitest.Caller, org string) map[string]string {
	return map[string]string{"Upload-Metadata": uploadMetadata(org, "knowledge-file", "price-list.pdf")}
}

func fileFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	id, link := finishedUpload(t, env, owner.Access, org, "contacts-csv", "contacts.csv", uploadstest.CSV(100))
	u, _ := url.Parse(link)
	return map[string]string{"fileId": id, "token": u.Query().Get("token")}
}

// The tus protocol end to end: discovery, creation, offsets, chunks, the file, termination.
func TestUploadsThroughTus(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		tok := owner.Access

		res := env.Do(apitest.Request{Method: http.MethodOptions, Path: "/v1/uploads"})
		if res.Status != http.StatusNoContent || res.Header.Get("Tus-Version") != "1.0.0" || res.Header.Get("Tus-Max-Size") != "52428800" ||
			res.Header.Get("Tus-Extension") != "creation,termination" {
			t.Fatalf("discovery: %d %v", res.Status, res.Header)
		}

		data := uploadstest.MP3(13<<20 + 12345)
		id := createUpload(t, env, tok, org, "agent-audio", "greeting.mp3", len(data))
		head := env.Do(apitest.Request{Method: http.MethodHead, Path: "/v1/uploads/" + id, Token: tok, Header: tus(nil)})
		if head.Status != http.StatusOK || head.Header.Get("Upload-Offset") != "0" || head.Header.Get("Upload-Length") != strconv.Itoa(len(data)) ||
			head.Header.Get("Upload-Metadata") != uploadMetadata(org, "agent-audio", "greeting.mp3") || head.Header.Get("Cache-Control") != "no-store" ||
			head.Header.Get("Tus-Resumable") != "1.0.0" {
			t.Fatalf("HEAD: %d %v", head.Status, head.Header)
		}
		if info := getUploadInfo(t, env, tok, id); info.Data.Complete || info.Data.FileURL != nil || info.Data.FileType != "audio/mpeg" {
			t.Fatalf("info before any byte: %+v", info.Data)
		}

		// tus's own answers.
		if res := sendChunk(env, tok, id, 5, data[:10]); res.Status != http.StatusConflict || res.Problem(t).Code != "conflict" {
			t.Fatalf("wrong offset: %d %s", res.Status, res.Body)
		}
		wrongType := env.Do(apitest.Request{Method: http.MethodPatch, Path: "/v1/uploads/" + id, Token: tok, Body: data[:10],
			Header: tus(http.Header{"Upload-Offset": {"0"}, "Content-Type": {"application/octet-stream"}})})
		if wrongType.Status != http.StatusUnsupportedMediaType || wrongType.Problem(t).Code != "unsupported_media_type" {
			t.Fatalf("wrong content type: %d %s", wrongType.Status, wrongType.Body)
		}
		for _, method := range []string{http.MethodPost, http.MethodHead, http.MethodPatch, http.MethodDelete} {
			for _, version := range []string{"0.2.2", ""} {
				path := "/v1/uploads/" + id
				if method == http.MethodPost {
					path = "/v1/uploads"
				}
				h := http.Header{"Upload-Offset": {"0"}, "Content-Type": {"application/offset+octet-stream"}, "Upload-Length": {"10"},
					"Upload-Metadata": {uploadMetadata(org, "agent-audio", "a.mp3")}}
				if version != "" {
					h.Set("Tus-Resumable", version)
				}
				res := env.Do(apitest.Request{Method: method, Path: path, Token: tok, Header: h})
				if res.Status != http.StatusPreconditionFailed || res.Header.Get("Tus-Version") != "1.0.0" {
					t.Fatalf("%s with Tus-Resumable %q: %d %v", method, version, res.Status, res.Header)
				}
			}
		}
		if uploadOffset(t, env, tok, id) != 0 {
			t.Fatal("refused requests moved the offset")
		}

		sendFrom(t, env, tok, id, 0, data)
		if res := sendChunk(env, tok, id, len(data), []byte("x")); res.Status != http.StatusConflict {
			t.Fatalf("a chunk after the end: %d %s", res.Status, res.Body)
		}
		info := getUploadInfo(t, env, tok, id)
		if !info.Data.Complete || info.Data.Offset != int64(len(data)) || info.Data.FileURL == nil || info.Data.FileType != "audio/mpeg" {
			t.Fatalf("info when complete: %+v", info.Data)
		}

		// The file, whole and in ranges.
		file := download(env, *info.Data.FileURL, nil)
		if file.Status != http.StatusOK || sha(file.Body) != sha(data) || file.Header.Get("Content-Type") != "audio/mpeg" ||
			file.Header.Get("Content-Disposition") != `inline; filename="greeting.mp3"` || file.Header.Get("Accept-Ranges") != "bytes" ||
			file.Header.Get("Content-Length") != strconv.Itoa(len(data)) || !strings.HasPrefix(file.Header.Get("Content-Security-Policy"), "sandbox") {
			t.Fatalf("download: %d %v", file.Status, file.Header)
		}
		for rng, want := range map[string][2]int{
			"bytes=0-99":          {0, 100},
			"bytes=1000-":         {1000, len(data)},
			"bytes=-500":          {len(data) - 500, len(data)},
			"bytes=10-1000000000": {10, len(data)},
		} {
			part := download(env, *info.Data.FileURL, http.Header{"Range": {rng}})
			wantRange := fmt.Sprintf("bytes %d-%d/%d", want[0], want[1]-1, len(data))
			if part.Status != http.StatusPartialContent || !bytes.Equal(part.Body, data[want[0]:want[1]]) || part.Header.Get("Content-Range") != wantRange ||
				part.Header.Get("Content-Type") != "audio/mpeg" {
				t.Fatalf("%s: %d %q (%d bytes)", rng, part.Status, part.Header.Get("Content-Range"), len(part.Body))
			}
		}
		for _, rng := range []string{"bytes=0-1,5-6", "bytes=9-3", "pages=1", "bytes=x-"} {
			if whole := download(env, *info.Data.FileURL, http.Header{"Range": {rng}}); whole.Status != http.StatusOK || len(whole.Body) != len(data) {
				t.Fatalf("%s: %d, want the whole file", rng, whole.Status)
			}
		}
		past := download(env, *info.Data.FileURL, http.Header{"Range": {fmt.Sprintf("bytes=%d-", len(data))}})
		if past.Status != http.StatusRequestedRangeNotSatisfiable || past.Header.Get("Content-Range") != fmt.Sprintf("bytes */%d", len(data)) {
			t.Fatalf("a range past the end: %d %v", past.Status, past.Header)
		}

		// Bad and expired tokens, and unknown files, are all 404.
		u, _ := url.Parse(*info.Data.FileURL)
		token := u.Query().Get("token")
		key, err := env.DB.Secret(context.Background(), "file_url_signing_key", func() string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		exp := strconv.FormatInt(time.Now().Add(-time.Minute).Unix(), 10)
		mac := hmac.New(sha256.New, []byte(key))
		mac.Write([]byte("betty file\x00" + id + "\x00" + exp))
		expired := exp + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
		for name, path := range map[string]string{
			"tampered":       "/v1/files/" + id + "?token=" + tampered(token),
			"expired":        "/v1/files/" + id + "?token=" + url.QueryEscape(expired),
			"another file's": "/v1/files/" + unknownID + "?token=" + url.QueryEscape(token),
			"not a token":    "/v1/files/" + id + "?token=hello",
		} {
			if res := env.Get(path); res.Status != http.StatusNotFound || res.Problem(t).Code != "not_found" {
				t.Errorf("%s token: %d %s", name, res.Status, res.Body)
			}
		}

		// A file in use cannot be deleted; once released it can, and is gone.
		if err := env.DB.UseUpload(context.Background(), org, id, "agent:1"); err != nil {
			t.Fatal(err)
		}
		del := env.Do(apitest.Request{Method: http.MethodDelete, Path: "/v1/uploads/" + id, Token: tok, Header: tus(nil)})
		if del.Status != http.StatusConflict {
			t.Fatalf("delete a file in use: %d %s", del.Status, del.Body)
		}
		if err := env.DB.ReleaseUpload(context.Background(), org, id, "agent:1", time.Now()); err != nil {
			t.Fatal(err)
		}
		del = env.Do(apitest.Request{Method: http.MethodDelete, Path: "/v1/uploads/" + id, Token: tok, Header: tus(nil)})
		if del.Status != http.StatusNoContent || del.Header.Get("Tus-Resumable") != "1.0.0" {
			t.Fatalf("delete: %d %s", del.Status, del.Body)
		}
		if res := env.Do(apitest.Request{Method: http.MethodHead, Path: "/v1/uploads/" + id, Token: tok, Header: tus(nil)}); res.Status != http.StatusNotFound {
			t.Fatalf("HEAD after delete: %d", res.Status)
		}
		if res := download(env, *info.Data.FileURL, nil); res.Status != http.StatusNotFound {
			t.Fatalf("download after delete: %d", res.Status)
		}

		// An unfinished upload is terminated too; a readonly member may look but not upload.
		other := createUpload(t, env, tok, org, "contacts-csv", "list.csv", 1000)
		if res := env.Do(apitest.Request{Method: http.MethodDelete, Path: "/v1/uploads/" + other, Token: tok, Header: tus(nil)}); res.Status != http.StatusNoContent {
			t.Fatalf("terminate: %d %s", res.Status, res.Body)
		}
		readonly := env.APIKey(t, org, "readonly")
		kept := createUpload(t, env, tok, org, "contacts-csv", "list.csv", 1000)
		if res := env.Do(apitest.Request{Method: http.MethodGet, Path: "/v1/uploads/" + kept + "/info", Token: readonly}); res.Status != http.StatusOK {
			t.Fatalf("readonly reads: %d %s", res.Status, res.Body)
		}
		if res := sendChunk(env, readonly, kept, 0, uploadstest.CSV(10)); res.Status != http.StatusForbidden {
			t.Fatalf("readonly sends: %d %s", res.Status, res.Body)
		}
	})
}

// tampered changes a token's last character.
func tampered(token string) string {
	last := "A"
	if strings.HasSuffix(token, last) {
		last = "B"
	}
	return token[:len(token)-1] + last
}

// unknownID is an id no upload has.
const unknownID = "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"

// The type comes from the bytes, not the name; sizes are checked at creation.
func TestUploadTypesAndSizes(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		tok := owner.Access
		create := func(purpose, name string, size int) *apitest.Response {
			return env.Do(apitest.Request{Method: http.MethodPost, Path: "/v1/uploads", Token: tok, Header: tus(http.Header{
				"Upload-Length": {strconv.Itoa(size)}, "Upload-Metadata": {uploadMetadata(org, purpose, name)}})})
		}
		for _, tt := range []struct {
			purpose, name string
			size, status  int
		}{
			{"agent-audio", "big.mp3", 50<<20 + 1, http.StatusRequestEntityTooLarge},
			{"knowledge-file", "big.pdf", 60 << 20, http.StatusRequestEntityTooLarge},
			{"agent-audio", "notes.pdf", 100, http.StatusUnprocessableEntity},
			{"contacts-csv", "setup.exe", 100, http.StatusUnprocessableEntity},
			{"voice-sample", "empty.wav", 0, http.StatusUnprocessableEntity},
			{"voice-sample", "max.wav", 50 << 20, http.StatusCreated},
		} {
			if res := create(tt.purpose, tt.name, tt.size); res.Status != tt.status {
				t.Errorf("%s %s of %d bytes: %d %s", tt.purpose, tt.name, tt.size, res.Status, res.Body)
			}
		}
		bad := env.Do(apitest.Request{Method: http.MethodPost, Path: "/v1/uploads", Token: tok, Header: tus(http.Header{
			"Upload-Length": {"10"}, "Upload-Metadata": {"filename eA==,purpose " + base64.StdEncoding.EncodeToString([]byte("agent-audio"))}})})
		if p := bad.Problem(t); bad.Status != http.StatusBadRequest || p.Errors[0].Field != "header.Upload-Metadata" {
			t.Fatalf("metadata without an organisation: %d %s", bad.Status, bad.Body)
		}

		// A .pdf that is really an MP3 is refused once 8 KiB arrived, and deleted.
		mp3 := uploadstest.MP3(1 << 20)
		fake := createUpload(t, env, tok, org, "knowledge-file", "report.pdf", len(mp3))
		if res := sendChunk(env, tok, fake, 0, mp3[:4096]); res.Status != http.StatusNoContent {
			t.Fatalf("4 KiB: %d %s", res.Status, res.Body)
		}
		res := sendChunk(env, tok, fake, 4096, mp3[4096:])
		if res.Status != http.StatusUnprocessableEntity || !strings.Contains(res.Problem(t).Detail, "MP3 audio") {
			t.Fatalf("an mp3 named .pdf: %d %s", res.Status, res.Body)
		}
		if res := env.Do(apitest.Request{Method: http.MethodHead, Path: "/v1/uploads/" + fake, Token: tok, Header: tus(nil)}); res.Status != http.StatusNotFound {
			t.Fatalf("the refused upload is still there: %d", res.Status)
		}
		// And the reverse: a .mp3 that is really a PDF.
		pdf := uploadstest.PDF(20_000)
		fake = createUpload(t, env, tok, org, "agent-audio", "song.mp3", len(pdf))
		if res := sendChunk(env, tok, fake, 0, pdf); res.Status != http.StatusUnprocessableEntity || !strings.Contains(res.Problem(t).Detail, "a PDF") {
			t.Fatalf("a pdf named .mp3: %d %s", res.Status, res.Body)
		}

		// Bytes past Upload-Length are refused and nothing of them is kept.
		small := createUpload(t, env, tok, org, "contacts-csv", "list.csv", 100)
		if res := sendChunk(env, tok, small, 0, uploadstest.CSV(200)); res.Status != http.StatusRequestEntityTooLarge {
			t.Fatalf("too many bytes: %d %s", res.Status, res.Body)
		}
		if uploadOffset(t, env, tok, small) != 0 {
			t.Fatal("bytes of a refused chunk were kept")
		}
		// Other purposes and types go through, and the file's type is the one read.
		for _, f := range []struct {
			purpose, name, wantType string
			data                    []byte
		}{
			{"voice-sample", "sample.wav", "audio/wav", uploadstest.WAV(30_000)},
			{"agent-audio", "memo.m4a", "audio/mp4", uploadstest.M4A(30_000)},
			{"agent-audio", "memo.ogg", "audio/ogg", uploadstest.Ogg(30_000)},
			{"agent-file", "letter.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", uploadstest.DOCX()},
			{"knowledge-file", "notes.md", "text/markdown", []byte("# Opening hours\n\nMonday to Friday.\n")},
			{"knowledge-file", "page.html", "text/html", []byte("<!doctype html><title>x</title><script>alert(1)</script>")},
		} {
			id, link := finishedUpload(t, env, tok, org, f.purpose, f.name, f.data)
			if info := getUploadInfo(t, env, tok, id); info.Data.FileType != f.wantType {
				t.Errorf("%s: type %q, want %q", f.name, info.Data.FileType, f.wantType)
			}
			if res := download(env, link, nil); res.Header.Get("Content-Type") != f.wantType || !bytes.Equal(res.Body, f.data) {
				t.Errorf("%s: downloaded as %q", f.name, res.Header.Get("Content-Type"))
			}
		}
	})
}

// A PATCH cut off mid-body by a closed TCP connection keeps the bytes that arrived; the upload
// resumes from the server's offset and the file is byte for byte the one sent.
func TestUploadCutMidChunkResumes(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		data := uploadstest.MP3(15<<20 + 777)
		id := createUpload(t, env, owner.Access, org, "agent-audio", "call.mp3", len(data))
		sendFrom(t, env, owner.Access, id, 0, data[:chunkSize]) // a whole first chunk

		// The second chunk announces 6 MiB and the connection closes after 2,500,001 of them.
		const sent = 2_500_001
		conn, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "PATCH /v1/uploads/%s HTTP/1.1\r\nHost: betty.test\r\nAuthorization: Bearer %s\r\nTus-Resumable: 1.0.0\r\n"+
			"Upload-Offset: %d\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: %d\r\n\r\n", id, owner.Access, chunkSize, chunkSize)
		if _, err := conn.Write(data[chunkSize : chunkSize+sent]); err != nil {
			t.Fatal(err)
		}
		conn.Close()

		want := chunkSize + sent
		deadline := time.Now().Add(30 * time.Second)
		offset := uploadOffset(t, env, owner.Access, id)
		for offset != want && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			offset = uploadOffset(t, env, owner.Access, id)
		}
		if offset != want {
			for _, l := range strings.Split(env.Logs.String(), "\n") {
				if strings.Contains(l, "PATCH") || strings.Contains(l, "chunk") || strings.Contains(l, "ERROR") {
					t.Log(l)
				}
			}
			t.Fatalf("offset after the cut: %d, want %d (every byte that arrived)", offset, want)
		}
		sendFrom(t, env, owner.Access, id, offset, data)
		link := fileURLOf(t, env, owner.Access, id)
		if got := download(env, link, nil); sha(got.Body) != sha(data) {
			t.Fatalf("sha-256 %s, want %s", sha(got.Body), sha(data))
		}
	})
}

// An upload resumes after the server restarts: a new server on the same database and data
// directory knows its offset and takes the rest.
func TestUploadResumesAfterARestart(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			db := testdb.Options(t, d)
			files := t.TempDir()
			same := apitest.WithConfig(func(c *config.Config) { c.DatabaseURL, c.DataDir = db.DatabaseURL, files })
			if db.DataDir != "" {
				files = db.DataDir
			}
			data := uploadstest.PDF(7<<20 + 3)
			var owner apitest.Caller
			var id string
			t.Run("before", func(t *testing.T) {
				env := apitest.New(t, d, same)
				owner = env.SignUp(t, "owner@example.com")
				org := env.Team(t, owner, "Acme")
				id = createUpload(t, env, owner.Access, org, "knowledge-file", "manual.pdf", len(data))
				sendFrom(t, env, owner.Access, id, 0, data[:chunkSize])
			}) // the server stops here
			t.Run("after", func(t *testing.T) {
				env := apitest.New(t, d, same)
				offset := uploadOffset(t, env, owner.Access, id)
				if offset != chunkSize {
					t.Fatalf("offset after the restart: %d", offset)
				}
				sendFrom(t, env, owner.Access, id, offset, data)
				link := fileURLOf(t, env, owner.Access, id)
				if got := download(env, link, nil); sha(got.Body) != sha(data) {
					t.Fatal("the file differs from the one sent")
				}
			})
		})
	}
}

// With storage_url naming an S3 bucket, uploads work the same and their objects live in the
// bucket under the team's prefix; a deleted upload leaves nothing there.
func TestUploadsOnS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("betty-files"); err != nil {
		t.Fatal(err)
	}
	fake := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(fake.Close)
	storageURL := "s3://key:secret@" + strings.TrimPrefix(fake.URL, "http://") + "/betty-files?region=us-east-1&secure=false"
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			env := apitest.New(t, d, apitest.WithConfig(func(c *config.Config) { c.StorageURL = storageURL }))
			owner := env.SignUp(t, "owner@example.com")
			org := env.Team(t, owner, "Acme")
			data := uploadstest.PDF(7<<20 + 5)
			id, link := finishedUpload(t, env, owner.Access, org, "knowledge-file", "manual.pdf", data)
			if got := download(env, link, http.Header{"Range": {"bytes=7340000-"}}); got.Status != http.StatusPartialContent ||
				!bytes.Equal(got.Body, data[7340000:]) {
				t.Fatalf("range from S3: %d, %d bytes", got.Status, len(got.Body))
			}
			if got := download(env, link, nil); sha(got.Body) != sha(data) {
				t.Fatal("the file read from S3 differs from the one sent")
			}
			objects, err := backend.ListBucket("betty-files", &gofakes3.Prefix{Prefix: org + "/" + id + "/", HasPrefix: true}, gofakes3.ListBucketPage{})
			if err != nil || len(objects.Contents) != 1 || !strings.HasPrefix(objects.Contents[0].Key, org+"/"+id+"/file-") {
				t.Fatalf("objects in the bucket: %+v %v", objects, err)
			}
			if res := env.Do(apitest.Request{Method: http.MethodDelete, Path: "/v1/uploads/" + id, Token: owner.Access, Header: tus(nil)}); res.Status != http.StatusNoContent {
				t.Fatalf("delete: %d", res.Status)
			}
			if objects, _ := backend.ListBucket("betty-files", &gofakes3.Prefix{Prefix: org + "/", HasPrefix: true}, gofakes3.ListBucketPage{}); len(objects.Contents) != 0 {
				t.Fatalf("objects left after delete: %+v", objects.Contents)
			}
		})
	}
}
