// Package integrations is what Betty keeps of an organisation's connections to other services
// (issue 13): the connected apps (one per provider account), their OAuth credentials sealed at
// rest and refreshed before they expire, and the signed single-use OAuth states of the
// authorisation round trip. The providers themselves (HubSpot, Zapier) live in sub-packages
// and plug in as a Provider; nothing here speaks to the network.
//
// A credential never leaves the server: the API answers connected apps without tokens, and
// only a provider adapter asks for an access token (AccessToken), just before it calls.
package integrations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// Integration names a provider.
type Integration string

// The integrations Betty has.
const (
	HubSpot Integration = "hubspot"
	Zapier  Integration = "zapier"
)

// App is a connected app.
type App = store.ConnectedApp

// RefreshMargin is how long before its expiry an access token is refreshed.
const RefreshMargin = 5 * time.Minute

// Tokens is an OAuth credential.
type Tokens struct {
	AccessToken  string    `json:"accessToken"`
	RefreshToken string    `json:"refreshToken,omitempty"`
	ExpiresAt    time.Time `json:"expiresAt"`
	Scopes       []string  `json:"scopes,omitempty"`
}

// Provider is what a provider adapter offers the core: refreshing and revoking its tokens.
type Provider interface {
	// Refresh exchanges a refresh token for a new credential.
	Refresh(ctx context.Context, refreshToken string) (Tokens, error)
	// Revoke tells the provider the credential is no longer used (best effort).
	Revoke(ctx context.Context, t Tokens) error
}

// ErrAccountMismatch is a reconnection approved for another provider account than the app's.
var ErrAccountMismatch = errors.New("integrations: the approved account is not the connected app's")

// Service keeps connected apps and their credentials.
type Service struct {
	db        *store.DB
	sealer    *Sealer
	stateKey  []byte
	log       *slog.Logger
	now       func() time.Time
	mu        sync.RWMutex
	providers map[Integration]Provider
	// refreshing serialises refreshes of one credential within this process.
	refreshing sync.Map
}

// New builds the service. key seals credentials and signs OAuth states (32 bytes).
func New(db *store.DB, key []byte, log *slog.Logger) (*Service, error) {
	sealer, err := NewSealer(key)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	// The state key is derived so a sealed credential and a state never share a key's use.
	stateKey := append([]byte("oauth-state:"), key...)
	return &Service{db: db, sealer: sealer, stateKey: stateKey, log: log, now: time.Now, providers: map[Integration]Provider{}}, nil
}

// Register plugs a provider's adapter in (at start-up).
func (s *Service) Register(i Integration, p Provider) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.providers[i] = p
}

func (s *Service) provider(i Integration) Provider {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.providers[i]
}

// List answers every connected app of the organisation, newest first.
func (s *Service) List(ctx context.Context, orgID string) ([]App, error) {
	return s.db.ConnectedApps(ctx, orgID)
}

// Get answers the organisation's connected app id (404 otherwise).
func (s *Service) Get(ctx context.Context, orgID, id string) (App, error) {
	a, err := s.db.ConnectedAppByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return App{}, errs.NotFoundf("Connected app")
	}
	return a, err
}

// GetOf answers the organisation's connected app id of integration i: 404 when it has none,
// 422 when the app is of another integration.
func (s *Service) GetOf(ctx context.Context, orgID, id string, i Integration) (App, error) {
	a, err := s.Get(ctx, orgID, id)
	if err != nil {
		return App{}, err
	}
	if Integration(a.Integration) != i {
		return App{}, errs.InvalidField("id", fmt.Sprintf("The connected app is a %s app, not a %s one.", a.Integration, i))
	}
	return a, nil
}

// Connected answers the organisation's connected app id of integration i when it is
// connected: 404, 422 for another integration, and 422 "… is disconnected" otherwise.
func (s *Service) Connected(ctx context.Context, orgID, id string, i Integration, field string) (App, error) {
	a, err := s.Get(ctx, orgID, id)
	if err != nil {
		return App{}, err
	}
	if Integration(a.Integration) != i {
		return App{}, errs.InvalidField(field, fmt.Sprintf("The connected app is a %s app, not a %s one.", a.Integration, i))
	}
	if a.Status != store.AppConnected {
		return App{}, errs.WithCode(errs.Unprocessable, "app_disconnected",
			fmt.Sprintf("The %s connection %q is disconnected: reconnect it first.", i, a.Name))
	}
	return a, nil
}

// Connection is an approved authorisation to store.
type Connection struct {
	OrganizationID string
	Integration    Integration
	// AppID is the connected app a reconnection updates; empty to connect (a provider
	// account the organisation has connected already is then reconnected).
	AppID string
	// AccountID is the provider's account id (HubSpot portal, Zapier account); Name its label.
	AccountID string
	Name      string
	Tokens    Tokens
	// UserID is who approved it.
	UserID string
}

// Save stores an approved authorisation: a new connected app, or (same account, or AppID)
// the existing one connected again with a new credential. A reconnection approved for
// another account is ErrAccountMismatch and changes nothing.
func (s *Service) Save(ctx context.Context, c Connection) (App, error) {
	var out App
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		var existing *App
		switch {
		case c.AppID != "":
			a, err := s.GetOf(ctx, c.OrganizationID, c.AppID, c.Integration)
			if err != nil {
				return err
			}
			if a.AccountID != nil && *a.AccountID != "" && c.AccountID != "" && *a.AccountID != c.AccountID {
				return ErrAccountMismatch
			}
			existing = &a
		case c.AccountID != "":
			a, err := s.db.ConnectedAppOfAccount(ctx, c.OrganizationID, string(c.Integration), c.AccountID)
			if err == nil {
				existing = &a
			} else if !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		connID := store.NewID()
		a := App{OrganizationID: c.OrganizationID, Integration: string(c.Integration)}
		if existing != nil {
			a = *existing
		}
		a.Status, a.Name, a.ConnectionID = store.AppConnected, c.Name, &connID
		if c.AccountID != "" {
			a.AccountID = &c.AccountID
		}
		if existing == nil {
			a.CreatedBy = nilIfEmpty(c.UserID)
			// The id seals the credential, so the row is made first without one.
			if err := s.db.CreateConnectedApp(ctx, &a); err != nil {
				return err
			}
		}
		if err := s.seal(&a, c.Tokens); err != nil {
			return err
		}
		if err := s.db.UpdateConnectedApp(ctx, &a); err != nil {
			return err
		}
		out = a
		return nil
	})
	return out, err
}

// Disconnect revokes the connected app's credential at its provider (best effort), deletes
// it and marks the app disconnected. Of integration only when only is set (422 otherwise).
// Disconnecting a disconnected app answers it as it is.
func (s *Service) Disconnect(ctx context.Context, orgID, id string, only Integration) (App, error) {
	var a App
	var err error
	if only != "" {
		a, err = s.GetOf(ctx, orgID, id, only)
	} else {
		a, err = s.Get(ctx, orgID, id)
	}
	if err != nil || a.Status == store.AppDisconnected {
		return a, err
	}
	if t, err := s.open(a); err == nil {
		if p := s.provider(Integration(a.Integration)); p != nil {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			if err := p.Revoke(rctx, t); err != nil {
				s.log.WarnContext(ctx, "integrations: revoking the credential failed; it is deleted here anyway",
					"app", a.ID, "integration", a.Integration, "err", err)
			}
			cancel()
		}
	}
	a.Status, a.ConnectionID, a.SealedTokens, a.TokenExpiresAt = store.AppDisconnected, nil, nil, nil
	return a, s.db.UpdateConnectedApp(ctx, &a)
}

// MarkDisconnected marks the app disconnected without asking its provider (the provider said
// the credential is gone: an uninstall, a refresh refused).
func (s *Service) MarkDisconnected(ctx context.Context, a App) error {
	a.Status, a.ConnectionID, a.SealedTokens, a.TokenExpiresAt = store.AppDisconnected, nil, nil, nil
	return s.db.UpdateConnectedApp(ctx, &a)
}

// AppsOfAccount lists every organisation's connected app of a provider account.
func (s *Service) AppsOfAccount(ctx context.Context, i Integration, accountID string) ([]App, error) {
	return s.db.ConnectedAppsOfAccount(ctx, string(i), accountID)
}

// AppsOf lists the organisation's connected apps of one integration, newest first.
func (s *Service) AppsOf(ctx context.Context, orgID string, i Integration) ([]App, error) {
	return s.db.ConnectedAppsOfIntegration(ctx, orgID, string(i))
}

// ErrRefreshRefused is a refresh the provider refused: the app is now disconnected.
var ErrRefreshRefused = errors.New("integrations: the provider refused to refresh the credential")

// AccessToken answers a valid access token of a connected app, refreshing the credential
// through its provider when it expires within RefreshMargin. A provider that refuses the
// refresh (wrapping ErrRefreshRefused) disconnects the app; any other failure is answered
// as is (the next call tries again).
func (s *Service) AccessToken(ctx context.Context, a App) (string, error) {
	return s.accessToken(ctx, a, "")
}

// RenewAccessToken answers a new access token of a connected app after its provider refused
// the access token `refused` before its time (revoked early, or the provider's clock ahead of
// ours): the credential is refreshed now unless another caller renewed it meanwhile. A
// refresh the provider refuses disconnects the app, as in AccessToken.
func (s *Service) RenewAccessToken(ctx context.Context, a App, refused string) (string, error) {
	return s.accessToken(ctx, a, refused)
}

// accessToken is AccessToken; with refused, a token equal to it is not answered.
func (s *Service) accessToken(ctx context.Context, a App, refused string) (string, error) {
	if a.Status != store.AppConnected || a.SealedTokens == nil || a.ConnectionID == nil {
		return "", errs.WithCode(errs.Unprocessable, "app_disconnected",
			fmt.Sprintf("The %s connection %q is disconnected: reconnect it first.", a.Integration, a.Name))
	}
	t, err := s.open(a)
	if err != nil {
		return "", err
	}
	valid := func(t Tokens) bool {
		return t.AccessToken != refused && (t.ExpiresAt.IsZero() || s.now().Add(RefreshMargin).Before(t.ExpiresAt))
	}
	if t.RefreshToken == "" || valid(t) {
		return t.AccessToken, nil
	}
	// One refresh per credential at a time in this process; the others use its result.
	lock, _ := s.refreshing.LoadOrStore(*a.ConnectionID, &sync.Mutex{})
	mu := lock.(*sync.Mutex)
	mu.Lock()
	defer mu.Unlock()
	if fresh, err := s.db.ConnectedAppByID(ctx, a.OrganizationID, a.ID); err == nil && fresh.SealedTokens != nil &&
		fresh.ConnectionID != nil && *fresh.ConnectionID == *a.ConnectionID {
		if ft, err := s.open(fresh); err == nil && valid(ft) {
			return ft.AccessToken, nil
		}
	}
	p := s.provider(Integration(a.Integration))
	if p == nil {
		return t.AccessToken, nil
	}
	nt, err := p.Refresh(ctx, t.RefreshToken)
	if errors.Is(err, ErrRefreshRefused) {
		s.log.WarnContext(ctx, "integrations: refresh refused; the app is disconnected", "app", a.ID, "err", err)
		if derr := s.MarkDisconnected(ctx, a); derr != nil {
			return "", derr
		}
		return "", errs.WithCode(errs.Unprocessable, "app_disconnected",
			fmt.Sprintf("The %s connection %q was revoked: reconnect it.", a.Integration, a.Name))
	}
	if err != nil {
		return "", fmt.Errorf("integrations: refreshing %s credential: %w", a.Integration, err)
	}
	if nt.RefreshToken == "" {
		nt.RefreshToken = t.RefreshToken
	}
	b, _ := json.Marshal(nt)
	if _, err := s.db.ReplaceConnectedAppTokens(ctx, a.OrganizationID, a.ID, *a.ConnectionID, s.sealer.Seal(a.ID, b), nt.ExpiresAt); err != nil {
		return "", err
	}
	return nt.AccessToken, nil
}

// Tokens answers the app's whole credential (for a provider adapter that needs more than the
// access token, such as revoking).
func (s *Service) Tokens(a App) (Tokens, error) { return s.open(a) }

func (s *Service) seal(a *App, t Tokens) error {
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	sealed := s.sealer.Seal(a.ID, b)
	a.SealedTokens = &sealed
	if !t.ExpiresAt.IsZero() {
		exp := t.ExpiresAt.UTC()
		a.TokenExpiresAt = &exp
	} else {
		a.TokenExpiresAt = nil
	}
	return nil
}

func (s *Service) open(a App) (Tokens, error) {
	if a.SealedTokens == nil {
		return Tokens{}, errors.New("integrations: no credential")
	}
	b, err := s.sealer.Open(a.ID, *a.SealedTokens)
	if err != nil {
		return Tokens{}, err
	}
	var t Tokens
	return t, json.Unmarshal(b, &t)
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Missing answers the settings (flag → value) left empty, sorted: what an operator must set
// before an integration's OAuth app works. The dashboard shows them beside an unavailable
// Connect, so a team is never sent into a flow that answers 501 or 503.
func Missing(settings map[string]string) []string {
	missing := []string{}
	for flag, v := range settings {
		if v == "" {
			missing = append(missing, flag)
		}
	}
	slices.Sort(missing)
	return missing
}
