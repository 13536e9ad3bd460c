// Package agents is the agent-profile domain: what an AI voice agent says (greeting,
// instructions, FAQ), how it sounds (a voice preset or a custom voice), what it knows
// (knowledge files, teaching audio), which campaign it speaks for, and which phone number it
// answers. Activation is exclusive within a campaign. Handlers and the conversation engine call
// the same methods.
package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/voices"
)

const (
	// DefaultLanguage is the language of an agent created without one.
	DefaultLanguage = "en-US"
	// MaxFAQ is the most question/answer pairs an agent's FAQ holds.
	MaxFAQ = 200
)

// Voices are the voices an agent speaks with, and the transcriber of its teaching audio (the
// voices feature: *voices.Service).
type Voices interface {
	// CheckCustom answers nil when voiceID is an approved custom voice of the team.
	CheckCustom(ctx context.Context, orgID, voiceID string) error
	// CheckPreset answers nil when presetID is a voice preset.
	CheckPreset(ctx context.Context, presetID string) error
	// Synthesize speaks text with a voice, as MP3.
	Synthesize(ctx context.Context, a auth.Actor, text string, ref voices.Ref) ([]byte, error)
	// CheckTranscribes answers nil when speech in the language can be transcribed, an error
	// saying why not otherwise (503 without a transcriber).
	CheckTranscribes(language string) error
	// Transcribe turns recorded audio into text.
	Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error)
}

// Files are the team's finished uploads (the uploads feature).
type Files interface {
	// URL is a fresh download URL of a team's upload.
	URL(ctx context.Context, orgID, uploadID string) (string, error)
	// Audio resolves the fileUrl of a finished agent-audio upload of the team to its id and
	// file name; an errs.Error says why not.
	Audio(ctx context.Context, orgID, fileURL string) (uploadID, name string, err error)
	// ReadAudio opens a finished upload of the team, and answers a file name for it whose
	// extension is its type's. Close it.
	ReadAudio(ctx context.Context, orgID, uploadID string) (io.ReadCloser, string, error)
	// Use and Release record that by ("agent-audio:<id>") uses an upload, or no longer does.
	Use(ctx context.Context, orgID, uploadID, by string) error
	Release(ctx context.Context, orgID, uploadID, by string) error
}

// Knowledge is the team's knowledge bases (the knowledge feature: *knowledge.Service).
type Knowledge interface {
	// FileIDsByURL resolves the urls of knowledge files of the team to their ids; an
	// errs.Error says which is not one.
	FileIDsByURL(ctx context.Context, orgID string, urls []string) ([]string, error)
}

// Numbers has the calls to a team's number answered by an agent (the workflows feature:
// *workflows.Service.AnswerNumber) and answers the id of the inbound workflow that does it.
type Numbers interface {
	AnswerNumber(ctx context.Context, a auth.Actor, phoneID, agentID string) (workflowID string, err error)
}

// Service is the agent domain.
type Service struct {
	db        *store.DB
	jobs      *jobs.Queue
	voices    Voices
	files     Files
	knowledge Knowledge
	numbers   Numbers
}

// New returns the agent service and registers its background work (summaries of teaching
// audio) on q.
func New(db *store.DB, q *jobs.Queue, voices Voices, files Files, knowledge Knowledge, numbers Numbers) *Service {
	s := &Service{db: db, jobs: q, voices: voices, files: files, knowledge: knowledge, numbers: numbers}
	jobs.Register(q, &summarizer{s: s})
	return s
}

// Agent is an agent profile with its FAQ decoded and its teaching audio files.
type Agent struct {
	store.Agent
	FAQ        map[string]string
	AudioFiles []Audio
	// KnowledgeFiles are the knowledge files linked to it explicitly.
	KnowledgeFiles []KnowledgeFile
}

// Audio is a teaching audio file with a download URL.
type Audio struct {
	store.AudioFile
	URL string
}

// Page asks for one page of a list.
type Page struct{ Limit, Offset int }

var errNotFound = errs.NotFoundf("Agent profile")

func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	}
	return err
}

// OrganizationOf answers the organisation an agent profile belongs to (for the HTTP guard).
func (s *Service) OrganizationOf(ctx context.Context, id string) (string, error) {
	org, err := s.db.AgentOrganization(ctx, id)
	return org, notFound(err)
}

// Input is an agent profile as a client sends it; on update nil fields keep their value.
type Input struct {
	Name, Greeting, Instructions, Language *string
	Status                                 *store.AgentStatus
	// VoiceID and VoicePresetID are exclusive: sending one clears the other.
	VoiceID, VoicePresetID *string
	FAQ                    map[string]string
	CampaignID             *string
	// KnowledgeFiles are the urls of knowledge files to link (nil: unchanged; empty: none).
	KnowledgeFiles []string
	// KnowledgeBaseID is the team's knowledge base the agent answers from (nil: unchanged;
	// "": none).
	KnowledgeBaseID *string
}

// Create creates an agent profile: inactive unless said otherwise; created active in a campaign,
// it becomes the campaign's only active agent.
func (s *Service) Create(ctx context.Context, a auth.Actor, in Input) (Agent, error) {
	ag := store.Agent{OrganizationID: a.OrganizationID, Status: store.AgentInactive, Language: DefaultLanguage, FAQ: "{}"}
	if in.Status != nil {
		ag.Status = *in.Status
	}
	if in.FAQ != nil {
		if err := checkFAQ(in.FAQ); err != nil {
			return Agent{}, err
		}
		ag.FAQ = encodeFAQ(in.FAQ)
	}
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.apply(ctx, a.OrganizationID, &ag, in); err != nil {
			return err
		}
		if err := s.db.CreateAgent(ctx, &ag); err != nil {
			return err
		}
		if err := s.linkKnowledge(ctx, a.OrganizationID, ag.ID, in.KnowledgeFiles); err != nil {
			return err
		}
		return s.exclusive(ctx, ag)
	})
	if err != nil {
		return Agent{}, err
	}
	return s.Get(ctx, a, ag.ID)
}

// apply copies the fields present in in onto ag, checking names, voices, campaign and the
// knowledge files.
func (s *Service) apply(ctx context.Context, orgID string, ag *store.Agent, in Input) error {
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if name == "" {
			return errs.InvalidField("body.name", "name cannot be empty")
		}
		ag.Name = name
	}
	if in.Greeting != nil {
		ag.Greeting = strings.TrimSpace(*in.Greeting)
	}
	if in.Instructions != nil {
		ag.Instructions = strings.TrimSpace(*in.Instructions)
	}
	if in.Language != nil {
		ag.Language = *in.Language
	}
	switch {
	case in.VoiceID != nil && in.VoicePresetID != nil:
		return errs.InvalidFields(errs.Field{Name: "body.voiceId", Message: "send voiceId or voicePresetId, not both"})
	case in.VoiceID != nil:
		if err := s.voices.CheckCustom(ctx, orgID, *in.VoiceID); err != nil {
			return err
		}
		ag.VoiceID, ag.VoicePresetID = in.VoiceID, nil
	case in.VoicePresetID != nil:
		if err := s.voices.CheckPreset(ctx, *in.VoicePresetID); err != nil {
			return err
		}
		ag.VoiceID, ag.VoicePresetID = nil, in.VoicePresetID
	}
	if in.CampaignID != nil && !same(ag.CampaignID, in.CampaignID) {
		if _, err := s.db.CampaignByID(ctx, orgID, *in.CampaignID); errors.Is(err, store.ErrNotFound) {
			return errs.NotFoundf("Campaign")
		} else if err != nil {
			return err
		}
		if ag.ID != "" && ag.Status == store.AgentActive {
			ag.Status = store.AgentInactive // an active agent moving campaigns does not unseat the other's
		}
		ag.CampaignID = in.CampaignID
	}
	if in.KnowledgeBaseID != nil {
		if *in.KnowledgeBaseID == "" {
			ag.KnowledgeBaseID = nil
		} else {
			if _, err := s.db.KnowledgeBaseByID(ctx, orgID, *in.KnowledgeBaseID); errors.Is(err, store.ErrNotFound) {
				return errs.NotFoundf("Knowledge base")
			} else if err != nil {
				return err
			}
			id := *in.KnowledgeBaseID
			ag.KnowledgeBaseID = &id
		}
	}
	return nil
}

// linkKnowledge replaces the knowledge files linked to an agent when urls is not nil.
func (s *Service) linkKnowledge(ctx context.Context, orgID, agentID string, urls []string) error {
	if urls == nil {
		return nil
	}
	ids, err := s.knowledge.FileIDsByURL(ctx, orgID, urls)
	if err != nil {
		return err
	}
	return s.db.SetAgentKnowledgeFiles(ctx, orgID, agentID, ids)
}

// KnowledgeFile is a knowledge file an agent answers from, with a download URL.
type KnowledgeFile struct {
	store.KnowledgeFile
	URL string
}

// KnowledgeFiles lists the files an agent answers from, newest first: those of its own
// knowledge base, of its campaign's active knowledge base and those linked to it, each once.
//
// Decision (issue 21): an agent may name a knowledge base of its own. A paired agent (one
// answering a number without a campaign: SetCallConfig) had no way to know anything; its own
// knowledge base is what it answers from there, and in a campaign it answers from it beside
// the campaign's active one (the campaign's rule of one active knowledge base is about the
// campaign's links, which this does not touch).
func (s *Service) KnowledgeFiles(ctx context.Context, a auth.Actor, agentID string, pg Page) ([]KnowledgeFile, int, error) {
	if _, err := s.db.AgentByID(ctx, a.OrganizationID, agentID); err != nil {
		return nil, 0, notFound(err)
	}
	rows, total, err := s.db.AgentKnowledgeFiles(ctx, a.OrganizationID, agentID, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.knowledgeURLs(ctx, a.OrganizationID, rows)
	return out, total, err
}

// knowledgeURLs adds each knowledge file's download URL.
func (s *Service) knowledgeURLs(ctx context.Context, orgID string, rows []store.KnowledgeFile) ([]KnowledgeFile, error) {
	out := make([]KnowledgeFile, 0, len(rows))
	for _, f := range rows {
		kf := KnowledgeFile{KnowledgeFile: f}
		if f.UploadID != nil {
			var err error
			if kf.URL, err = s.files.URL(ctx, orgID, *f.UploadID); err != nil {
				return nil, err
			}
		}
		out = append(out, kf)
	}
	return out, nil
}

// exclusive makes ag the only active agent of its campaign when it is active.
func (s *Service) exclusive(ctx context.Context, ag store.Agent) error {
	if ag.Status != store.AgentActive || ag.CampaignID == nil {
		return nil
	}
	return s.db.DeactivateCampaignAgents(ctx, ag.OrganizationID, *ag.CampaignID, ag.ID)
}

// Get answers one of the team's agent profiles.
func (s *Service) Get(ctx context.Context, a auth.Actor, id string) (Agent, error) {
	ag, err := s.db.AgentByID(ctx, a.OrganizationID, id)
	if err != nil {
		return Agent{}, notFound(err)
	}
	out, err := s.render(ctx, a.OrganizationID, []store.Agent{ag})
	if err != nil {
		return Agent{}, err
	}
	return out[0], nil
}

// render decodes the FAQs and adds the audio files, looked up in one query.
func (s *Service) render(ctx context.Context, orgID string, rows []store.Agent) ([]Agent, error) {
	ids := make([]string, 0, len(rows))
	for _, ag := range rows {
		ids = append(ids, ag.ID)
	}
	audio, err := s.db.AudioFilesOfAgents(ctx, orgID, ids)
	if err != nil {
		return nil, err
	}
	linked, err := s.db.LinkedKnowledgeFilesOfAgents(ctx, orgID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Agent, 0, len(rows))
	for _, ag := range rows {
		files, err := s.withURLs(ctx, orgID, audio[ag.ID])
		if err != nil {
			return nil, err
		}
		knowledge, err := s.knowledgeURLs(ctx, orgID, linked[ag.ID])
		if err != nil {
			return nil, err
		}
		out = append(out, Agent{Agent: ag, FAQ: decodeFAQ(ag.FAQ), AudioFiles: files, KnowledgeFiles: knowledge})
	}
	return out, nil
}

// withURLs adds each audio file's download URL.
func (s *Service) withURLs(ctx context.Context, orgID string, files []store.AudioFile) ([]Audio, error) {
	out := make([]Audio, 0, len(files))
	for _, f := range files {
		url, err := s.files.URL(ctx, orgID, f.UploadID)
		if err != nil {
			return nil, err
		}
		out = append(out, Audio{AudioFile: f, URL: url})
	}
	return out, nil
}

// AudioFiles lists an agent's teaching audio files newest first, and how many there are.
func (s *Service) AudioFiles(ctx context.Context, a auth.Actor, agentID string, pg Page) ([]Audio, int, error) {
	if _, err := s.db.AgentByID(ctx, a.OrganizationID, agentID); err != nil {
		return nil, 0, notFound(err)
	}
	rows, total, err := s.db.AgentAudioFiles(ctx, a.OrganizationID, agentID, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.withURLs(ctx, a.OrganizationID, rows)
	return out, total, err
}

// AudioSummaries answers the team's audio files with these ids, in the order asked; ids not
// found are left out.
func (s *Service) AudioSummaries(ctx context.Context, a auth.Actor, ids []string) ([]store.AudioFile, error) {
	found, err := s.db.AudioFilesByIDs(ctx, a.OrganizationID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]store.AudioFile, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if f, ok := found[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// List lists the team's agent profiles newest first, and how many there are.
func (s *Service) List(ctx context.Context, a auth.Actor, pg Page) ([]Agent, int, error) {
	rows, total, err := s.db.ListAgents(ctx, a.OrganizationID, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.render(ctx, a.OrganizationID, rows)
	return out, total, err
}

// CampaignAgents lists a campaign's agents, the active one first, and how many there are.
func (s *Service) CampaignAgents(ctx context.Context, a auth.Actor, campaignID string, pg Page) ([]Agent, int, error) {
	if _, err := s.db.CampaignByID(ctx, a.OrganizationID, campaignID); errors.Is(err, store.ErrNotFound) {
		return nil, 0, errs.NotFoundf("Campaign")
	} else if err != nil {
		return nil, 0, err
	}
	rows, total, err := s.db.CampaignAgents(ctx, a.OrganizationID, campaignID, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.render(ctx, a.OrganizationID, rows)
	return out, total, err
}

// Update changes the fields present; status and FAQ have their own methods.
func (s *Service) Update(ctx context.Context, a auth.Actor, id string, in Input) (Agent, error) {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		ag, err := s.db.AgentByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		if err := s.apply(ctx, a.OrganizationID, &ag, in); err != nil {
			return err
		}
		if err := s.linkKnowledge(ctx, a.OrganizationID, ag.ID, in.KnowledgeFiles); err != nil {
			return err
		}
		return s.db.UpdateAgent(ctx, &ag)
	})
	if err != nil {
		return Agent{}, err
	}
	return s.Get(ctx, a, id)
}

// Duplicate copies an agent profile (greeting, instructions, voice, language, FAQ, campaign;
// not the teaching audio), always inactive, named name or "Copy of <name>".
func (s *Service) Duplicate(ctx context.Context, a auth.Actor, id string, name *string) (Agent, error) {
	ag, err := s.db.AgentByID(ctx, a.OrganizationID, id)
	if err != nil {
		return Agent{}, notFound(err)
	}
	ag.Status = store.AgentInactive
	ag.Name = campaigns.CopyName(ag.Name, campaigns.MaxName)
	if name != nil {
		if n := strings.TrimSpace(*name); n != "" {
			ag.Name = n
		}
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.CreateAgent(ctx, &ag); err != nil {
			return err
		}
		return s.db.CopyAgentKnowledgeFiles(ctx, a.OrganizationID, id, ag.ID)
	})
	if err != nil {
		return Agent{}, err
	}
	return s.Get(ctx, a, ag.ID)
}

// Delete deletes an agent profile with its FAQ and teaching audio (whose uploads it no longer
// uses); the team's call configuration pairing it with a number goes too. An agent a workflow
// speaks with is refused (notInUse).
func (s *Service) Delete(ctx context.Context, a auth.Actor, id string) error {
	return notFound(s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.notInUse(ctx, a.OrganizationID, id); err != nil {
			return err
		}
		audio, err := s.db.AudioFilesOfAgents(ctx, a.OrganizationID, []string{id})
		if err != nil {
			return err
		}
		if err := s.db.DeleteAgent(ctx, a.OrganizationID, id); err != nil {
			return err
		}
		for _, f := range audio[id] {
			if err := s.files.Release(ctx, a.OrganizationID, f.UploadID, audioUser(f.ID)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// notInUse refuses (409) to delete an agent a workflow speaks with: the workflow would be left
// without one, and its runs and inbound calls would stop. The message names the workflow.
func (s *Service) notInUse(ctx context.Context, orgID, id string) error {
	used, n, err := s.db.ListWorkflows(ctx, orgID, store.WorkflowFilter{AgentID: id}, 1, 0)
	if err != nil || n == 0 {
		return err
	}
	others := ""
	switch {
	case n == 2:
		others = " (and 1 other workflow)"
	case n > 2:
		others = fmt.Sprintf(" (and %d other workflows)", n-1)
	}
	return errs.ConflictErr(fmt.Sprintf("The workflow %q%s speaks with this agent: give it another agent first, then delete this one.", used[0].Name, others))
}

// SetStatus activates or deactivates an agent; activating one makes every other agent of its
// campaign inactive, in the same transaction.
func (s *Service) SetStatus(ctx context.Context, a auth.Actor, id string, status store.AgentStatus) (Agent, error) {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		ag, err := s.db.AgentByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		if ag.Status != status {
			ag.Status = status
			if err := s.db.UpdateAgent(ctx, &ag); err != nil {
				return err
			}
		}
		return s.exclusive(ctx, ag)
	})
	if err != nil {
		return Agent{}, err
	}
	return s.Get(ctx, a, id)
}

// SetFAQ writes question/answer pairs: merged into the FAQ, or replacing it with clear.
func (s *Service) SetFAQ(ctx context.Context, a auth.Actor, id string, faq map[string]string, clear bool) (Agent, error) {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		ag, err := s.db.AgentByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		merged := map[string]string{}
		if !clear {
			merged = decodeFAQ(ag.FAQ)
		}
		for q, ans := range faq {
			merged[q] = ans
		}
		if err := checkFAQ(merged); err != nil {
			return err
		}
		ag.FAQ = encodeFAQ(merged)
		return s.db.UpdateAgent(ctx, &ag)
	})
	if err != nil {
		return Agent{}, err
	}
	return s.Get(ctx, a, id)
}

// checkFAQ keeps the FAQ within its limits: at most MaxFAQ pairs, no empty question.
func checkFAQ(faq map[string]string) error {
	if len(faq) > MaxFAQ {
		return errs.UnprocessableErr(fmt.Sprintf("An agent's FAQ holds at most %d questions; this would make %d.", MaxFAQ, len(faq)))
	}
	for q := range faq {
		if strings.TrimSpace(q) == "" {
			return errs.InvalidField("body.faq", "a question cannot be empty")
		}
		if len([]rune(q)) > 500 {
			return errs.InvalidField("body.faq", "a question must have at most 500 characters")
		}
	}
	return nil
}

func encodeFAQ(faq map[string]string) string {
	raw, _ := json.Marshal(faq)
	return string(raw)
}

func decodeFAQ(raw string) map[string]string {
	out := map[string]string{}
	_ = json.Unmarshal([]byte(raw), &out)
	return out
}

// CallConfig is the team's pairing of a number with the agent that answers it, and the
// inbound workflow the calls follow.
type CallConfig struct {
	store.CallConfig
	WorkflowID string
}

// SetCallConfig makes the agent answer calls to the number: the team's one call configuration,
// replacing any. The number must be an active number bought through Betty (a verified number
// of the team's own cannot receive calls). Calls are answered through an inbound workflow, so
// the pairing sets one up in the same transaction (Numbers): the number's own inbound workflow
// gets the agent, or Betty makes one from the Answer calls template. A number paired before
// keeps its workflow (the pairing moves; the workflow stays the team's to keep or delete).
func (s *Service) SetCallConfig(ctx context.Context, a auth.Actor, phoneID, agentID string) (CallConfig, error) {
	c := CallConfig{CallConfig: store.CallConfig{OrganizationID: a.OrganizationID, AgentID: agentID, PhoneNumberID: phoneID}}
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		if _, err := s.db.AgentByID(ctx, a.OrganizationID, agentID); err != nil {
			return notFound(err)
		}
		p, err := s.db.PhoneForCallsOf(ctx, a.OrganizationID, phoneID)
		if errors.Is(err, store.ErrNotFound) {
			return errs.NotFoundf("Phone number")
		}
		if err != nil {
			return err
		}
		switch {
		case p.IsNonTelnyx:
			return errs.UnprocessableErr("This number was verified as caller id only: it cannot receive calls. Pair a number bought through Betty.")
		case p.Status != "active":
			return errs.UnprocessableErr("This number is not active yet, so it cannot receive calls.")
		}
		if err := s.db.SetCallConfig(ctx, &c.CallConfig); err != nil {
			return err
		}
		if s.numbers == nil {
			return nil
		}
		c.WorkflowID, err = s.numbers.AnswerNumber(ctx, a, phoneID, agentID)
		return err
	})
	return c, err
}

func same(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
