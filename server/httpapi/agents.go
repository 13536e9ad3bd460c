package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/agents"
	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/store"
)

// Agents answers the Agents tag.
type Agents struct{ svc *agents.Service }

const agentPageSize = 10

// agentInput binds the fields create and update share.
func agentInput(name, greeting, instructions, language *string, voiceID, presetID, campaignID *string, files *[]api.AgentKnowledgeFileInput) agents.Input {
	in := agents.Input{Name: name, Greeting: greeting, Instructions: instructions, Language: language,
		VoiceID: voiceID, VoicePresetID: presetID, CampaignID: campaignID}
	if files != nil {
		in.KnowledgeFiles = mapped(*files, func(f api.AgentKnowledgeFileInput) string { return f.FileUrl })
	}
	return in
}

// CreateAgent creates an agent profile.
func (h *Agents) CreateAgent(ctx context.Context, req api.CreateAgentRequestObject) (api.CreateAgentResponseObject, error) {
	b := req.Body
	in := agentInput(&b.Name, b.Greeting, b.Instructions, b.Language, b.VoiceId, b.VoicePresetId, b.CampaignId, b.KnowledgeFiles)
	in.KnowledgeBaseID = b.KnowledgeBaseId
	if b.Status != nil {
		s := store.AgentStatus(*b.Status)
		in.Status = &s
	}
	if b.Faq != nil {
		in.FAQ = *b.Faq
	}
	ag, err := h.svc.Create(ctx, actor(ctx), in)
	if err != nil {
		return nil, err
	}
	return api.CreateAgent201JSONResponse{Status: http.StatusCreated, Data: renderAgent(ag)}, nil
}

// DuplicateAgent copies an agent profile.
func (h *Agents) DuplicateAgent(ctx context.Context, req api.DuplicateAgentRequestObject) (api.DuplicateAgentResponseObject, error) {
	ag, err := h.svc.Duplicate(ctx, actor(ctx), req.Body.Id, req.Body.Name)
	if err != nil {
		return nil, err
	}
	return api.DuplicateAgent201JSONResponse{Status: http.StatusCreated, Data: renderAgent(ag)}, nil
}

// DeleteAgent deletes an agent profile.
func (h *Agents) DeleteAgent(ctx context.Context, req api.DeleteAgentRequestObject) (api.DeleteAgentResponseObject, error) {
	if err := h.svc.Delete(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.DeleteAgent200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// UpdateAgent changes the fields sent.
func (h *Agents) UpdateAgent(ctx context.Context, req api.UpdateAgentRequestObject) (api.UpdateAgentResponseObject, error) {
	b := req.Body
	in := agentInput(b.Name, b.Greeting, b.Instructions, b.Language, b.VoiceId, b.VoicePresetId, b.CampaignId, b.KnowledgeFiles)
	if b.KnowledgeBaseId.IsSpecified() {
		id := "" // null removes it
		if v, err := b.KnowledgeBaseId.Get(); err == nil {
			id = v
		}
		in.KnowledgeBaseID = &id
	}
	ag, err := h.svc.Update(ctx, actor(ctx), req.Id, in)
	if err != nil {
		return nil, err
	}
	return api.UpdateAgent200JSONResponse{Status: http.StatusOK, Data: renderAgent(ag)}, nil
}

// GetAgent answers an agent profile.
func (h *Agents) GetAgent(ctx context.Context, req api.GetAgentRequestObject) (api.GetAgentResponseObject, error) {
	ag, err := h.svc.Get(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetAgent200JSONResponse{Status: http.StatusOK, Data: renderAgent(ag)}, nil
}

// ListAgents lists a team's agent profiles.
func (h *Agents) ListAgents(ctx context.Context, req api.ListAgentsRequestObject) (api.ListAgentsResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, agentPageSize), func(limit, offset int) ([]agents.Agent, int, error) {
		return h.svc.List(ctx, actor(ctx), agents.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListAgents200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderAgent), Meta: meta}, nil
}

// ListCampaignAgents lists a campaign's agent profiles, the active one first.
func (h *Agents) ListCampaignAgents(ctx context.Context, req api.ListCampaignAgentsRequestObject) (api.ListCampaignAgentsResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, agentPageSize), func(limit, offset int) ([]agents.Agent, int, error) {
		return h.svc.CampaignAgents(ctx, actor(ctx), req.CampaignId, agents.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListCampaignAgents200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderAgent), Meta: meta}, nil
}

// ActivateAgent makes an agent its campaign's only active one.
func (h *Agents) ActivateAgent(ctx context.Context, req api.ActivateAgentRequestObject) (api.ActivateAgentResponseObject, error) {
	ag, err := h.svc.SetStatus(ctx, actor(ctx), req.Id, store.AgentActive)
	if err != nil {
		return nil, err
	}
	return api.ActivateAgent200JSONResponse{Status: http.StatusOK, Data: renderAgent(ag)}, nil
}

// DeactivateAgent makes an agent inactive.
func (h *Agents) DeactivateAgent(ctx context.Context, req api.DeactivateAgentRequestObject) (api.DeactivateAgentResponseObject, error) {
	ag, err := h.svc.SetStatus(ctx, actor(ctx), req.Id, store.AgentInactive)
	if err != nil {
		return nil, err
	}
	return api.DeactivateAgent200JSONResponse{Status: http.StatusOK, Data: renderAgent(ag)}, nil
}

// UpdateAgentFaq merges (or replaces) an agent's FAQ.
func (h *Agents) UpdateAgentFaq(ctx context.Context, req api.UpdateAgentFaqRequestObject) (api.UpdateAgentFaqResponseObject, error) {
	ag, err := h.svc.SetFAQ(ctx, actor(ctx), req.Id, req.Body.Faq, req.Body.Clear != nil && *req.Body.Clear)
	if err != nil {
		return nil, err
	}
	return api.UpdateAgentFaq200JSONResponse{Status: http.StatusOK, Data: renderAgent(ag)}, nil
}

// SetAgentCallConfig pairs a phone number with an agent.
func (h *Agents) SetAgentCallConfig(ctx context.Context, req api.SetAgentCallConfigRequestObject) (api.SetAgentCallConfigResponseObject, error) {
	c, err := h.svc.SetCallConfig(ctx, actor(ctx), req.Body.PhoneNumberId, req.Body.AgentId)
	if err != nil {
		return nil, err
	}
	return api.SetAgentCallConfig200JSONResponse{Status: http.StatusOK, Data: api.AgentCallConfig{Id: c.ID, OrganizationId: c.OrganizationID,
		AgentId: c.AgentID, PhoneNumberId: c.PhoneNumberID, WorkflowId: optional(c.WorkflowID), CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}}, nil
}

// ListAgentKnowledgeFiles lists the knowledge files an agent answers from.
func (h *Agents) ListAgentKnowledgeFiles(ctx context.Context, req api.ListAgentKnowledgeFilesRequestObject) (api.ListAgentKnowledgeFilesResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, agentPageSize), func(limit, offset int) ([]agents.KnowledgeFile, int, error) {
		return h.svc.KnowledgeFiles(ctx, actor(ctx), req.Id, agents.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListAgentKnowledgeFiles200JSONResponse{Status: http.StatusOK, Data: mapped(items, func(f agents.KnowledgeFile) api.AgentKnowledgeFile {
		return renderAgentKnowledgeFile(req.Id, f)
	}), Meta: meta}, nil
}

// ListAgentAudioFiles lists an agent's teaching audio files.
func (h *Agents) ListAgentAudioFiles(ctx context.Context, req api.ListAgentAudioFilesRequestObject) (api.ListAgentAudioFilesResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, agentPageSize), func(limit, offset int) ([]agents.Audio, int, error) {
		return h.svc.AudioFiles(ctx, actor(ctx), req.Params.AgentId, agents.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListAgentAudioFiles200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderAudioFile), Meta: meta}, nil
}

// ListAgentAudioSummaries answers the summary state of the audio files asked, in that order.
func (h *Agents) ListAgentAudioSummaries(ctx context.Context, req api.ListAgentAudioSummariesRequestObject) (api.ListAgentAudioSummariesResponseObject, error) {
	files, err := h.svc.AudioSummaries(ctx, actor(ctx), req.Params.FormIds)
	if err != nil {
		return nil, err
	}
	return api.ListAgentAudioSummaries200JSONResponse{Status: http.StatusOK, Data: mapped(files, func(f store.AudioFile) api.AgentAudioSummary {
		return api.AgentAudioSummary{Id: f.ID, Status: api.AgentAudioSummaryStatus(f.SummaryStatus), Summary: f.Summary, Error: optional(f.Error)}
	})}, nil
}

// SynthesizeAgentSpeech speaks a text (or an agent's greeting) with a voice, as base64 MP3.
func (h *Agents) SynthesizeAgentSpeech(ctx context.Context, req api.SynthesizeAgentSpeechRequestObject) (api.SynthesizeAgentSpeechResponseObject, error) {
	p := req.Params
	mp3, err := h.svc.Speak(ctx, actor(ctx), agents.SpeakInput{AgentID: deref(p.AgentProfileId), Text: deref(p.Text),
		VoiceID: deref(p.VoiceId), VoicePresetID: deref(p.VoicePresetId)})
	if err != nil {
		return nil, err
	}
	return api.SynthesizeAgentSpeech200JSONResponse{Status: http.StatusOK,
		Data: api.TextToSpeech{Audio: mp3, MimeType: api.TextToSpeechMimeTypeAudiompeg}}, nil
}

// SummarizeAgentAudio adds a teaching audio file to an agent and queues its summary.
func (h *Agents) SummarizeAgentAudio(ctx context.Context, req api.SummarizeAgentAudioRequestObject) (api.SummarizeAgentAudioResponseObject, error) {
	f, err := h.svc.AddAudio(ctx, actor(ctx), req.Params.AgentId, req.Body.Url, deref(req.Body.FileName))
	if err != nil {
		return nil, err
	}
	return api.SummarizeAgentAudio201JSONResponse{Status: http.StatusCreated, Data: renderAudioFile(f)}, nil
}
