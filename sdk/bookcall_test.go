package betty

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/bettyhq/betty/sdk/client"
)

func TestBookCall(t *testing.T) {
	calls := 0
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		if r.URL.Path != "/v1/call/book-a-call" || r.Header.Get("Authorization") != "" || body["name"] != "Ann" || body["pageUrl"] != nil {
			t.Errorf("request: %s %v %v", r.URL.Path, r.Header, body)
		}
		if body["phoneNumber"] == "+14155550199" {
			writeProblem(w, http.StatusUnprocessableEntity, "unprocessable", "We cannot call this number.",
				client.FieldError{Field: "body.phoneNumber", Message: "We cannot call this number."})
			return
		}
		writeJSON(w, http.StatusCreated, map[string]any{"id": "b1", "jobId": "j1", "phoneNumber": body["phoneNumber"], "status": "queued",
			"organizationId": "o", "workflowId": "w", "createdAt": "2026-01-02T03:04:05Z",
			"consent": map[string]any{"text": "ok", "pageUrl": nil, "clientIp": "203.0.113.1", "givenAt": "2026-01-02T03:04:05Z"}}, nil)
	}))
	b, err := c.BookCall(context.Background(), BookCallRequest{PublicKey: "betty_pk_x", PhoneNumber: "+14155550123", Name: "Ann", Consent: true})
	if err != nil || b.JobId != "j1" || b.PhoneNumber != "+14155550123" {
		t.Fatalf("%+v %v", b, err)
	}
	_, err = c.BookCall(context.Background(), BookCallRequest{PublicKey: "betty_pk_x", PhoneNumber: "+14155550199", Name: "Ann", Consent: true})
	if e, ok := err.(*APIError); !ok || e.StatusCode != http.StatusUnprocessableEntity || e.Detail != "We cannot call this number." {
		t.Fatalf("refused: %v", err)
	}
}
