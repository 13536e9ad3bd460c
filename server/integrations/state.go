package integrations

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// StateTTL is how long an OAuth state (the authorisation URL) stays valid.
const StateTTL = 10 * time.Minute

// ErrInvalidState is a state that is missing, forged, used or expired.
var ErrInvalidState = errors.New("integrations: invalid OAuth state")

// State is what an OAuth authorisation round trip carries: who started it, for which
// organisation and integration, and for a reconnection the connected app.
type State struct {
	OrganizationID string      `json:"o"`
	UserID         string      `json:"u"`
	Integration    Integration `json:"i"`
	AppID          string      `json:"a,omitempty"`
	Nonce          string      `json:"n"`
	ExpiresAt      int64       `json:"e"`
}

// IssueState signs st (with a fresh nonce and expiry) into the opaque state parameter of an
// authorisation URL. Nothing is stored: the signature and expiry make it checkable, and
// ConsumeState remembers it as used.
func (s *Service) IssueState(st State) (string, time.Time) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	st.Nonce = hex.EncodeToString(b)
	exp := s.now().Add(StateTTL).Truncate(time.Second)
	st.ExpiresAt = exp.Unix()
	payload, _ := json.Marshal(st)
	p := base64.RawURLEncoding.EncodeToString(payload)
	return p + "." + s.sign(p), exp
}

// ConsumeState checks a state made by IssueState and marks it used: a second use, a forged
// or an expired state is ErrInvalidState.
func (s *Service) ConsumeState(ctx context.Context, raw string) (State, error) {
	p, sig, ok := strings.Cut(raw, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.sign(p))) {
		return State{}, ErrInvalidState
	}
	payload, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return State{}, ErrInvalidState
	}
	var st State
	if json.Unmarshal(payload, &st) != nil || st.Nonce == "" || st.OrganizationID == "" {
		return State{}, ErrInvalidState
	}
	exp := time.Unix(st.ExpiresAt, 0)
	if !s.now().Before(exp) {
		return State{}, ErrInvalidState
	}
	fresh, err := s.db.UseOAuthState(ctx, st.Nonce, exp)
	if err != nil {
		return State{}, err
	}
	if !fresh {
		return State{}, ErrInvalidState
	}
	return st, nil
}

func (s *Service) sign(payload string) string {
	m := hmac.New(sha256.New, s.stateKey)
	m.Write([]byte("betty-oauth-state\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
