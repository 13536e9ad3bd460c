package betty

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// SignIn opens a session with an e-mail and password. The client keeps the new tokens (they
// replace an API key) and hands them to the token saver. Wrong credentials are a 401
// *APIError with code invalid_credentials.
func (c *Client) SignIn(ctx context.Context, email, password string) (client.Session, error) {
	s, err := Do[client.Session](anonymous(ctx), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SignIn(ctx, client.SignInJSONRequestBody{Email: client.Email(email), Password: password})
	})
	if err != nil {
		return client.Session{}, err
	}
	c.setTokens(s.AccessToken, s.RefreshToken)
	return s, nil
}

// SignUp creates an account. When the server does not require the e-mail address to be
// confirmed first, the result carries a session, which the client keeps (it replaces an API
// key) and hands to the token saver, as SignIn does. Otherwise EmailConfirmationRequired is
// true and there is no session: the person confirms the address from the e-mailed link, then
// signs in. An address that already has an account is a 409 *APIError (ErrConflict).
func (c *Client) SignUp(ctx context.Context, req client.SignUpRequest) (client.SignUpResult, error) {
	r, err := Do[client.SignUpResult](anonymous(ctx), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SignUp(ctx, req)
	})
	if err != nil {
		return client.SignUpResult{}, err
	}
	if r.Session != nil {
		c.setTokens(r.Session.AccessToken, r.Session.RefreshToken)
	}
	return r, nil
}

// ServerInfo tells what the server does, without signing in: its version and whether it
// delivers e-mail (MailDelivery smtp) or only keeps it in its outbox and log (outbox).
func (c *Client) ServerInfo(ctx context.Context) (client.ServerInfo, error) {
	return Do[client.ServerInfo](anonymous(ctx), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetServerInfo(ctx)
	})
}

// SignOut revokes the client's session on the server and forgets its tokens. The token saver
// is not called; a caller that persisted tokens removes them itself. On failure the tokens
// are kept so the call can be repeated.
func (c *Client) SignOut(ctx context.Context) error {
	err := NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SignOut(ctx)
	})
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.access, c.refresh = "", ""
	c.mu.Unlock()
	return nil
}

// Me returns the signed-in user. API-key clients get a 403 *APIError: keys act for an
// organisation, not a person.
func (c *Client) Me(ctx context.Context) (client.User, error) {
	return Do[client.User](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetCurrentUser(ctx)
	})
}

// KeyTeam answers the team an API-key client acts for, with MyRole the key's role (an API key
// belongs to one team). A client signed in as a person gets an error: a person may be in many
// teams, which listTeams lists.
func (c *Client) KeyTeam(ctx context.Context) (client.Organization, error) {
	c.mu.Lock()
	key := c.apiKey
	c.mu.Unlock()
	if key == "" {
		return client.Organization{}, errors.New("betty: KeyTeam needs a client with an API key")
	}
	// With an API key the list of teams holds the key's own team only.
	p, err := DoPage[client.Organization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListTeams(ctx, &client.ListTeamsParams{})
	})
	if err != nil {
		return client.Organization{}, err
	}
	if len(p.Items) != 1 {
		return client.Organization{}, fmt.Errorf("betty: the server answered %d teams for an API key, want its one", len(p.Items))
	}
	return p.Items[0], nil
}
