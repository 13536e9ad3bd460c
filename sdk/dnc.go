package betty

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// Do-not-call: a team's list of numbers its jobs never dial. A contact whose number is on it
// ends suppressed. Anyone but a read-only member may add; only admins and the owner remove.

// DoNotCall walks a team's do-not-call list, newest first; search keeps entries whose number
// contains its digits or whose reason contains its words.
func (c *Client) DoNotCall(ctx context.Context, team, search string) iter.Seq2[client.DoNotCallEntry, error] {
	size := 100
	return All[client.DoNotCallEntry](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		p := &client.ListDoNotCallParams{OrganizationId: team, Page: &page, SizePerPage: &size}
		if search != "" {
			p.Search = &search
		}
		return api.ListDoNotCall(ctx, p)
	})
}

// DoNotCallOptions are the optional settings of an addition or an import.
type DoNotCallOptions struct {
	// Reason is recorded with the number (for an import: with rows that have no reason).
	Reason string
	// DefaultRegion is the region (like "GB") of numbers written without a country code; US
	// when empty.
	DefaultRegion string
}

// AddDoNotCall adds a number to a team's do-not-call list and answers its entry; added is
// false when the number was on the list already (the entry is then left as it was).
func (c *Client) AddDoNotCall(ctx context.Context, team, number string, opts DoNotCallOptions) (entry client.DoNotCallEntry, added bool, err error) {
	req := client.AddDoNotCallRequest{OrganizationId: team, PhoneNumber: number}
	if opts.Reason != "" {
		req.Reason = &opts.Reason
	}
	if opts.DefaultRegion != "" {
		req.DefaultRegion = &opts.DefaultRegion
	}
	status := 0
	entry, err = Do[client.DoNotCallEntry](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		resp, err := api.AddDoNotCall(ctx, req)
		if resp != nil {
			status = resp.StatusCode
		}
		return resp, err
	})
	return entry, status == http.StatusCreated, err
}

// RemoveDoNotCall removes an entry (by its id) from a team's do-not-call list.
func (c *Client) RemoveDoNotCall(ctx context.Context, team, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.RemoveDoNotCall(ctx, id, &client.RemoveDoNotCallParams{OrganizationId: team})
	})
}

// maxDoNotCallCSV is the largest CSV the server imports.
const maxDoNotCallCSV = 2 << 20

// ImportDoNotCall adds every number of a CSV (a header row, then a phone or phoneNumber
// column and an optional reason column) to a team's do-not-call list. It answers how many
// were added, how many were listed already, and the rows refused with why.
func (c *Client) ImportDoNotCall(ctx context.Context, team string, r io.Reader, opts DoNotCallOptions) (client.DoNotCallImport, error) {
	csv, err := io.ReadAll(io.LimitReader(r, maxDoNotCallCSV+1))
	if err != nil {
		return client.DoNotCallImport{}, fmt.Errorf("betty: reading the CSV: %w", err)
	}
	if len(csv) > maxDoNotCallCSV {
		return client.DoNotCallImport{}, fmt.Errorf("betty: the CSV is larger than 2 MiB, the most the server imports at once: split it")
	}
	p := &client.ImportDoNotCallParams{OrganizationId: team}
	if opts.Reason != "" {
		p.Reason = &opts.Reason
	}
	if opts.DefaultRegion != "" {
		p.DefaultRegion = &opts.DefaultRegion
	}
	return Do[client.DoNotCallImport](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ImportDoNotCallWithBody(ctx, p, "text/csv", bytes.NewReader(csv))
	})
}
