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

// ErrInvalidState is a state that is missing, forged, used, expired or presented by someone
// other than its holder.
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

// Holder is who may use a state up: the organisation, the user and the integration it was
// issued for.
type Holder struct {
	OrganizationID, UserID string
	Integration            Integration
}

// ReadState checks that a state is one IssueState made (signed, unexpired) and answers it,
// without using it up: a forged or expired state is ErrInvalidState. Only ConsumeState, by the
// state's own user, makes it work once.
func (s *Service) ReadState(raw string) (State, error) {
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
	if !s.now().Before(time.Unix(st.ExpiresAt, 0)) {
		return State{}, ErrInvalidState
	}
	return st, nil
}

// ConsumeState uses up a state IssueState made for by. Whoever presents it must be its holder
// (organisation, user and integration) before it is marked used, so a state someone else
// presents (another team's member, a teammate, a stranger with the link) is ErrInvalidState
// and keeps working for its user; a forged, expired or used state is ErrInvalidState too.
func (s *Service) ConsumeState(ctx context.Context, raw string, by Holder) (State, error) {
	st, err := s.ReadState(raw)
	if err != nil {
		return State{}, err
	}
	if st.OrganizationID != by.OrganizationID || st.UserID != by.UserID || st.Integration != by.Integration {
		return State{}, ErrInvalidState
	}
	fresh, err := s.db.UseOAuthState(ctx, st.Nonce, time.Unix(st.ExpiresAt, 0))
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
