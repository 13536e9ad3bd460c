package workflows

// Campaign workflows: the toggle that makes one its campaign's workflow, duplicates, and the
// copies a duplicated campaign takes along.

import (
	"context"
	"strings"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Toggle makes a campaign workflow its campaign's workflow (active) or, when it is, clears it
// (inactive; an active campaign left without a workflow is paused). It answers the campaign.
func (s *Service) Toggle(ctx context.Context, a auth.Actor, id, campaignID string, active bool) (campaigns.Campaign, error) {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		w, err := s.db.WorkflowByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		if w.CampaignID == nil || *w.CampaignID != campaignID {
			return errNotFound
		}
		if active {
			return s.db.SetCampaignWorkflow(ctx, a.OrganizationID, campaignID, id)
		}
		return s.db.SetCampaignWorkflowIfCurrent(ctx, a.OrganizationID, id)
	})
	if err != nil {
		return campaigns.Campaign{}, err
	}
	return s.campaigns.Get(ctx, a, campaignID)
}

// Duplicate copies a campaign workflow into its campaign: "Copy of <name>", inactive, the same
// graph with new node ids, agent and phone number, version 1, no contacts source.
func (s *Service) Duplicate(ctx context.Context, a auth.Actor, id string) (Workflow, error) {
	if strings.TrimSpace(id) == "" {
		return Workflow{}, errs.InvalidField("path.id", "Workflow ID is required to duplicate a workflow")
	}
	orig, err := s.Get(ctx, a, id)
	if err != nil {
		return Workflow{}, err
	}
	if orig.CampaignID == nil {
		return Workflow{}, errs.UnprocessableErr("Only a campaign's workflow can be duplicated here.")
	}
	g := renumber(orig.Graph)
	for i, n := range g.Nodes {
		if n.Type == workflow.Contacts {
			delete(g.Nodes[i].Data, workflow.FieldSource)
		}
	}
	w := orig.Workflow
	w.Name = CutName("Copy of " + orig.Name)
	w.ShopifyEnabled = false
	w.PromptStatus = store.PromptInProgress
	w.Prompt = nil
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		graph, nodes, err := encode(g)
		if err != nil {
			return err
		}
		w.Graph = graph
		if err := s.db.CreateWorkflow(ctx, &w, nodes); err != nil {
			return err
		}
		return s.compileLater(ctx, w)
	})
	if err != nil {
		return Workflow{}, err
	}
	return s.Get(ctx, a, w.ID)
}

// CutName cuts a name to MaxName characters.
func CutName(name string) string {
	r := []rune(name)
	if len(r) > MaxName {
		r = r[:MaxName]
	}
	return strings.TrimSpace(string(r))
}

// renumber gives every node and edge a new id. Node ids need be unique only in their workflow,
// but a copy with ids of its own is never confused with its original where a request names a
// node without its workflow.
func renumber(g workflow.Graph) workflow.Graph {
	g = workflow.Clone(g)
	ids := map[string]string{}
	for i, n := range g.Nodes {
		ids[n.ID] = store.NewID()
		g.Nodes[i].ID = ids[n.ID]
	}
	for i, e := range g.Edges {
		g.Edges[i].ID = store.NewID()
		g.Edges[i].Source = ids[e.Source]
		g.Edges[i].Target = ids[e.Target]
	}
	return g
}

// CopyCampaignWorkflows copies every workflow of campaign from into campaign to (in the
// caller's transaction): new node ids, no contacts source, version 1, the agent copied with
// the campaign when it was (agents maps old ids to new), the copy of the active workflow
// active.
func (s *Service) CopyCampaignWorkflows(ctx context.Context, orgID, from, to string, agents map[string]string) error {
	byCampaign, err := s.db.WorkflowsOfCampaigns(ctx, orgID, []string{from})
	if err != nil {
		return err
	}
	list := byCampaign[from]
	for i := len(list) - 1; i >= 0; i-- { // oldest first, so the copies keep their order
		orig, err := decode(list[i])
		if err != nil {
			return err
		}
		g := renumber(orig.Graph)
		for j, n := range g.Nodes {
			if n.Type == workflow.Contacts {
				delete(g.Nodes[j].Data, workflow.FieldSource)
			}
		}
		w := orig.Workflow
		w.CampaignID = &to
		w.ShopifyEnabled, w.PromptStatus, w.Prompt = false, store.PromptInProgress, nil
		if w.AgentID != nil {
			if copied, ok := agents[*w.AgentID]; ok {
				w.AgentID = &copied
			}
		}
		graph, nodes, err := encode(g)
		if err != nil {
			return err
		}
		w.Graph = graph
		if err := s.db.CreateWorkflow(ctx, &w, nodes); err != nil {
			return err
		}
		if orig.Active {
			if err := s.db.SetCampaignWorkflow(ctx, orgID, to, w.ID); err != nil {
				return err
			}
		}
		if err := s.compileLater(ctx, w); err != nil {
			return err
		}
	}
	return nil
}
