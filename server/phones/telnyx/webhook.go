package telnyx

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/phones"
)

// WebhookTolerance is how far a webhook's telnyx-timestamp may be from the server's clock.
const WebhookTolerance = 5 * time.Minute

// Webhook errors, for VerifyWebhook's callers that tell them apart.
var (
	ErrSignatureMissing = errors.New("telnyx: telnyx-signature-ed25519 or telnyx-timestamp is missing or malformed")
	ErrSignatureInvalid = errors.New("telnyx: the webhook signature does not verify")
	ErrSignatureStale   = errors.New("telnyx: the webhook timestamp is more than 5 minutes from the server's clock")
)

// ParsePublicKey reads the account's public key as Telnyx shows it (base64 of the 32-byte
// Ed25519 key).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, errors.New("telnyx: --telnyx-public-key must be the base64 Ed25519 public key shown in the Telnyx portal (32 bytes)")
	}
	return ed25519.PublicKey(raw), nil
}

// VerifyWebhook checks a webhook's signature: base64 Ed25519 over "<timestamp>|<raw body>",
// with the timestamp (Unix seconds) within WebhookTolerance of now.
func VerifyWebhook(key ed25519.PublicKey, raw []byte, signature, timestamp string, now time.Time) error {
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(signature))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return ErrSignatureMissing
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(timestamp), 10, 64)
	if err != nil || secs <= 0 {
		return ErrSignatureMissing
	}
	msg := make([]byte, 0, len(timestamp)+1+len(raw))
	msg = append(append(append(msg, strings.TrimSpace(timestamp)...), '|'), raw...)
	if !ed25519.Verify(key, msg, sig) {
		return ErrSignatureInvalid
	}
	if d := now.Sub(time.Unix(secs, 0)); d > WebhookTolerance || d < -WebhookTolerance {
		return ErrSignatureStale
	}
	return nil
}

// webhookBody is the part of a Telnyx webhook Betty reads.
type webhookBody struct {
	Data struct {
		RecordType string    `json:"record_type"`
		EventType  string    `json:"event_type"`
		ID         string    `json:"id"`
		OccurredAt time.Time `json:"occurred_at"`
		Payload    struct {
			CallControlID     string `json:"call_control_id"`
			ClientState       string `json:"client_state"`
			From              string `json:"from"`
			To                string `json:"to"`
			Direction         string `json:"direction"`
			HangupCause       string `json:"hangup_cause"`
			Result            string `json:"result"`
			TranscriptionData *struct {
				Transcript string `json:"transcript"`
				IsFinal    bool   `json:"is_final"`
			} `json:"transcription_data"`
			RecordingURLs       map[string]string `json:"recording_urls"`
			PublicRecordingURLs map[string]string `json:"public_recording_urls"`
		} `json:"payload"`
	} `json:"data"`
}

// ParseWebhook reads a Telnyx webhook as a call event. ok is false for events Betty does not
// act on (number orders, speak started, a human detected, a transcript not final yet …),
// which are acknowledged and ignored. A body that is not a Telnyx event is an error.
func ParseWebhook(raw []byte) (e phones.CallEvent, ok bool, err error) {
	var b webhookBody
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&b); err != nil {
		return e, false, errors.New("telnyx: the webhook is not JSON of Telnyx's shape: " + err.Error())
	}
	d, p := b.Data, b.Data.Payload
	if d.ID == "" || d.EventType == "" {
		return e, false, errors.New("telnyx: the webhook has no data.id or data.event_type")
	}
	e = phones.CallEvent{ID: d.ID, CallControlID: p.CallControlID, At: d.OccurredAt, From: p.From, To: p.To}
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	e.AttemptID, _ = DecodeClientState(p.ClientState)
	switch d.EventType {
	case "call.initiated":
		e.Kind, e.Inbound = phones.EventInitiated, p.Direction == "incoming" && e.AttemptID == ""
	case "call.answered":
		e.Kind = phones.EventAnswered
	case "call.machine.detection.ended", "call.machine.premium.detection.ended":
		if p.Result != "machine" && !strings.HasPrefix(p.Result, "machine") {
			return e, false, nil
		}
		e.Kind = phones.EventMachine
	case "call.speak.ended":
		e.Kind = phones.EventSpeakEnded
	case "call.transcription":
		if p.TranscriptionData == nil || !p.TranscriptionData.IsFinal {
			return e, false, nil
		}
		e.Kind, e.Text = phones.EventHeard, strings.TrimSpace(p.TranscriptionData.Transcript)
	case "call.hangup":
		e.Kind, e.Cause = phones.EventHangup, hangupCause(p.HangupCause)
	case "call.recording.saved":
		e.Kind = phones.EventRecordingSaved
		for _, m := range []map[string]string{p.RecordingURLs, p.PublicRecordingURLs} {
			if e.RecordingURL == "" {
				e.RecordingURL = firstOf(m, "mp3", "wav")
			}
		}
	default:
		return e, false, nil
	}
	if e.CallControlID == "" {
		return e, false, errors.New("telnyx: a call event without payload.call_control_id")
	}
	return e, true, nil
}

func firstOf(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if m[k] != "" {
			return m[k]
		}
	}
	return ""
}

// hangupCause reads Telnyx's hangup_cause.
func hangupCause(c string) phones.HangupCause {
	switch c {
	case "normal_clearing":
		return phones.HangupNormal
	case "user_busy":
		return phones.HangupBusy
	case "timeout", "no_answer", "originator_cancel":
		return phones.HangupNoAnswer
	case "call_rejected", "unallocated_number", "not_found", "invalid_number_format", "destination_out_of_order":
		return phones.HangupRejected
	}
	return phones.HangupFailed
}

// Receive verifies a webhook on its raw body and gives its call event to the handler: the
// domain side of POST /v1/webhooks/telnyx. It answers errs errors: 400 for a missing or
// malformed signature or a body that is not a Telnyx event, 401 for a signature that does not
// verify or is too old, 503 while Telnyx is not configured or no handler is set (Telnyx
// delivers again later), and the handler's error otherwise (the event is delivered again).
// nil means the event was handled (or is one Betty ignores) and may be acknowledged.
func (k *Calls) Receive(ctx context.Context, raw []byte, signature, timestamp string) error {
	if k.key == nil {
		return &errs.Error{Kind: errs.Unavailable, Code: errs.CodeUnavailable,
			Message: "Telnyx webhooks are not configured on this server: an operator must set --telnyx-public-key (BETTY_TELNYX_PUBLIC_KEY)."}
	}
	switch err := VerifyWebhook(k.key, raw, signature, timestamp, time.Now()); {
	case errors.Is(err, ErrSignatureMissing):
		return errs.InvalidField("header.telnyx-signature-ed25519", "telnyx-signature-ed25519 or telnyx-timestamp is missing or malformed")
	case errors.Is(err, ErrSignatureInvalid):
		return errs.New(errs.Unauthenticated, "The Telnyx signature does not verify.")
	case errors.Is(err, ErrSignatureStale):
		return errs.New(errs.Unauthenticated, "The Telnyx signature is more than 300 seconds from the server's clock.")
	}
	e, ok, err := ParseWebhook(raw)
	if err != nil {
		return &errs.Error{Kind: errs.Invalid, Message: "The body is not a Telnyx event.",
			Fields: []errs.Field{{Name: "body", Message: "not a Telnyx event"}}, Err: err}
	}
	if !ok {
		return nil
	}
	switch e.Kind {
	case phones.EventHeard:
		if !k.heard(ctx, e.CallControlID) {
			k.log.InfoContext(ctx, "telnyx words heard outside a listen", "call_control_id", e.CallControlID, "event", e.ID)
		}
	case phones.EventHangup:
		k.forget(e.CallControlID)
	}
	h := k.eventHandler()
	if h == nil && e.AttemptID == "" && !e.Inbound {
		// Not a call Betty placed nor one coming in: another application's, acknowledged.
		k.log.InfoContext(ctx, "telnyx event of a call Betty did not place, acknowledged", "event", e.ID,
			"type", e.Kind, "call_control_id", e.CallControlID)
		return nil
	}
	if h == nil {
		return &errs.Error{Kind: errs.Unavailable, Code: errs.CodeUnavailable, RetryAfter: 30 * time.Second,
			Message: "This server does not handle Telnyx call events yet; Telnyx will deliver the event again."}
	}
	// Events without an attempt id (an inbound call's before it is answered) are found by
	// their call_control_id, or acknowledged and ignored by the handler.
	return h.HandleCallEvent(ctx, e)
}
