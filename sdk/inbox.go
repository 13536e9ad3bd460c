package betty

import (
	"context"
	"iter"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// Inbox: the outcome of every finished call is filed as an inbox item (title, summary,
// priority, visibility). Items are private to the team unless made public, when anyone with
// the link can read them.

// InboxOrder sorts an inbox listing: by a column, descending unless Ascending. The zero value
// is newest first.
type InboxOrder struct {
	SortBy    client.InboxSortBy
	Ascending bool
}

func (o InboxOrder) params() (*client.InboxSortBy, *bool) {
	var by *client.InboxSortBy
	if o.SortBy != "" {
		s := o.SortBy
		by = &s
	}
	var asc *bool
	if o.Ascending {
		a := true
		asc = &a
	}
	return by, asc
}

// InboxItems walks a team's inbox items (deleted ones left out).
func (c *Client) InboxItems(ctx context.Context, team string, order InboxOrder) iter.Seq2[client.InboxItem, error] {
	size := 100
	by, asc := order.params()
	return All[client.InboxItem](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListInboxItems(ctx, &client.ListInboxItemsParams{OrganizationId: team, Page: &page, SizePerPage: &size, SortBy: by, Ascending: asc})
	})
}

// SearchInbox walks a team's inbox items whose title or summary contains query.
func (c *Client) SearchInbox(ctx context.Context, team, query string, order InboxOrder) iter.Seq2[client.InboxItem, error] {
	size := 100
	by, asc := order.params()
	return All[client.InboxItem](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.SearchInboxItems(ctx, &client.SearchInboxItemsParams{OrganizationId: team, Query: query, Page: &page, SizePerPage: &size, SortBy: by, Ascending: asc})
	})
}

// InboxItem answers one inbox item of a team, deleted or not.
func (c *Client) InboxItem(ctx context.Context, team, id string) (client.InboxItem, error) {
	return Do[client.InboxItem](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetInboxItem(ctx, id, &client.GetInboxItemParams{OrganizationId: team})
	})
}

// InboxUpdate is a change of an inbox item; nil fields keep their value.
type InboxUpdate struct {
	Priority   *int
	Visibility *client.InboxVisibility
}

// UpdateInboxItem changes an item's priority and/or visibility and answers it.
func (c *Client) UpdateInboxItem(ctx context.Context, team, id string, u InboxUpdate) (client.InboxItem, error) {
	req := client.UpdateInboxItemRequest{OrganizationId: team, Priority: u.Priority, Visibility: u.Visibility}
	return Do[client.InboxItem](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateInboxItem(ctx, id, req)
	})
}

// DeleteInboxItem deletes an inbox item (it keeps its call log).
func (c *Client) DeleteInboxItem(ctx context.Context, team, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteInboxItem(ctx, id, &client.DeleteInboxItemParams{OrganizationId: team})
	})
}
