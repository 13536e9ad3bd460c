package betty

import (
	"context"
	"iter"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// Zapier: the REST-hook subscriptions a team's zaps made with its API key, and what Zapier's
// partner API shows of the team's Zapier account (templates of Betty's Zapier app, the
// connected account's zaps). docs/zapier.md describes the Zapier app a team publishes.

// ZapierHooks answers a team's REST-hook subscriptions, newest first (at most 50).
func (c *Client) ZapierHooks(ctx context.Context, team string) ([]client.ZapierHook, error) {
	return Do[[]client.ZapierHook](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListZapierHooks(ctx, &client.ListZapierHooksParams{OrganizationId: team})
	})
}

// ZapierTemplates answers the Zap templates that use Betty's Zapier app (503 on a server
// without Zapier's OAuth client).
func (c *Client) ZapierTemplates(ctx context.Context, team string) ([]client.ZapierTemplate, error) {
	return Do[[]client.ZapierTemplate](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListZapierTemplates(ctx, &client.ListZapierTemplatesParams{OrganizationId: team})
	})
}

// ZapierZaps walks the zaps of a team's connected Zapier account, most recently changed first
// (422 when the team has not connected Zapier).
func (c *Client) ZapierZaps(ctx context.Context, team string) iter.Seq2[client.ZapierZap, error] {
	limit := 100
	return All[client.ZapierZap](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListZapierZaps(ctx, &client.ListZapierZapsParams{OrganizationId: team, Page: &page, Limit: &limit})
	})
}
