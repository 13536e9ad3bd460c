// Package workflows is the workflow domain: a team's call flows (graphs of the pure
// `server/workflow` package) with their agent, phone number, campaign and storefront setting,
// saved under an optimistic version, normalised and checked at every save, and compiled into
// a readable prompt by a background job. Templates are seeded by migration 00008 and copied
// with new node ids. Handlers, the CLI (through the API) and later the dialer call the same
// methods.
package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/runs/inuse"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// MaxName is the longest workflow name (the contract's limit); copies are cut to it.
const MaxName = 100

// Service is the workflow domain.
type Service struct {
	db        *store.DB
	jobs      *jobs.Queue
	campaigns *campaigns.Service
	files     Files
	apps      ConnectedApps // nil: HubSpot sources are refused
	// localBrain: no language model is configured, so steps without a spoken line will sound
	// generic (Workflow.Warnings).
	localBrain bool
	// maxRows is the most data rows a contacts file may have (DefaultMaxContactRows).
	maxRows int
}

// New returns the service and registers its background work (compiling prompts, importing
// contacts) on q.
func New(db *store.DB, q *jobs.Queue, camps *campaigns.Service, files Files) *Service {
	s := &Service{db: db, jobs: q, campaigns: camps, files: files, localBrain: true, maxRows: DefaultMaxContactRows}
	jobs.Register(q, &compiler{s: s})
	jobs.Register(q, &importer{s: s})
	return s
}

// SetLanguageModel says whether the server speaks through a language model (`--llm-url`);
// without one (the default) a workflow warns about its steps that have no spoken line.
func (s *Service) SetLanguageModel(configured bool) { s.localBrain = !configured }

// SetContactsMaxRows sets the most data rows a contacts file may have (`--contacts-max-rows`);
// n < 1 keeps DefaultMaxContactRows.
func (s *Service) SetContactsMaxRows(n int) {
	if n >= 1 {
		s.maxRows = n
	}
}

// Page asks for one page of a list.
type Page struct{ Limit, Offset int }

// Workflow is a workflow with its decoded graph, what stops it from running, what will sound
// wrong when it runs (Warnings: workflow.Generic without a language model), and, after a save,
// what normalisation changed.
type Workflow struct {
	store.Workflow
	Graph    workflow.Graph
	Problems []workflow.Violation
	Warnings []workflow.Violation
	Changes  []workflow.Change
}

var errNotFound = errs.NotFoundf("Workflow")

func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	}
	return err
}

// OrganizationOf answers the organisation of a workflow (for the HTTP guard).
func (s *Service) OrganizationOf(ctx context.Context, id string) (string, error) {
	org, err := s.db.WorkflowOrganization(ctx, id)
	return org, notFound(err)
}

// NodeOwners answers, for the HTTP guard, the workflows of the teams in scope that have a
// node with one of ids (only the workflow the scope names, when it names one): node ids are
// unique only in their workflow, so several workflows, of one team or several, may have one.
func (s *Service) NodeOwners(ctx context.Context, ids []string, in auth.Scope) ([]auth.Owned, error) {
	var out []auth.Owned
	for _, id := range ids {
		owners, err := s.db.WorkflowNodeOwners(ctx, in.Teams, id, in.Container)
		if err != nil {
			return nil, err
		}
		for _, o := range owners {
			out = append(out, auth.Owned{ID: id, OrganizationID: o.OrganizationID, Container: o.WorkflowID})
		}
	}
	return out, nil
}

func decode(w store.Workflow) (Workflow, error) {
	g, err := workflow.Parse([]byte(w.Graph))
	if err != nil {
		return Workflow{}, fmt.Errorf("workflows: stored graph of %s: %w", w.ID, err)
	}
	return Workflow{Workflow: w, Graph: g, Problems: workflow.Validate(g, workflow.Type(w.Type))}, nil
}

func encode(g workflow.Graph) (string, []store.WorkflowNode, error) {
	b, err := json.Marshal(g)
	if err != nil {
		return "", nil, err
	}
	nodes := make([]store.WorkflowNode, 0, len(g.Nodes))
	for _, n := range g.Nodes {
		nodes = append(nodes, store.WorkflowNode{ID: n.ID, Type: string(n.Type)})
	}
	return string(b), nodes, nil
}

func checkName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errs.InvalidField(field, "name is required")
	case utf8.RuneCountInString(name) > MaxName:
		return "", errs.InvalidField(field, fmt.Sprintf("the name must have at most %d characters", MaxName))
	}
	return name, nil
}

// Get answers one of the team's workflows.
func (s *Service) Get(ctx context.Context, a auth.Actor, id string) (Workflow, error) {
	w, err := s.db.WorkflowByID(ctx, a.OrganizationID, id)
	if err != nil {
		return Workflow{}, notFound(err)
	}
	out, err := decode(w)
	if err != nil {
		return Workflow{}, err
	}
	out.Warnings = s.warnings(out.Graph)
	return out, nil
}

// warnings are what will sound wrong when g runs: its steps without a spoken line, only when
// no language model words them.
func (s *Service) warnings(g workflow.Graph) []workflow.Violation {
	if !s.localBrain {
		return []workflow.Violation{}
	}
	return workflow.Generic(g)
}

// Filter narrows a list of workflows.
type Filter = store.WorkflowFilter

// List lists the team's workflows, most recently updated first (a campaign's newest first).
func (s *Service) List(ctx context.Context, a auth.Actor, f Filter, pg Page) ([]Workflow, int, error) {
	rows, total, err := s.db.ListWorkflows(ctx, a.OrganizationID, f, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Workflow, 0, len(rows))
	for _, w := range rows {
		out = append(out, Workflow{Workflow: w}) // lists carry no graph
	}
	return out, total, nil
}

// ListInCampaign lists a campaign's workflows; the campaign must be the team's.
func (s *Service) ListInCampaign(ctx context.Context, a auth.Actor, campaignID string, f Filter, pg Page) ([]Workflow, int, error) {
	if _, err := s.campaign(ctx, a.OrganizationID, campaignID); err != nil {
		return nil, 0, err
	}
	f.CampaignID = campaignID
	return s.List(ctx, a, f, pg)
}

// ParseFilters reads the campaign list's `filters` (name:<text>,active:<bool>).
func ParseFilters(raw string) (Filter, error) {
	var f Filter
	if raw == "" {
		return f, nil
	}
	seen := map[string]bool{}
	for _, cond := range strings.Split(raw, ",") {
		key, value, ok := strings.Cut(cond, ":")
		if !ok || value == "" || seen[key] {
			return f, errs.InvalidField("query.filters", "filters is a comma-separated list of name:<text> and active:<true|false>, each at most once")
		}
		seen[key] = true
		switch key {
		case "name":
			f.Name = value
		case "active":
			if value != "true" && value != "false" {
				return f, errs.InvalidField("query.filters", "active is true or false")
			}
			b := value == "true"
			f.Active = &b
		default:
			return f, errs.InvalidField("query.filters", fmt.Sprintf("unknown filter %q: use name or active", key))
		}
	}
	return f, nil
}

// ListByPhone lists the team's workflows whose own number is phoneID, at most limit.
func (s *Service) ListByPhone(ctx context.Context, a auth.Actor, phoneID string, typ store.Direction, limit int) ([]Workflow, int, error) {
	if _, err := s.db.PhoneNumberOfTeam(ctx, a.OrganizationID, phoneID); errors.Is(err, store.ErrNotFound) {
		return nil, 0, errs.NotFoundf("Phone number")
	} else if err != nil {
		return nil, 0, err
	}
	return s.List(ctx, a, Filter{PhoneNumberID: phoneID, Type: typ}, Page{Limit: limit})
}

func (s *Service) campaign(ctx context.Context, orgID, id string) (store.Campaign, error) {
	c, err := s.db.CampaignByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return c, errs.NotFoundf("Campaign")
	}
	return c, err
}

func (s *Service) agent(ctx context.Context, orgID, id, field string) error {
	if _, err := s.db.AgentByID(ctx, orgID, id); errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Agent")
	} else if err != nil {
		return err
	}
	return nil
}

// Input is a new workflow.
type Input struct {
	Name           string
	AgentID        *string
	Type           store.Direction
	TemplateID     *string
	TemplateValues map[string]string
}

// Create creates a workflow outside campaigns: empty, or a copy of a template of the same type
// with its placeholders filled in.
func (s *Service) Create(ctx context.Context, a auth.Actor, in Input) (Workflow, error) {
	return s.create(ctx, a, nil, in)
}

// CreateInCampaign creates a workflow in a campaign, of the campaign's type: named after the
// campaign and spoken by its active agent unless the input says otherwise. It is not active.
func (s *Service) CreateInCampaign(ctx context.Context, a auth.Actor, campaignID string, in Input) (Workflow, error) {
	c, err := s.campaign(ctx, a.OrganizationID, campaignID)
	if err != nil {
		return Workflow{}, err
	}
	in.Type = c.Direction
	if strings.TrimSpace(in.Name) == "" {
		in.Name = CutName(c.Name + " workflow")
	}
	if in.AgentID == nil {
		agents, err := s.db.AgentsOfCampaigns(ctx, a.OrganizationID, []string{c.ID})
		if err != nil {
			return Workflow{}, err
		}
		if list := agents[c.ID]; len(list) > 0 && list[0].Status == store.AgentActive {
			in.AgentID = &list[0].ID
		}
	}
	return s.create(ctx, a, &c.ID, in)
}

func (s *Service) create(ctx context.Context, a auth.Actor, campaignID *string, in Input) (Workflow, error) {
	name, err := checkName("body.name", in.Name)
	if err != nil {
		return Workflow{}, err
	}
	g := workflow.Graph{Nodes: []workflow.Node{}, Edges: []workflow.Edge{}}
	if in.TemplateID != nil {
		t, err := s.db.WorkflowTemplateByID(ctx, *in.TemplateID)
		if errors.Is(err, store.ErrNotFound) {
			return Workflow{}, errs.NotFoundf("Workflow template")
		} else if err != nil {
			return Workflow{}, err
		}
		if t.Type != in.Type {
			return Workflow{}, errs.UnprocessableErr(fmt.Sprintf("The template %q is for %s workflows; this workflow is %s.", t.Name, t.Type, in.Type))
		}
		if g, err = fromTemplate(t, in.TemplateValues); err != nil {
			return Workflow{}, err
		}
	} else if len(in.TemplateValues) > 0 {
		return Workflow{}, errs.InvalidField("body.templateValues", "templateValues go with workflowTemplate")
	}
	w := store.Workflow{OrganizationID: a.OrganizationID, CampaignID: campaignID, Name: name, Type: in.Type,
		Template: in.TemplateID, PromptStatus: store.PromptInProgress}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if in.AgentID != nil {
			if err := s.agent(ctx, a.OrganizationID, *in.AgentID, "body.agentId"); err != nil {
				return err
			}
			w.AgentID = in.AgentID
		}
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

// compileLater queues the prompt compilation of w's current version (in the caller's
// transaction).
func (s *Service) compileLater(ctx context.Context, w store.Workflow) error {
	return s.jobs.Insert(ctx, compileArgs{OrganizationID: w.OrganizationID, WorkflowID: w.ID, Version: w.Version},
		&river.InsertOpts{MaxAttempts: compileAttempts})
}

// Save replaces a workflow's graph: the structure is checked, the graph normalised (the changes
// are reported back), the hard rules checked on the result (422, one error per node), and the
// graph stored under the next version if the stored one is still base (409 with the current
// version otherwise; base 0 saves whatever the stored version). The data of an existing
// data-access node and the contacts source of a contacts node are kept as stored; a contacts
// node the graph no longer has loses its source and contacts.
func (s *Service) Save(ctx context.Context, a auth.Actor, id string, g workflow.Graph, base int) (Workflow, error) {
	var changes []workflow.Change
	var purge []string
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		w, err := s.db.WorkflowByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		if base > 0 && w.Version != base {
			return stale(w.Version)
		}
		stored, err := decode(w)
		if err != nil {
			return err
		}
		g = keepOwnedData(stored.Graph, g)
		if g.Fields == nil { // a save that does not send the post-call fields keeps them
			g.Fields = stored.Graph.Fields
		}
		norm, ch, violations := workflow.Prepare(g, workflow.Type(w.Type))
		if len(violations) > 0 {
			return refused(violations)
		}
		changes = ch
		graph, nodes, err := encode(norm)
		if err != nil {
			return err
		}
		version, err := s.db.SaveWorkflowGraph(ctx, a.OrganizationID, id, graph, nodes, base)
		switch {
		case errors.Is(err, store.ErrStaleVersion):
			return stale(version)
		case err != nil:
			return err
		}
		w.Version = version
		if purge, err = s.dropRemovedContacts(ctx, a.OrganizationID, id, stored.Graph, norm); err != nil {
			return err
		}
		return s.compileLater(ctx, w)
	})
	if err != nil {
		return Workflow{}, err
	}
	for _, upload := range purge {
		s.files.Purge(ctx, a.OrganizationID, upload)
	}
	out, err := s.Get(ctx, a, id)
	out.Changes = changes
	return out, err
}

func stale(current int) error {
	e := errs.ConflictErr(fmt.Sprintf("This workflow was changed since you loaded it: it is at version %d now. Reload it, or save your graph again on top of it.", current))
	e.CurrentVersion = current
	return e
}

func refused(vs []workflow.Violation) error {
	fields := make([]errs.Field, 0, len(vs))
	for _, v := range vs {
		fields = append(fields, errs.Field{Name: v.Field, Message: v.Message})
	}
	e := errs.UnprocessableErr(vs[0].Message)
	e.Fields = fields
	return e
}

// keepOwnedData puts back what a save cannot change: the data of data-access nodes that exist
// already, and every contacts node's source.
func keepOwnedData(stored, g workflow.Graph) workflow.Graph {
	old := map[string]workflow.Node{}
	for _, n := range stored.Nodes {
		old[n.ID] = n
	}
	for i, n := range g.Nodes {
		o, ok := old[n.ID]
		switch {
		case ok && n.Type == workflow.DataAccess && o.Type == workflow.DataAccess:
			g.Nodes[i].Data = o.Data
		case n.Type == workflow.Contacts:
			d := workflow.Data{}
			for k, v := range n.Data {
				d[k] = v
			}
			delete(d, workflow.FieldSource)
			if ok && o.Data.String(workflow.FieldSource) != "" {
				d[workflow.FieldSource] = o.Data.String(workflow.FieldSource)
			}
			g.Nodes[i].Data = d
		}
	}
	return g
}

// UpdateNode merges params into one node's data (an empty string clears a text field) and saves
// the graph under the next version, through the same rules as Save.
func (s *Service) UpdateNode(ctx context.Context, a auth.Actor, workflowID, nodeID string, params map[string]any) (Workflow, error) {
	if _, has := params[workflow.FieldSource]; has {
		return Workflow{}, errs.UnprocessableErr("The contacts source is set with POST /v1/workflow/contacts.")
	}
	if _, has := params["contacts_source"]; has {
		return Workflow{}, errs.UnprocessableErr("The contacts source is set with POST /v1/workflow/contacts.")
	}
	w, err := s.Get(ctx, a, workflowID)
	if err != nil {
		return Workflow{}, err
	}
	g := w.Graph
	found := false
	for i, n := range g.Nodes {
		if n.ID != nodeID {
			continue
		}
		found = true
		if n.Type == workflow.DataAccess {
			return Workflow{}, errs.UnprocessableErr("Cannot edit Data Access Trigger")
		}
		d := workflow.Data{}
		for k, v := range n.Data {
			d[k] = v
		}
		for k, v := range params {
			if str, ok := v.(string); ok && str == "" {
				delete(d, k)
				continue
			}
			d[k] = v
		}
		g.Nodes[i].Data = d
	}
	if !found {
		return Workflow{}, errs.NotFoundf("Node")
	}
	g, err = workflow.Parse(mustJSON(g)) // rewrite snake_case keys sent in params
	if err != nil {
		return Workflow{}, err
	}
	return s.Save(ctx, a, workflowID, g, w.Version)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Rename renames a workflow (its version does not change; its prompt, which names it, is
// compiled again).
func (s *Service) Rename(ctx context.Context, a auth.Actor, id, name string) (Workflow, error) {
	name, err := checkName("query.name", name)
	if err != nil {
		return Workflow{}, err
	}
	return s.update(ctx, a, id, func(ctx context.Context, w *store.Workflow) error {
		w.Name = name
		return nil
	})
}

func (s *Service) update(ctx context.Context, a auth.Actor, id string, change func(ctx context.Context, w *store.Workflow) error) (Workflow, error) {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		w, err := s.db.WorkflowByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		name, agent := w.Name, w.AgentID
		if err := change(ctx, &w); err != nil {
			return err
		}
		// The prompt is compiled from the graph, the name and the agent: a new name or agent
		// queues a compilation of its own, even while one is under way (that one, having read
		// the old inputs, is not recorded: store.FinishWorkflowPrompt).
		recompile := w.Name != name || !store.SameID(w.AgentID, agent)
		if recompile {
			w.PromptStatus = store.PromptInProgress
		}
		if err := s.db.UpdateWorkflow(ctx, &w); err != nil {
			return notFound(err)
		}
		if recompile {
			return s.compileLater(ctx, w)
		}
		return nil
	})
	if err != nil {
		return Workflow{}, err
	}
	return s.Get(ctx, a, id)
}

// SetAgent makes agentID the workflow's agent and recompiles its prompt.
func (s *Service) SetAgent(ctx context.Context, a auth.Actor, id, agentID string) (Workflow, error) {
	return s.update(ctx, a, id, func(ctx context.Context, w *store.Workflow) error {
		if err := s.agent(ctx, a.OrganizationID, agentID, "body.agentId"); err != nil {
			return err
		}
		w.AgentID = &agentID
		return nil
	})
}

// SetPhoneNumber sets (or, with nil, removes) the workflow's own number. An inbound number
// answers one inbound workflow: one another inbound workflow has is refused (409).
func (s *Service) SetPhoneNumber(ctx context.Context, a auth.Actor, id string, phoneID *string) (Workflow, error) {
	return s.update(ctx, a, id, func(ctx context.Context, w *store.Workflow) error {
		w.PhoneNumberID = phoneID
		if phoneID == nil {
			return nil
		}
		if _, err := s.db.PhoneNumberOfTeam(ctx, a.OrganizationID, *phoneID); errors.Is(err, store.ErrNotFound) {
			return errs.NotFoundf("Phone number")
		} else if err != nil {
			return err
		}
		if w.Type != store.Inbound {
			return nil
		}
		others, _, err := s.db.ListWorkflows(ctx, a.OrganizationID, Filter{PhoneNumberID: *phoneID, Type: store.Inbound}, 2, 0)
		if err != nil {
			return err
		}
		for _, o := range others {
			if o.ID != w.ID {
				return errs.ConflictErr(fmt.Sprintf("This number already answers the inbound workflow %q: a number answers one inbound workflow at a time.", o.Name))
			}
		}
		return nil
	})
}

// ConfigureShopify makes the workflow the one the team's storefront widget starts (the previous
// one loses the flag). It must be outbound.
func (s *Service) ConfigureShopify(ctx context.Context, a auth.Actor, id string) (Workflow, error) {
	return s.update(ctx, a, id, func(ctx context.Context, w *store.Workflow) error {
		if w.Type != store.Outbound {
			return errs.UnprocessableErr("The storefront widget starts outbound workflows (it calls the shopper): choose an outbound workflow.")
		}
		w.ShopifyEnabled = true
		return s.db.ClearWorkflowShopify(ctx, a.OrganizationID)
	})
}

// Delete deletes a workflow; a campaign whose workflow it was loses it (and pauses when active).
func (s *Service) Delete(ctx context.Context, a auth.Actor, id string) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		if err := inuse.Check(ctx, s.db, a.OrganizationID, inuse.Workflow, id); err != nil {
			return err
		}
		return notFound(s.db.DeleteWorkflow(ctx, a.OrganizationID, id))
	})
}
