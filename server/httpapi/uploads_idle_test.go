package httpapi_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
)

// stalledChunk opens a connection to the server, sends a PATCH announcing size bytes at offset
// and then only sent, and leaves the rest unsent. It answers the connection.
func stalledChunk(t *testing.T, env *apitest.Env, token, id string, offset, size int, sent []byte) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "PATCH /v1/uploads/%s HTTP/1.1\r\nHost: betty.test\r\nAuthorization: Bearer %s\r\nTus-Resumable: 1.0.0\r\n"+
		"Content-Type: application/offset+octet-stream\r\nUpload-Offset: %d\r\nContent-Length: %d\r\n\r\n", id, token, offset, size)
	if _, err := c.Write(sent); err != nil {
		t.Fatal(err)
	}
	return c
}

// A tus PATCH whose body stops arriving ends after the idle timeout, not the upload's whole
// deadline: the server answers with the bytes received kept (the client resumes from the
// offset) and closes the connection, so a stalled client holds neither a goroutine nor a
// descriptor. A client sending slowly but steadily, within the idle timeout, is not cut off.
func TestStalledUploadChunkEnds(t *testing.T) {
	idle := apitest.WithConfig(func(c *config.Config) { c.UploadIdleTimeout = 300 * time.Millisecond })
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		file := bytes.Repeat([]byte("Opening hours: nine to five. "), 40) // 1,160 bytes of text
		const stalls = 20
		ids := make([]string, stalls)
		conns := make([]net.Conn, stalls)
		for i := range stalls {
			ids[i] = createUpload(t, env, ada.Access, org, "knowledge-file", fmt.Sprintf("hours-%d.txt", i), len(file))
			conns[i] = stalledChunk(t, env, ada.Access, ids[i], 0, len(file), file[:100])
		}
		var wg sync.WaitGroup
		for i, c := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Well before the upload's 10-minute deadline; far after the idle timeout.
				_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
				r := bufio.NewReader(c)
				res, err := http.ReadResponse(r, nil)
				if err != nil {
					t.Errorf("stalled chunk %d: no answer: %v", i, err)
					return
				}
				res.Body.Close()
				if res.StatusCode != http.StatusNoContent || res.Header.Get("Upload-Offset") != "100" {
					t.Errorf("stalled chunk %d: %d, offset %q", i, res.StatusCode, res.Header.Get("Upload-Offset"))
				}
				// The server closed the connection: nothing more comes, not even silence.
				if _, err := r.ReadByte(); err != io.EOF {
					t.Errorf("stalled chunk %d: the connection is still open after the answer (%v)", i, err)
				}
			}()
		}
		wg.Wait()
		for i, id := range ids {
			if got := uploadOffset(t, env, ada.Access, id); got != 100 {
				t.Fatalf("upload %d: offset %d after the stall", i, got)
			}
		}
		// tus resumes from the offset: the rest completes the file.
		sendFrom(t, env, ada.Access, ids[0], 100, file)
		if info := getUploadInfo(t, env, ada.Access, ids[0]); !info.Data.Complete || info.Data.Size != int64(len(file)) {
			t.Fatalf("resumed upload: %+v", info.Data)
		}

		// A slow client that never pauses for the idle timeout sends its whole chunk.
		slow := createUpload(t, env, ada.Access, org, "knowledge-file", "slow.txt", len(file))
		c := stalledChunk(t, env, ada.Access, slow, 0, len(file), nil)
		for part := range bytes.SplitSeq(file, []byte(". ")) {
			if len(part) == 0 {
				continue
			}
			time.Sleep(5 * time.Millisecond)
			if _, err := c.Write(append(part, ". "...)); err != nil {
				t.Fatal(err)
			}
		}
		_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || res.StatusCode != http.StatusNoContent || res.Header.Get("Upload-Offset") != fmt.Sprint(len(file)) {
			t.Fatalf("slow chunk: %v %v", res, err)
		}
	}, idle)
}
