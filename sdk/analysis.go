package betty

import (
	"context"
	"fmt"
	"io"
	"mime"
	"path/filepath"
	"strings"
)

// JobCalls streams, as CSV, the calls a workflow run placed with their analysis (GET
// /v1/workflow/job/{id}/calls.csv): one row per call, the workflow's post-call fields as
// columns. It answers the body, to read to its end and close, and the file name the server
// suggests. Errors are as for Do (a job of another team, or none, matches ErrNotFound).
func (c *Client) JobCalls(ctx context.Context, jobID string) (io.ReadCloser, string, error) {
	resp, err := c.api.ExportJobCalls(ctx, jobID)
	if err != nil {
		if unreachable(err) {
			return nil, "", &UnreachableError{Server: c.server, Err: err}
		}
		return nil, "", err
	}
	if !isSuccess(resp.StatusCode) {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return nil, "", newAPIError(resp, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		resp.Body.Close()
		return nil, "", fmt.Errorf("betty: GET job calls: answered %q, want text/csv", ct)
	}
	name := "calls.csv"
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		name = filepath.Base(params["filename"])
	}
	return resp.Body, name, nil
}
