package betty

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"net/http"
	"regexp"
	"slices"
	"strconv"

	"github.com/bettyhq/betty/sdk/client"
)

// Agents: the agent profiles of a team — who answers and places its calls, with what greeting,
// instructions, voice, FAQ and teaching audio — and the pairing of a phone number with the
// agent that answers it.

// CreateAgent creates an agent profile; it is inactive unless req.Status says active.
func (c *Client) CreateAgent(ctx context.Context, req client.CreateAgentRequest) (client.AgentProfile, error) {
	return Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, req)
	})
}

// DuplicateAgent copies an agent (not its teaching audio) as an inactive agent named name, or
// "Copy of …" when name is "".
func (c *Client) DuplicateAgent(ctx context.Context, team, id, name string) (client.AgentProfile, error) {
	req := client.DuplicateAgentRequest{OrganizationId: team, Id: id}
	if name != "" {
		req.Name = &name
	}
	return Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DuplicateAgent(ctx, req)
	})
}

// DeleteAgent deletes an agent with its FAQ and audio. An agent a workflow still uses is
// refused with a 409 *APIError (ErrConflict).
func (c *Client) DeleteAgent(ctx context.Context, team, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteAgent(ctx, id, &client.DeleteAgentParams{OrganizationId: team})
	})
}

// UpdateAgent changes the fields set in req (req.OrganizationId names the team) and keeps the
// others; status and FAQ have their own helpers.
func (c *Client) UpdateAgent(ctx context.Context, id string, req client.UpdateAgentRequest) (client.AgentProfile, error) {
	return Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateAgent(ctx, id, req)
	})
}

// Agent reads one agent with its FAQ, knowledge files and teaching audio.
func (c *Client) Agent(ctx context.Context, team, id string) (client.AgentProfile, error) {
	return Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetAgent(ctx, id, &client.GetAgentParams{OrganizationId: team})
	})
}

// Agents walks a team's agents, newest first.
func (c *Client) Agents(ctx context.Context, team string) iter.Seq2[client.AgentProfile, error] {
	size := 100
	return All[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListAgents(ctx, team, &client.ListAgentsParams{Page: &page, SizePerPage: &size})
	})
}

// CampaignAgents walks the agents of a campaign, the active one first, then newest first.
func (c *Client) CampaignAgents(ctx context.Context, team, campaignID string) iter.Seq2[client.AgentProfile, error] {
	size := 100
	return All[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListCampaignAgents(ctx, campaignID, &client.ListCampaignAgentsParams{OrganizationId: team, Page: &page, SizePerPage: &size})
	})
}

// AgentKnowledgeFiles walks the knowledge files linked to an agent, newest first.
func (c *Client) AgentKnowledgeFiles(ctx context.Context, team, agentID string) iter.Seq2[client.AgentKnowledgeFile, error] {
	size := 100
	return All[client.AgentKnowledgeFile](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListAgentKnowledgeFiles(ctx, agentID, &client.ListAgentKnowledgeFilesParams{OrganizationId: team, Page: &page, SizePerPage: &size})
	})
}

// ActivateAgent makes an agent active and every other agent of its campaign inactive.
func (c *Client) ActivateAgent(ctx context.Context, team, id string) (client.AgentProfile, error) {
	return Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ActivateAgent(ctx, id, &client.ActivateAgentParams{OrganizationId: team})
	})
}

// DeactivateAgent makes an agent inactive; no other agent changes.
func (c *Client) DeactivateAgent(ctx context.Context, team, id string) (client.AgentProfile, error) {
	return Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeactivateAgent(ctx, id, &client.DeactivateAgentParams{OrganizationId: team})
	})
}

// SetAgentFAQ merges faq into an agent's FAQ, or with clear makes it exactly faq (an empty faq
// with clear empties it). More than 200 pairs in all is a 422 *APIError and changes nothing.
func (c *Client) SetAgentFAQ(ctx context.Context, team, id string, faq client.AgentFaq, clear bool) (client.AgentProfile, error) {
	if faq == nil {
		faq = client.AgentFaq{} // the contract wants an object, not null
	}
	req := client.UpdateAgentFaqRequest{OrganizationId: team, Faq: faq}
	if clear {
		req.Clear = &clear
	}
	return Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateAgentFaq(ctx, id, req)
	})
}

// FAQPair is one question of an agent's FAQ as it is shown.
type FAQPair struct {
	Key      string // the key as stored, "[1] What are your hours?"
	Question string // the key without its order prefix, "What are your hours?"
	Answer   string
}

// faqOrder is the order prefix a question key may begin with.
var faqOrder = regexp.MustCompile(`^\[([0-9]+)\] ?`)

// FAQPairs puts a FAQ in display order, the contract's rule: keys that begin with a bracketed
// number ("[2] Do you deliver?") by that number, then the others alphabetically, each question
// shown without its prefix.
func FAQPairs(faq client.AgentFaq) []FAQPair {
	type ranked struct {
		FAQPair
		numbered bool
		n        int
	}
	rs := make([]ranked, 0, len(faq))
	for k, a := range faq {
		r := ranked{FAQPair: FAQPair{Key: k, Question: k, Answer: a}}
		if m := faqOrder.FindStringSubmatch(k); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				r.numbered, r.n, r.Question = true, n, k[len(m[0]):]
			}
		}
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		switch {
		case a.numbered != b.numbered:
			if a.numbered {
				return -1
			}
			return 1
		case a.numbered && a.n != b.n:
			return cmp.Compare(a.n, b.n)
		}
		return cmp.Compare(a.Key, b.Key)
	})
	out := make([]FAQPair, len(rs))
	for i, r := range rs {
		out[i] = r.FAQPair
	}
	return out
}

// NumberedFAQ is the FAQ whose keys order pairs as given (see NumberedQuestion).
func NumberedFAQ(pairs []FAQPair) client.AgentFaq {
	faq := make(client.AgentFaq, len(pairs))
	for i, p := range pairs {
		faq[NumberedQuestion(i+1, p.Question)] = p.Answer
	}
	return faq
}

// NumberedQuestion is the key that shows question in place n (1-based): "[n] question",
// or question as it is when it already begins with a bracketed number.
func NumberedQuestion(n int, question string) string {
	if faqOrder.MatchString(question) {
		return question
	}
	return fmt.Sprintf("[%d] %s", n, question)
}

// SetAgentCallConfig pairs a phone number with an agent: calls to the number are answered by
// the agent. A team has one such pairing, which this replaces. The number must be an active
// number bought through Betty (422 otherwise).
func (c *Client) SetAgentCallConfig(ctx context.Context, team, agentID, phoneNumberID string) (client.AgentCallConfig, error) {
	return Do[client.AgentCallConfig](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SetAgentCallConfig(ctx, client.SetAgentCallConfigRequest{OrganizationId: team, AgentId: agentID, PhoneNumberId: phoneNumberID})
	})
}

// AgentSpeech speaks a text and answers the MP3. Zero fields of p take the contract's
// defaults: the greeting of p.AgentProfileId without Text, its voice without VoiceId or
// VoicePresetId.
func (c *Client) AgentSpeech(ctx context.Context, p client.SynthesizeAgentSpeechParams) ([]byte, error) {
	tts, err := Do[client.TextToSpeech](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SynthesizeAgentSpeech(ctx, &p)
	})
	switch {
	case err != nil:
		return nil, err
	case tts.MimeType != client.TextToSpeechMimeTypeAudiompeg:
		return nil, fmt.Errorf("betty: GET /v1/agent/text-to-speech: answered %q, want audio/mpeg", tts.MimeType)
	case len(tts.Audio) == 0:
		return nil, fmt.Errorf("betty: GET /v1/agent/text-to-speech: answered no audio")
	}
	return tts.Audio, nil
}

// AddAgentAudio adds the uploaded audio file at url (an upload of purpose agent-audio) to an
// agent's teaching audio and starts summarising it; fileName "" takes the URL's last segment.
// Poll AgentAudioSummaries until its status is success or error.
func (c *Client) AddAgentAudio(ctx context.Context, team, agentID, url, fileName string) (client.AgentAudioFile, error) {
	req := client.SummarizeAgentAudioRequest{Url: url}
	if fileName != "" {
		req.FileName = &fileName
	}
	return Do[client.AgentAudioFile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SummarizeAgentAudio(ctx, &client.SummarizeAgentAudioParams{OrganizationId: team, AgentId: agentID}, req)
	})
}

// AgentAudioFiles walks an agent's teaching audio files, newest first.
func (c *Client) AgentAudioFiles(ctx context.Context, team, agentID string) iter.Seq2[client.AgentAudioFile, error] {
	size := 100
	return All[client.AgentAudioFile](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListAgentAudioFiles(ctx, &client.ListAgentAudioFilesParams{OrganizationId: team, AgentId: agentID, Page: &page, SizePerPage: &size})
	})
}

// maxSummaryIDs is how many audio files one AgentAudioSummaries call asks about.
const maxSummaryIDs = 50

// AgentAudioSummaries answers the summary state of the teaching audio files ids, in that
// order, leaving out ids the team does not have. More than 50 ids are asked 50 at a time.
func (c *Client) AgentAudioSummaries(ctx context.Context, team string, ids []string) ([]client.AgentAudioSummary, error) {
	out := []client.AgentAudioSummary{}
	for chunk := range slices.Chunk(ids, maxSummaryIDs) {
		got, err := Do[[]client.AgentAudioSummary](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
			return api.ListAgentAudioSummaries(ctx, &client.ListAgentAudioSummariesParams{OrganizationId: team, FormIds: chunk})
		})
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}
