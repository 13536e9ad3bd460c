package betty

import (
	"context"
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
