package calls

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/store"
)

// addAnalysis stores a finished call's analysis, in the transaction that closes it.
func (s *Service) addAnalysis(ctx context.Context, orgID, callLogID string, a conversation.Analysis) error {
	fields := a.Fields
	if fields == nil {
		fields = []conversation.FieldValue{}
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return s.db.InsertCallAnalysis(ctx, &store.CallAnalysis{CallLogID: callLogID, OrganizationID: orgID, Summary: a.Summary,
		Outcome: a.Outcome, Fields: string(b), AnalysedBy: a.By})
}

// AnalysisOf answers a team's call's analysis; nil when it has none (it goes on, or ended
// before calls were analysed).
func (s *Service) AnalysisOf(ctx context.Context, orgID, callLogID string) (*conversation.Analysis, error) {
	row, err := s.db.CallAnalysisOf(ctx, orgID, callLogID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	a, err := DecodeAnalysis(row.Summary, row.Outcome, row.Fields, row.AnalysedBy)
	return &a, err
}

// DecodeAnalysis reads a stored analysis.
func DecodeAnalysis(summary, outcome, fields, by string) (conversation.Analysis, error) {
	a := conversation.Analysis{Summary: summary, Outcome: outcome, By: by, Fields: []conversation.FieldValue{}}
	if err := json.Unmarshal([]byte(fields), &a.Fields); err != nil {
		return a, fmt.Errorf("calls: stored analysis fields: %w", err)
	}
	return a, nil
}
