package knowledge

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// Search limits.
const (
	DefaultResults = 5
	MaxResults     = 50
	// maxTerms bounds the words of one question that are searched for.
	maxTerms = 32
	maxTerm  = 64
)

// SearchInput is a question to a knowledge base: KnowledgeBaseID, or CampaignID for the
// campaign's active one.
type SearchInput struct {
	KnowledgeBaseID, CampaignID, Query string
	Limit                              int
}

// Terms answers the words of a question that are searched for: runs of letters and digits,
// lower-cased, each once, in order. Punctuation and search syntax carry no meaning, so no
// question can break the query. Common English words ("how", "do", "the") are left out
// unless the question has nothing else: they would match nearly every passage, slowing the
// search and adding nothing to the ranking (PostgreSQL's english configuration drops them
// too, so both databases answer alike).
func Terms(q string) []string {
	seen := map[string]bool{}
	var out, common []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > maxTerm || seen[w] {
			continue
		}
		seen[w] = true
		if stopwords[w] {
			common = append(common, w)
			continue
		}
		out = append(out, w)
		if len(out) == maxTerms {
			break
		}
	}
	if len(out) == 0 && len(common) > 0 {
		return common[:min(len(common), maxTerms)]
	}
	return out
}

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because been before
		being below between both but by can could did do does doing down during each few for from further had has have
		having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
		nor not now of off on once only or other our ours ourselves out over own same she should so some such than that
		the their theirs them themselves then there these they this those through to too under until up very was we were
		what when where which while who whom why will with would you your yours yourself yourselves`) {
		stopwords[w] = true
	}
}

func limitOf(n int) int {
	switch {
	case n <= 0:
		return DefaultResults
	case n > MaxResults:
		return MaxResults
	}
	return n
}

// Search answers the passages of a knowledge base of the team that best match a question.
// A campaign without an active knowledge base has nothing to search: no passages.
func (s *Service) Search(ctx context.Context, a auth.Actor, in SearchInput) ([]store.PassageHit, error) {
	switch {
	case in.KnowledgeBaseID == "" && in.CampaignID == "":
		return nil, errs.InvalidField("query.knowledgeBaseId", "give knowledgeBaseId, or campaignId to search the campaign's active knowledge base")
	case in.KnowledgeBaseID != "" && in.CampaignID != "":
		return nil, errs.InvalidField("query.campaignId", "give knowledgeBaseId or campaignId, not both")
	}
	terms := Terms(in.Query)
	if len(terms) == 0 {
		return nil, errs.InvalidField("query.q", "q must hold at least one word (letters or digits)")
	}
	kbID := in.KnowledgeBaseID
	if kbID != "" {
		if _, err := s.Get(ctx, a, kbID); err != nil {
			return nil, err
		}
	} else {
		if err := s.campaign(ctx, a.OrganizationID, in.CampaignID); err != nil {
			return nil, err
		}
		id, err := s.db.ActiveKnowledgeBase(ctx, a.OrganizationID, in.CampaignID)
		if errors.Is(err, store.ErrNotFound) {
			return []store.PassageHit{}, nil
		}
		if err != nil {
			return nil, err
		}
		kbID = id
	}
	return s.db.SearchPassages(ctx, a.OrganizationID, store.SearchScope{KnowledgeBaseID: kbID}, terms, limitOf(in.Limit))
}

// SearchForAgent is the call engine's question while a call runs: the passages that best
// match among what an agent of the team answers from (its campaign's active knowledge base
// and the files linked to it). A question without words finds nothing.
func (s *Service) SearchForAgent(ctx context.Context, orgID, agentID, question string, limit int) ([]store.PassageHit, error) {
	terms := Terms(question)
	if len(terms) == 0 {
		return []store.PassageHit{}, nil
	}
	return s.db.SearchPassages(ctx, orgID, store.SearchScope{AgentID: agentID}, terms, limitOf(limit))
}

// FileIDsByURL resolves the fileUrls of knowledge files of the team (a file's url, or the
// fileUrl of the upload it was added from) to their ids, for linking them to an agent.
func (s *Service) FileIDsByURL(ctx context.Context, orgID string, urls []string) ([]string, error) {
	out := make([]string, 0, len(urls))
	for i, u := range urls {
		up, err := s.files.Resolve(ctx, orgID, u)
		if _, ok := errs.As(err); ok {
			return nil, notAKnowledgeFile(i)
		}
		if err != nil {
			return nil, err
		}
		f, err := s.db.KnowledgeFileByUpload(ctx, orgID, up.ID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, notAKnowledgeFile(i)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f.ID)
	}
	return out, nil
}

func notAKnowledgeFile(i int) error {
	return errs.UnprocessableErr("knowledgeFiles[" + strconv.Itoa(i) + "] is not a file of this team's knowledge bases: add the upload to a knowledge base first " +
		"(POST /v1/campaigns/knowledge-base/files), then link the url it answers.")
}
