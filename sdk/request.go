package betty

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Response is the answer to Request, whole.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

// maxResponse bounds the body Request reads: the API's largest answers (a page of 500
// contacts) are far smaller.
const maxResponse = 64 << 20

// Request sends one request of any operation, for callers that build it themselves (the
// CLI's `betty api`): method, a path of the server's such as "/v1/team/list?page=2", headers
// and a body (nil for none), with the client's credentials, token renewal and retries. It
// answers the whole response; a non-2xx one is also an *APIError, answered beside it so its
// body can be shown as the server sent it. Only paths of the client's server are sent to:
// credentials never go to another host.
func (c *Client) Request(ctx context.Context, method, path string, header http.Header, body []byte) (*Response, error) {
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
		return nil, fmt.Errorf("betty: request path %q: want a path of the server, starting with one /", path)
	}
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.server+path, r)
	if err != nil {
		return nil, fmt.Errorf("betty: %s %s: %w", method, path, err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		if unreachable(err) {
			return nil, &UnreachableError{Server: c.server, Err: err}
		}
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("betty: %s %s: reading the answer: %w", method, path, err)
	case len(raw) > maxResponse:
		return nil, fmt.Errorf("betty: %s %s: the answer is over %d bytes", method, path, maxResponse)
	}
	out := &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: raw}
	if !isSuccess(resp.StatusCode) {
		return out, newAPIError(resp, raw)
	}
	return out, nil
}
