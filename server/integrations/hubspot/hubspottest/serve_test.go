package hubspottest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The process prints its address and credentials as one JSON line, serves the seeded
// contacts and the authorisation page, and stops with its context.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, []string{"--contacts", "3", "--invalid-phones", "1", "--client-id", "cid"}, w)
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var info struct{ URL, ClientID, ClientSecret, Domain, ListID string }
	if err := json.Unmarshal([]byte(line), &info); err != nil || info.ClientID != "cid" || info.ClientSecret == "" || !strings.HasPrefix(info.URL, "http://127.0.0.1:") || info.ListID == "" {
		t.Fatalf("%q: %+v %v", line, info, err)
	}
	res, err := http.Get(info.URL + "/oauth/authorize?client_id=cid&redirect_uri=http%3A%2F%2Fbetty.test%2Fcb&state=s&scope=oauth")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(page), ">Approve</button>") || !strings.Contains(string(page), ">Deny</button>") {
		t.Fatalf("authorise page: %d %s", res.StatusCode, page)
	}
	res, err = http.Get(info.URL + "/_fake/stats")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestSeed(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	Seed(s, 12, 2, 7)
	if len(s.order) != 14 || s.Contact(s.order[0])["phone"] != "+1 415 555 0100" || s.Contact(s.order[13])["phone"] != "12" {
		t.Fatalf("seeded: %d %v", len(s.order), s.Contact(s.order[0]))
	}
}
