package betty

import (
	"context"
	"fmt"
	"io"
)

// maxSample bounds a voice sample read by VoicePresetSample (they are a few seconds long).
const maxSample = 16 << 20

// VoicePresetSample downloads the MP3 sample of a voice preset (GET
// /v1/voice/presets/{id}/sample), the Voice operation whose answer is audio rather than an
// envelope: the previewUrl of each preset of GET /v1/voice/presets/list. Errors are as for Do
// (an unknown preset matches ErrNotFound; a server whose speech engine is missing answers 503,
// ErrServer).
func (c *Client) VoicePresetSample(ctx context.Context, id string) ([]byte, error) {
	resp, err := c.api.GetVoicePresetSample(ctx, id)
	if err != nil {
		if unreachable(err) {
			return nil, &UnreachableError{Server: c.server, Err: err}
		}
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSample+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("betty: GET voice preset sample: reading the answer: %w", err)
	case !isSuccess(resp.StatusCode):
		return nil, newAPIError(resp, body)
	case len(body) > maxSample:
		return nil, fmt.Errorf("betty: GET voice preset sample: more than %d bytes", maxSample)
	case resp.Header.Get("Content-Type") != "audio/mpeg":
		return nil, fmt.Errorf("betty: GET voice preset sample: answered %q, want audio/mpeg", resp.Header.Get("Content-Type"))
	}
	return body, nil
}
