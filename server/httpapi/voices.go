package httpapi

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/voices"
)

// Voices answers the Voice tag: the speech engine's presets and their samples, and the team's
// custom voice profiles. Each handler binds, calls the voices domain and renders.
type Voices struct {
	svc     *voices.Service
	baseURL string
}

// presetPageSize is the default page of presets (a 3x3 grid, spec section 9).
const presetPageSize = 9

func init() {
	// Samples are served as audio/mpeg; the contract's checks read them as files.
	openapi3filter.RegisterBodyDecoder("audio/mpeg", openapi3filter.FileBodyDecoder)
}

// ListVoicePresets lists a page of the engine's presets in their curated order.
func (h *Voices) ListVoicePresets(ctx context.Context, req api.ListVoicePresetsRequestObject) (api.ListVoicePresetsResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, presetPageSize), func(limit, offset int) ([]speech.Voice, int, error) {
		return h.svc.Presets(ctx, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	listed, err := h.svc.PresetsListedAt(ctx)
	if err != nil {
		return nil, err
	}
	return api.ListVoicePresets200JSONResponse{Status: http.StatusOK, Meta: meta, Data: mapped(items, func(v speech.Voice) api.Voice {
		return renderPreset(v, h.sampleURL(v.ID), listed)
	})}, nil
}

// GetVoicePresetSample answers a preset's MP3 sample, which anyone may cache for a day.
func (h *Voices) GetVoicePresetSample(ctx context.Context, req api.GetVoicePresetSampleRequestObject) (api.GetVoicePresetSampleResponseObject, error) {
	mp3, err := h.svc.PresetSample(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetVoicePresetSample200AudiompegResponse{Body: bytes.NewReader(mp3), ContentLength: int64(len(mp3)),
		Headers: api.GetVoicePresetSample200ResponseHeaders{CacheControl: "public, max-age=86400"}}, nil
}

// ListVoiceProfiles lists a page of the team's custom voices, newest first.
func (h *Voices) ListVoiceProfiles(ctx context.Context, req api.ListVoiceProfilesRequestObject) (api.ListVoiceProfilesResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, teamPageSize), func(limit, offset int) ([]voices.Profile, int, error) {
		return h.svc.Profiles(ctx, actor(ctx), limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return api.ListVoiceProfiles200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderVoiceProfile), Meta: meta}, nil
}

// CreateVoiceProfile makes a custom voice.
func (h *Voices) CreateVoiceProfile(ctx context.Context, req api.CreateVoiceProfileRequestObject) (api.CreateVoiceProfileResponseObject, error) {
	b := req.Body
	gender := speech.Gender(b.Gender)
	p, err := h.svc.Create(ctx, actor(ctx), voices.Input{Name: &b.Name, Gender: &gender, Description: b.Description,
		Language: b.Language, AudioURLs: b.AudioUrls})
	if err != nil {
		return nil, err
	}
	return api.CreateVoiceProfile201JSONResponse{Status: http.StatusCreated, Data: renderVoiceProfile(p)}, nil
}

// UpdateVoiceProfile changes the fields sent of a custom voice.
func (h *Voices) UpdateVoiceProfile(ctx context.Context, req api.UpdateVoiceProfileRequestObject) (api.UpdateVoiceProfileResponseObject, error) {
	b := req.Body
	in := voices.Input{Name: b.Name, Description: b.Description, Language: b.Language}
	if b.Gender != nil {
		g := speech.Gender(*b.Gender)
		in.Gender = &g
	}
	if b.AudioUrls != nil {
		in.AudioURLs = *b.AudioUrls
	}
	p, err := h.svc.Update(ctx, actor(ctx), req.Id, in)
	if err != nil {
		return nil, err
	}
	return api.UpdateVoiceProfile200JSONResponse{Status: http.StatusOK, Data: renderVoiceProfile(p)}, nil
}

// DeleteVoiceProfile deletes a custom voice.
func (h *Voices) DeleteVoiceProfile(ctx context.Context, req api.DeleteVoiceProfileRequestObject) (api.DeleteVoiceProfileResponseObject, error) {
	if err := h.svc.Delete(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.DeleteVoiceProfile200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// sampleURL is where a preset's sample is served.
func (h *Voices) sampleURL(id string) string {
	return strings.TrimRight(h.baseURL, "/") + "/v1/voice/presets/" + url.PathEscape(id) + "/sample"
}

func renderPreset(v speech.Voice, sampleURL string, listed time.Time) api.Voice {
	return api.Voice{Id: v.ID, Name: v.Name, Gender: api.VoiceGender(v.Gender), Description: v.Description, Language: v.Language,
		Engine: api.SpeechEngine(v.Engine), PreviewUrl: &sampleURL, Kind: api.Preset, Status: api.VoiceStatusApproved, CreatedAt: listed, UpdatedAt: listed}
}

func renderVoiceProfile(p voices.Profile) api.VoiceProfile {
	out := api.VoiceProfile{Id: p.ID, OrganizationId: p.OrganizationID, Name: p.Name, Gender: api.VoiceGender(p.Gender),
		Description: p.Description, Language: p.Language, AudioUrls: p.SampleURLs, Kind: api.Custom, Status: api.VoiceStatus(p.Status),
		Note: p.Note, RejectionReason: p.RejectionReason, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
	if out.AudioUrls == nil {
		out.AudioUrls = []string{}
	}
	if p.Speaks != nil {
		id, engine := p.Speaks.ID, api.SpeechEngine(p.Speaks.Engine)
		out.EngineVoice, out.Engine = &id, &engine
	}
	return out
}
