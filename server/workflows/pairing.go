package workflows

import (
	"context"
	"errors"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// The inbound workflow behind a pairing of an agent with a number (agents.SetCallConfig, and
// runs' inbound calls through AnswerPaired).

// AnswerTemplateID is the template of the workflow AnswerNumber makes ("Answer calls": greet,
// answer from the agent's profile, FAQ and knowledge base, take a message).
const AnswerTemplateID = "template-answer-calls"

// AnswerNumber makes agentID answer the calls to the team's number phoneID (what pairing an
// agent with a number promises, agents.SetCallConfig): the inbound workflow whose own number it
// is gets that agent; with none, Betty makes the inbound workflow "Calls to <number>" from the
// Answer calls template with the number and the agent. Either way the team sees the workflow
// in its list and may edit it. It runs in the caller's transaction when there is one.
func (s *Service) AnswerNumber(ctx context.Context, a auth.Actor, phoneID, agentID string) (Workflow, error) {
	var out Workflow
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		e164, err := s.db.PhoneNumberOfTeam(ctx, a.OrganizationID, phoneID)
		if errors.Is(err, store.ErrNotFound) {
			return errs.NotFoundf("Phone number")
		} else if err != nil {
			return err
		}
		own, _, err := s.db.ListWorkflows(ctx, a.OrganizationID, Filter{PhoneNumberID: phoneID, Type: store.Inbound}, 1, 0)
		if err != nil {
			return err
		}
		if len(own) > 0 {
			out, err = s.SetAgent(ctx, a, own[0].ID, agentID)
			return err
		}
		tmpl := AnswerTemplateID
		w, err := s.create(ctx, a, nil, Input{Name: CutName("Calls to " + e164), AgentID: &agentID, Type: store.Inbound, TemplateID: &tmpl})
		if err != nil {
			return err
		}
		out, err = s.SetPhoneNumber(ctx, a, w.ID, &phoneID)
		return err
	})
	return out, err
}

// AnswerPaired is AnswerNumber at call time, for a number that calls reach while no inbound
// workflow has it: when it is the team's paired number (the pairing predates workflows made
// for pairings, or the team deleted the one made), the workflow is made again with the paired
// agent, since the team's Phone numbers page still says that agent answers the number. It
// answers whether it made one. A number with an inbound workflow of its own is left as the
// team set it, runnable or not.
func (s *Service) AnswerPaired(ctx context.Context, orgID, phoneID string) (bool, error) {
	c, err := s.db.CallConfigOf(ctx, orgID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && c.PhoneNumberID != phoneID) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, own, err := s.db.ListWorkflows(ctx, orgID, Filter{PhoneNumberID: phoneID, Type: store.Inbound}, 1, 0)
	if err != nil || own > 0 {
		return false, err
	}
	_, err = s.AnswerNumber(ctx, auth.Actor{Grant: auth.Grant{OrganizationID: orgID}}, phoneID, c.AgentID)
	return err == nil, err
}
