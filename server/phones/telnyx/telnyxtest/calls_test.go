package telnyxtest_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
)

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer K")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc map[string]any
	_ = json.NewDecoder(res.Body).Decode(&doc)
	return res.StatusCode, doc
}

// The fake places a call once per command_id, plays its outcome, answers commands with their
// events, and delivers signed webhooks until they are acknowledged (the receiver refuses the
// first delivery of each).
func TestFakeCallsAndSignedWebhooks(t *testing.T) {
	key := telnyxtest.KeyFromSeed(3)
	pub := key.Public().(ed25519.PublicKey)
	var mu sync.Mutex
	seen := map[string]int{}
	var kinds []string
	var refused atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		sig, _ := base64.StdEncoding.DecodeString(r.Header.Get("telnyx-signature-ed25519"))
		if !ed25519.Verify(pub, append([]byte(r.Header.Get("telnyx-timestamp")+"|"), raw...), sig) {
			t.Errorf("bad signature on %s", raw)
		}
		var doc struct {
			Data struct {
				ID        string `json:"id"`
				EventType string `json:"event_type"`
			} `json:"data"`
		}
		_ = json.Unmarshal(raw, &doc)
		id := doc
		mu.Lock()
		defer mu.Unlock()
		seen[id.Data.ID]++
		if seen[id.Data.ID] == 1 {
			refused.Add(1)
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		kinds = append(kinds, doc.Data.EventType)
	}))
	defer hook.Close()
	fake := telnyxtest.Start(t, "K")
	fake.EnableCalls(telnyxtest.CallsConfig{WebhookURLs: []string{hook.URL}, Key: key, Answer: 1, Ring: 5 * time.Millisecond})
	if fake.PublicKey() != base64.StdEncoding.EncodeToString(pub) {
		t.Fatal("public key")
	}
	dial := `{"connection_id":"c","to":"+13125550101","from":"+13125550199","command_id":"a1","client_state":"YTE=","answering_machine_detection":"detect"}`
	status, doc := post(t, fake.URL()+"/calls", dial)
	if status != 200 {
		t.Fatalf("dial: %d %v", status, doc)
	}
	id := doc["data"].(map[string]any)["call_control_id"].(string)
	if _, again := post(t, fake.URL()+"/calls", dial); again["data"].(map[string]any)["call_control_id"] != id {
		t.Fatalf("the same command_id placed another call: %v", again)
	}
	if status, doc := post(t, fake.URL()+"/calls", `{"connection_id":"c","to":"12","from":"+13125550199"}`); status != 422 ||
		!bytes.Contains(must(json.Marshal(doc)), []byte(`"/to"`)) {
		t.Fatalf("bad number: %d %v", status, doc)
	}
	waitFor(t, func() bool { return fake.Stats().Events >= 3 }) // initiated, answered, machine detection
	for _, a := range []string{"speak", "speak", "transcription_start", "hangup"} {
		if a == "hangup" { // once the speech ended and the words came
			waitFor(t, func() bool { return fake.Stats().Events >= 6 })
		}
		cmd := `{"command_id":"` + a + `","payload":"Hello","voice":"female"}`
		if status, doc := post(t, fake.URL()+"/calls/"+id+"/actions/"+a, cmd); status != 200 {
			t.Fatalf("%s: %d %v", a, status, doc)
		}
	}
	if status, doc := post(t, fake.URL()+"/calls/"+id+"/actions/speak", `{"command_id":"late","payload":"x","voice":"female"}`); status != 422 ||
		!strings.Contains(string(must(json.Marshal(doc))), "90018") {
		t.Fatalf("command after the end: %d %v", status, doc)
	}
	waitFor(t, func() bool { st := fake.Stats(); return st.EventsPending == 0 && st.Events >= 7 })
	st := fake.Stats()
	if st.Dials["+13125550101"] != 1 || st.DialRequests["+13125550101"] != 2 || st.TotalDials != 1 || st.Commands["speak"] != 1 ||
		st.Ended != 1 || st.EventsSent != 2*st.EventsAcked || int(refused.Load()) != st.Events {
		t.Fatalf("stats: %+v", st)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, k := range []string{"call.initiated", "call.answered", "call.machine.detection.ended", "call.speak.ended", "call.transcription", "call.hangup"} {
		if !strings.Contains(strings.Join(kinds, " "), k) {
			t.Errorf("no %s in %v", k, kinds)
		}
	}
}

// Serve runs the fake as a process does: one JSON line, then the API and its stats.
func TestServePrintsItsAddressAndKey(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := telnyxtest.Serve(ctx, []string{"--seed", "9", "--busy", "1", "--answer", "0", "--no-answer", "0", "--voicemail", "0"}, w)
		w.CloseWithError(err)
		done <- err
	}()
	var line struct{ URL, APIKey, PublicKey string }
	if err := json.NewDecoder(r).Decode(&line); err != nil {
		t.Fatal(err)
	}
	if line.PublicKey != telnyxtest.PublicKey(telnyxtest.KeyFromSeed(9)) || !strings.HasPrefix(line.URL, "http://127.0.0.1:") {
		t.Fatalf("%+v", line)
	}
	res, err := http.Get(line.URL + "/_fake/stats")
	if err != nil || res.StatusCode != 200 {
		t.Fatal(res, err)
	}
	res.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func must(b []byte, _ error) []byte { return b }

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func get(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer K")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc map[string]any
	_ = json.NewDecoder(res.Body).Decode(&doc)
	return res.StatusCode, doc
}

// GET /calls/{id} answers the call's status as Telnyx documents it (data.is_alive,
// call_duration, start_time, end_time once ended), while the fake keeps the call: 404 after
// ForgetAfter. With DropHangups the hang-up webhook is never sent.
func TestFakeCallStatusAndDroppedHangups(t *testing.T) {
	var mu sync.Mutex
	var kinds []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var doc struct {
			Data struct {
				EventType string `json:"event_type"`
			} `json:"data"`
		}
		_ = json.NewDecoder(r.Body).Decode(&doc)
		mu.Lock()
		kinds = append(kinds, doc.Data.EventType)
		mu.Unlock()
	}))
	defer hook.Close()
	fake := telnyxtest.Start(t, "K")
	fake.EnableCalls(telnyxtest.CallsConfig{WebhookURLs: []string{hook.URL}, Answer: 1, Ring: time.Millisecond, DropHangups: true,
		ForgetAfter: time.Hour})
	status, doc := post(t, fake.URL()+"/calls", `{"connection_id":"c","to":"+13125550101","from":"+13125550199","command_id":"d1"}`)
	if status != http.StatusOK {
		t.Fatalf("dial: %d %v", status, doc)
	}
	id := doc["data"].(map[string]any)["call_control_id"].(string)
	status, doc = get(t, fake.URL()+"/calls/"+id)
	data, _ := doc["data"].(map[string]any)
	if status != http.StatusOK || data["record_type"] != "call" || data["call_control_id"] != id || data["is_alive"] != true ||
		data["start_time"] == nil || data["call_duration"] == nil || data["end_time"] != nil {
		t.Fatalf("a call on the line: %d %v", status, doc)
	}
	fake.HangUp(id)
	status, doc = get(t, fake.URL()+"/calls/"+id)
	data, _ = doc["data"].(map[string]any)
	end, err := time.Parse(time.RFC3339Nano, fmt.Sprint(data["end_time"]))
	if status != http.StatusOK || data["is_alive"] != false || err != nil || time.Since(end) > time.Minute {
		t.Fatalf("a call ended: %d %v", status, doc)
	}
	if status, doc = get(t, fake.URL()+"/calls/v3:unknown"); status != http.StatusNotFound || doc["errors"] == nil {
		t.Fatalf("an unknown call: %d %v", status, doc)
	}
	fake.Forget(id)
	if status, _ = get(t, fake.URL()+"/calls/"+id); status != http.StatusNotFound {
		t.Fatalf("a forgotten call: %d", status)
	}
	if st := fake.Stats(); st.DroppedHangups != 1 || st.StatusRequests != 4 || st.Ended != 1 {
		t.Fatalf("stats: %+v", st)
	}
	// ForgetAfter: an ended call's status is kept that long.
	fake.EnableCalls(telnyxtest.CallsConfig{Answer: 1, Ring: time.Millisecond, ForgetAfter: time.Nanosecond})
	_, doc = post(t, fake.URL()+"/calls", `{"connection_id":"c","to":"+13125550101","from":"+13125550199","command_id":"d2"}`)
	id = doc["data"].(map[string]any)["call_control_id"].(string)
	fake.HangUp(id)
	time.Sleep(time.Millisecond)
	if status, _ = get(t, fake.URL()+"/calls/"+id); status != http.StatusNotFound {
		t.Fatalf("a call ended longer ago than ForgetAfter: %d", status)
	}
	time.Sleep(20 * time.Millisecond) // webhooks of the first call that were to come, came
	mu.Lock()
	defer mu.Unlock()
	for _, k := range kinds {
		if k == "call.hangup" {
			t.Fatalf("a hang-up was sent: %v", kinds)
		}
	}
}
