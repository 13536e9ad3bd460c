package betty

import (
	"context"
	"fmt"
	"io"
	"iter"
	"net/http"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/sdk/client"
)

// Calls: every call a team's agents make or take leaves a call log (newest first), a
// transcript named by the carrier's call id, and an MP3 recording downloaded from a signed file
// URL (valid until its expiresAt).

// CallLogs walks a team's calls, newest first.
func (c *Client) CallLogs(ctx context.Context, team string) iter.Seq2[client.CallLog, error] {
	size := 100
	return All[client.CallLog](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListCallLogs(ctx, &client.ListCallLogsParams{OrganizationId: team, Page: &page, SizePerPage: &size})
	})
}

// CallBookings walks the calls shoppers asked for through the team's storefront widget,
// newest first, each with the consent given and, once placed, its call's log and status.
func (c *Client) CallBookings(ctx context.Context, team string) iter.Seq2[client.StorefrontBooking, error] {
	size := 100
	return All[client.StorefrontBooking](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListCallBookings(ctx, &client.ListCallBookingsParams{OrganizationId: team, Page: &page, SizePerPage: &size})
	})
}

// CallLog answers one call of a team.
func (c *Client) CallLog(ctx context.Context, team, id string) (client.CallLog, error) {
	return Do[client.CallLog](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetCallLog(ctx, id, &client.GetCallLogParams{OrganizationId: team})
	})
}

// CallTranscript answers what was said on a call, by its carrier id (CallLog.CallControlId);
// while the call goes on, what was said so far.
func (c *Client) CallTranscript(ctx context.Context, team, callControlID string) (client.Transcript, error) {
	return Do[client.Transcript](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetCallTranscript(ctx, callControlID, &client.GetCallTranscriptParams{OrganizationId: team})
	})
}

// CallRecording answers where a call's recording can be downloaded (a signed URL); ErrNotFound
// ("No call recording exists") when it has none.
func (c *Client) CallRecording(ctx context.Context, team, callLogID string) (client.CallRecording, error) {
	return Do[client.CallRecording](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetCallRecording(ctx, callLogID, &client.GetCallRecordingParams{OrganizationId: team})
	})
}

// DownloadRecording writes a call's MP3 recording to w and answers how many bytes it wrote.
// The signed URL carries its own authorisation: the client's credentials are not sent to it.
func (c *Client) DownloadRecording(ctx context.Context, team, callLogID string, w io.Writer) (int64, error) {
	rec, err := c.CallRecording(ctx, team, callLogID)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(anonymous(ctx), http.MethodGet, rec.Url, nil)
	if err != nil {
		return 0, fmt.Errorf("betty: recording URL %q: %w", rec.Url, err)
	}
	req.Header.Set("Accept", string(rec.MimeType))
	resp, err := c.httpClient.Do(req)
	if err != nil {
		if unreachable(err) {
			return 0, &UnreachableError{Server: req.URL.Scheme + "://" + req.URL.Host, Err: err}
		}
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, peekLimit))
		return 0, newAPIError(resp, body)
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, fmt.Errorf("betty: downloading the recording of %s: %w", callLogID, err)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return n, fmt.Errorf("betty: the recording of %s was cut short (%d of %d bytes)", callLogID, n, resp.ContentLength)
	}
	return n, nil
}

// StatsOptions choose the days CallStatistics counts.
type StatsOptions struct {
	// From and To are the first and last days counted; zero takes the server's default (the
	// last 7 days, up to today).
	From, To time.Time
	// TimeZone is the IANA time zone whose days are counted (UTC when empty).
	TimeZone string
}

// CallStatistics counts a team's calls per day, every day of the range present.
func (c *Client) CallStatistics(ctx context.Context, team string, opts StatsOptions) (client.CallStatistics, error) {
	from, to := opts.From, opts.To
	p := &client.GetCallStatisticsParams{}
	if opts.TimeZone != "" {
		p.TimeZone = &opts.TimeZone
	}
	if !from.IsZero() {
		p.StartDate = &openapi_types.Date{Time: from}
	}
	if !to.IsZero() {
		p.EndDate = &openapi_types.Date{Time: to}
	}
	return Do[client.CallStatistics](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetCallStatistics(ctx, team, p)
	})
}

// SimulatedCall is an inbound call rung by SimulateInboundCall.
type SimulatedCall struct {
	CallControlID string `json:"callControlId"`
	From          string `json:"from"`
	To            string `json:"to"`
}

// SimulateInboundCall rings one of the team's numbers (to) with the server's sim carrier,
// the caller following persona (from: "" for the default caller); Betty answers it as it
// answers real inbound calls. The call log appears within a moment, named by the answer's
// CallControlID.
func (c *Client) SimulateInboundCall(ctx context.Context, team, to, from, persona string) (SimulatedCall, error) {
	body := client.SimulateInboundCallJSONRequestBody{OrganizationId: team, To: to, Persona: persona}
	if from != "" {
		body.From = &from
	}
	return Do[SimulatedCall](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SimulateInboundCall(ctx, body)
	})
}
