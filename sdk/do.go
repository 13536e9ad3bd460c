package betty

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// envelope is the body of every successful JSON answer.
type envelope struct {
	Status int              `json:"status"`
	Data   json.RawMessage  `json:"data"`
	Meta   *client.PageMeta `json:"meta"`
}

// Do performs one call of the generated client and decodes the `data` of its 2xx envelope
// into T. Any other answer becomes an *APIError.
func Do[T any](ctx context.Context, c *Client, call func(ctx context.Context, api *client.Client) (*http.Response, error)) (T, error) {
	var out T
	env, err := send(ctx, c, call, false)
	if err != nil {
		return out, err
	}
	if err := decodeData(env, &out); err != nil {
		return out, err
	}
	return out, nil
}

// NoContent performs a call whose answer the caller does not need: any 2xx, including 204
// with no body, is success; anything else becomes an *APIError.
func NoContent(ctx context.Context, c *Client, call func(ctx context.Context, api *client.Client) (*http.Response, error)) error {
	_, err := send(ctx, c, call, true)
	return err
}

// Page is one page of a list: its items and the window it covers.
type Page[T any] struct {
	Items []T
	Meta  client.PageMeta
}

// DoPage performs one call of a paginated list and decodes its items and `meta`.
func DoPage[T any](ctx context.Context, c *Client, call func(ctx context.Context, api *client.Client) (*http.Response, error)) (Page[T], error) {
	var p Page[T]
	env, err := send(ctx, c, call, false)
	if err != nil {
		return p, err
	}
	return p, decodePage(env, &p)
}

// decodePage decodes a list answer's items and `meta` into p.
func decodePage[T any](a *answer, p *Page[T]) error {
	if err := decodeData(a, &p.Items); err != nil {
		return err
	}
	if a.Meta == nil {
		return fmt.Errorf("betty: %s: the answer has no pagination meta", a.what)
	}
	p.Meta = *a.Meta
	return nil
}

// All walks a paginated list, asking for page 1, 2, … until meta.hasNext is false, and yields
// each item. The first error is yielded as (zero, err) and ends the walk; so does a consumer
// that stops ranging. call receives the page to ask for:
//
//	for m, err := range betty.All[client.TeamMember](ctx, bc, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
//		return api.ListTeamMembers(ctx, &client.ListTeamMembersParams{OrganizationId: org, Page: &page})
//	}) { … }
func All[T any](ctx context.Context, c *Client, call func(ctx context.Context, api *client.Client, page int) (*http.Response, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for page := 1; ; page++ {
			p, err := DoPage[T](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
				return call(ctx, api, page)
			})
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range p.Items {
				if !yield(item, nil) {
					return
				}
			}
			// A server that clamps an out-of-range page answers an earlier one; stop there
			// rather than walk the last page forever.
			if !p.Meta.HasNext || p.Meta.Page < page {
				return
			}
		}
	}
}

// answer is a decoded 2xx envelope.
type answer struct {
	envelope
	what string // "GET /v1/…", for messages
	body []byte // the whole answer, for the fields some answers have beside data and meta
}

// send runs fn, reads the whole answer and turns a non-2xx one into an *APIError. With
// allowEmpty, a 2xx answer is not decoded and may have no body.
func send(ctx context.Context, c *Client, fn func(ctx context.Context, api *client.Client) (*http.Response, error), allowEmpty bool) (*answer, error) {
	if fn == nil {
		return nil, errors.New("betty: nil call")
	}
	resp, err := fn(ctx, c.api)
	if err != nil {
		if unreachable(err) {
			return nil, &UnreachableError{Server: c.server, Err: err}
		}
		return nil, err
	}
	if resp == nil {
		return nil, errors.New("betty: call returned no response")
	}
	defer resp.Body.Close()

	what := "response"
	if resp.Request != nil && resp.Request.URL != nil {
		what = resp.Request.Method + " " + resp.Request.URL.Path
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("betty: %s: reading the answer: %w", what, err)
	}
	if !isSuccess(resp.StatusCode) {
		return nil, newAPIError(resp, body)
	}

	a := &answer{what: what, body: body}
	if allowEmpty {
		return a, nil
	}
	if len(body) == 0 {
		return nil, fmt.Errorf("betty: %s: HTTP %d with no body, want an envelope", what, resp.StatusCode)
	}
	if err := json.Unmarshal(body, &a.envelope); err != nil {
		return nil, fmt.Errorf("betty: %s: decoding the envelope: %w", what, err)
	}
	return a, nil
}

func decodeData(a *answer, into any) error {
	if len(a.Data) == 0 {
		return fmt.Errorf("betty: %s: the envelope has no data", a.what)
	}
	if err := json.Unmarshal(a.Data, into); err != nil {
		return fmt.Errorf("betty: %s: decoding data: %w", a.what, err)
	}
	return nil
}

func isSuccess(code int) bool { return code >= 200 && code <= 299 }
