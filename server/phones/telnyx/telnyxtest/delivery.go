package telnyxtest

import (
	"bytes"
	"net/http"
	"strconv"
	"time"
)

// deliver sends an event until a webhook URL acknowledges it with 2xx, backing off from 50 ms
// to 2 s between tries, each try to the next URL.
func (c *callSim) deliver(e *Event) {
	defer c.wg.Done()
	wait := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		select {
		case c.sem <- struct{}{}:
		case <-c.done:
			return
		}
		url := c.cfg.WebhookURLs[(attempt-1)%len(c.cfg.WebhookURLs)]
		ok := c.post(url, e, attempt)
		<-c.sem
		c.mu.Lock()
		c.sent++
		if ok {
			e.Acked = true
			c.acked++
		}
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-time.After(wait):
		case <-c.done:
			return
		}
		wait = min(wait*2, 2*time.Second)
	}
}

func (c *callSim) post(url string, e *Event, attempt int) bool {
	var body bytes.Buffer
	body.WriteString(`{"data":`)
	body.Write(e.Body)
	body.WriteString(`,"meta":{"attempt":` + strconv.Itoa(attempt) + `,"delivered_to":` + strconv.Quote(url) + `}}`)
	ts, sig := sign(c.cfg.Key, body.Bytes(), time.Now())
	req, err := http.NewRequest(http.MethodPost, url, &body)
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("telnyx-timestamp", ts)
	req.Header.Set("telnyx-signature-ed25519", sig)
	res, err := c.cfg.Client.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode >= 200 && res.StatusCode < 300
}

// silentMP3 is n frames of MPEG-1 Layer III silence (128 kbit/s, 44.1 kHz, mono): a real,
// playable file for recording downloads.
func silentMP3(n int) []byte {
	const frameLen = 417 // 144 × 128000 / 44100
	frame := make([]byte, frameLen)
	copy(frame, []byte{0xFF, 0xFB, 0x90, 0xC4})
	return bytes.Repeat(frame, n)
}
