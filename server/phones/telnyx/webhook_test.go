package telnyx_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/telnyx"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
)

func event(kind, payload string) []byte {
	return []byte(`{"data":{"record_type":"event","event_type":"` + kind + `","id":"ev-1","occurred_at":"2026-11-23T19:00:00.5Z",` +
		`"payload":{"call_control_id":"v3:abc","client_state":"YXR0LTE=","from":"+13125550199","to":"+13125550101"` + payload + `}},"meta":{"attempt":1}}`)
}

func TestVerifyWebhook(t *testing.T) {
	fake := telnyxtest.Start(t, key)
	pub, err := telnyx.ParsePublicKey(fake.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	other, _ := telnyx.ParsePublicKey(telnyxtest.PublicKey(telnyxtest.KeyFromSeed(99)))
	now := time.Now()
	body := event("call.answered", "")
	ts, sig := fake.Sign(body, now)
	if err := telnyx.VerifyWebhook(pub, body, sig, ts, now); err != nil {
		t.Fatalf("a good signature: %v", err)
	}
	tampered := append([]byte(nil), body...)
	tampered[len(tampered)-3] = '2'
	oldTS, oldSig := fake.Sign(body, now.Add(-6*time.Minute))
	lateTS, lateSig := fake.Sign(body, now.Add(6*time.Minute))
	okTS, okSig := fake.Sign(body, now.Add(-4*time.Minute))
	for name, tt := range map[string]struct {
		key     []byte
		body    []byte
		sig, ts string
		want    error
	}{
		"tampered body":   {pub, tampered, sig, ts, telnyx.ErrSignatureInvalid},
		"another key":     {other, body, sig, ts, telnyx.ErrSignatureInvalid},
		"another time":    {pub, body, sig, "1" + ts, telnyx.ErrSignatureInvalid},
		"six minutes old": {pub, body, oldSig, oldTS, telnyx.ErrSignatureStale},
		"from the future": {pub, body, lateSig, lateTS, telnyx.ErrSignatureStale},
		"four minutes":    {pub, body, okSig, okTS, nil},
		"no signature":    {pub, body, "", ts, telnyx.ErrSignatureMissing},
		"not base64":      {pub, body, "%%%", ts, telnyx.ErrSignatureMissing},
		"short signature": {pub, body, "c2ln", ts, telnyx.ErrSignatureMissing},
		"no timestamp":    {pub, body, sig, "", telnyx.ErrSignatureMissing},
		"bad timestamp":   {pub, body, sig, "yesterday", telnyx.ErrSignatureMissing},
	} {
		if err := telnyx.VerifyWebhook(tt.key, tt.body, tt.sig, tt.ts, now); !errors.Is(err, tt.want) && !(err == nil && tt.want == nil) {
			t.Errorf("%s: %v, want %v", name, err, tt.want)
		}
	}
}

func TestParseWebhook(t *testing.T) {
	at := time.Date(2026, 11, 23, 19, 0, 0, 5e8, time.UTC)
	for _, tt := range []struct {
		kind, payload string
		want          phones.CallEvent
		ignored       bool
	}{
		{"call.initiated", "", phones.CallEvent{Kind: phones.EventInitiated}, false},
		{"call.answered", "", phones.CallEvent{Kind: phones.EventAnswered}, false},
		{"call.machine.detection.ended", `,"result":"machine"`, phones.CallEvent{Kind: phones.EventMachine}, false},
		{"call.machine.detection.ended", `,"result":"human"`, phones.CallEvent{}, true},
		{"call.speak.ended", `,"status":"completed"`, phones.CallEvent{Kind: phones.EventSpeakEnded}, false},
		{"call.speak.started", "", phones.CallEvent{}, true},
		{"call.transcription", `,"transcription_data":{"transcript":" Not now ","is_final":true}`, phones.CallEvent{Kind: phones.EventHeard, Text: "Not now"}, false},
		{"call.transcription", `,"transcription_data":{"transcript":"Not","is_final":false}`, phones.CallEvent{}, true},
		{"call.hangup", `,"hangup_cause":"normal_clearing"`, phones.CallEvent{Kind: phones.EventHangup, Cause: phones.HangupNormal}, false},
		{"call.hangup", `,"hangup_cause":"user_busy"`, phones.CallEvent{Kind: phones.EventHangup, Cause: phones.HangupBusy}, false},
		{"call.hangup", `,"hangup_cause":"timeout"`, phones.CallEvent{Kind: phones.EventHangup, Cause: phones.HangupNoAnswer}, false},
		{"call.hangup", `,"hangup_cause":"call_rejected"`, phones.CallEvent{Kind: phones.EventHangup, Cause: phones.HangupRejected}, false},
		{"call.hangup", `,"hangup_cause":"unspecified"`, phones.CallEvent{Kind: phones.EventHangup, Cause: phones.HangupFailed}, false},
		{"call.recording.saved", `,"recording_urls":{"mp3":"https://r.example/a.mp3","wav":"https://r.example/a.wav"}`,
			phones.CallEvent{Kind: phones.EventRecordingSaved, RecordingURL: "https://r.example/a.mp3"}, false},
		{"number_order.complete", "", phones.CallEvent{}, true},
	} {
		got, ok, err := telnyx.ParseWebhook(event(tt.kind, tt.payload))
		if err != nil || ok == tt.ignored {
			t.Errorf("%s%s: ok %v, %v", tt.kind, tt.payload, ok, err)
			continue
		}
		if tt.ignored {
			continue
		}
		w := tt.want
		w.ID, w.CallControlID, w.AttemptID, w.At, w.From, w.To = "ev-1", "v3:abc", "att-1", at, "+13125550199", "+13125550101"
		if got.ID != w.ID || got.Kind != w.Kind || got.CallControlID != w.CallControlID || got.AttemptID != w.AttemptID ||
			!got.At.Equal(w.At) || got.Cause != w.Cause || got.Text != w.Text || got.RecordingURL != w.RecordingURL || got.From != w.From || got.To != w.To {
			t.Errorf("%s%s: got %+v, want %+v", tt.kind, tt.payload, got, w)
		}
	}
	for _, bad := range []string{`[]`, `{"data":{}}`, `{"data":{"id":"x","event_type":"call.answered","payload":{}}}`, `not json`} {
		if _, _, err := telnyx.ParseWebhook([]byte(bad)); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
	// A client_state Betty did not set carries no attempt.
	e, ok, err := telnyx.ParseWebhook([]byte(strings.Replace(string(event("call.answered", "")), "YXR0LTE=", "%%", 1)))
	if err != nil || !ok || e.AttemptID != "" {
		t.Fatalf("foreign client_state: %+v %v %v", e, ok, err)
	}
}

func TestReceive(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	h := &recorder{}
	k := newCalls(t, fake, telnyx.CallsOptions{})
	body := event("call.hangup", `,"hangup_cause":"user_busy"`)
	ts, sig := fake.Sign(body, time.Now())

	// No handler yet: 503, Telnyx delivers again.
	if err := k.Receive(ctx, body, sig, ts); !errs.Is(err, errs.Unavailable) {
		t.Fatalf("without a handler: %v", err)
	}
	k.SetHandler(h)
	h.fail = errors.New("database down")
	if err := k.Receive(ctx, body, sig, ts); err == nil || !strings.Contains(err.Error(), "database down") {
		t.Fatalf("a failing handler: %v", err)
	}
	h.fail = nil
	if err := k.Receive(ctx, body, sig, ts); err != nil {
		t.Fatal(err)
	}
	if got := h.got(); len(got) != 1 || got[0].Kind != phones.EventHangup || got[0].Cause != phones.HangupBusy || got[0].AttemptID != "att-1" {
		t.Fatalf("handled %+v", got)
	}
	// Ignored types are acknowledged without the handler; events of calls without an attempt
	// (an inbound call's before it was answered, or another application's) go to the handler,
	// which finds them by call_control_id or ignores them; an incoming call.initiated is Inbound.
	noState := []byte(strings.Replace(string(body), `"client_state":"YXR0LTE=",`, "", 1))
	incoming := []byte(strings.Replace(string(event("call.initiated", `,"direction":"incoming"`)), `"client_state":"YXR0LTE=",`, "", 1))
	for _, b := range [][]byte{event("call.speak.started", ""), noState, incoming} {
		ts, sig := fake.Sign(b, time.Now())
		if err := k.Receive(ctx, b, sig, ts); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}
	if got := h.got(); len(got) != 3 || got[1].AttemptID != "" || got[1].Inbound || !got[2].Inbound || got[2].Kind != phones.EventInitiated {
		t.Fatalf("handled %+v", got)
	}
	// An outgoing call.initiated (one Betty placed) is not inbound.
	if e, ok, err := telnyx.ParseWebhook(event("call.initiated", `,"direction":"outgoing"`)); err != nil || !ok || e.Inbound {
		t.Fatalf("outgoing: %+v %v %v", e, ok, err)
	}
	// Signatures: 400 when missing, 401 when wrong or old; a body that is no event is 400.
	oldTS, oldSig := fake.Sign(body, time.Now().Add(-10*time.Minute))
	junk := []byte(`{"hello":1}`)
	junkTS, junkSig := fake.Sign(junk, time.Now())
	for name, tt := range map[string]struct {
		body    []byte
		sig, ts string
		kind    errs.Kind
	}{
		"missing":  {body, "", ts, errs.Invalid},
		"wrong":    {append([]byte(" "), body...), sig, ts, errs.Unauthenticated},
		"old":      {body, oldSig, oldTS, errs.Unauthenticated},
		"no event": {junk, junkSig, junkTS, errs.Invalid},
	} {
		if err := k.Receive(ctx, tt.body, tt.sig, tt.ts); !errs.Is(err, tt.kind) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Without a public key, webhooks cannot be verified: 503 naming the setting.
	unverified, err := telnyx.NewCalls(newClient(t, fake), telnyx.CallsOptions{Handler: h})
	if err != nil {
		t.Fatal(err)
	}
	if err := unverified.Receive(ctx, body, sig, ts); !errs.Is(err, errs.Unavailable) || !strings.Contains(err.Error(), "--telnyx-public-key") {
		t.Fatalf("no key: %v", err)
	}
}
