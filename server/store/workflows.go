package store

import (
	"context"
	"errors"
	"time"
)

// PromptStatus is where the compilation of a workflow's readable prompt stands.
type PromptStatus string

const (
	PromptInProgress PromptStatus = "in-progress"
	PromptSuccess    PromptStatus = "success"
	PromptError      PromptStatus = "error"
)

// ErrStaleVersion: a save was based on a version that is no longer the stored one.
var ErrStaleVersion = errors.New("store: stale version")

// Workflow is a workflow row; Active is read with a join (its campaign's workflow is it).
type Workflow struct {
	ID             string       `db:"id"`
	OrganizationID string       `db:"organization_id"`
	CampaignID     *string      `db:"campaign_id"`
	Name           string       `db:"name"`
	Type           Direction    `db:"workflow_type"`
	Template       *string      `db:"workflow_template"`
	AgentID        *string      `db:"agent_id"`
	PhoneNumberID  *string      `db:"phone_number_id"`
	ShopifyEnabled bool         `db:"shopify_enabled"`
	Version        int          `db:"version"`
	Graph          string       `db:"graph"` // JSON {"nodes": [...], "edges": [...]}
	PromptStatus   PromptStatus `db:"readable_prompt_status"`
	Prompt         *string      `db:"readable_prompt"`
	CreatedAt      time.Time    `db:"created_at"`
	UpdatedAt      time.Time    `db:"updated_at"`
	Active         bool         `db:"active"`
}

// WorkflowNode is a node id of a workflow (unique in its workflow only) with its kind.
type WorkflowNode struct {
	ID   string `db:"id"`
	Type string `db:"type"`
}

const workflowColumns = `id, organization_id, campaign_id, name, workflow_type, workflow_template, agent_id, phone_number_id,
	shopify_enabled, version, graph, readable_prompt_status, readable_prompt, created_at, updated_at`

var workflowSelect = `SELECT ` + prefixed("w.", workflowColumns) + `,
	CASE WHEN c.workflow_id IS NOT NULL AND c.workflow_id = w.id THEN TRUE ELSE FALSE END AS active
	FROM workflows w LEFT JOIN campaigns c ON c.id = w.campaign_id`

// CreateWorkflow inserts w (filling id, times and version 1) with its nodes.
func (db *DB) CreateWorkflow(ctx context.Context, w *Workflow, nodes []WorkflowNode) error {
	w.ID = NewID()
	w.CreatedAt = now()
	w.UpdatedAt = w.CreatedAt
	w.Version = 1
	_, err := db.exec(ctx, `INSERT INTO workflows (`+workflowColumns+`, name_folded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		w.ID, w.OrganizationID, w.CampaignID, w.Name, w.Type, w.Template, w.AgentID, w.PhoneNumberID, w.ShopifyEnabled, w.Version,
		w.Graph, w.PromptStatus, w.Prompt, w.CreatedAt, w.UpdatedAt, FoldName(w.Name))
	if err != nil {
		return err
	}
	return db.insertWorkflowNodes(ctx, w.OrganizationID, w.ID, nodes)
}

func (db *DB) insertWorkflowNodes(ctx context.Context, orgID, workflowID string, nodes []WorkflowNode) error {
	for _, n := range nodes {
		if _, err := db.exec(ctx, `INSERT INTO workflow_nodes (id, organization_id, workflow_id, type) VALUES (?, ?, ?, ?)`,
			n.ID, orgID, workflowID, n.Type); err != nil {
			return err
		}
	}
	return nil
}

// WorkflowByID returns a team's workflow, or ErrNotFound.
func (db *DB) WorkflowByID(ctx context.Context, orgID, id string) (Workflow, error) {
	var w Workflow
	err := db.get(ctx, db.read(ctx), &w, workflowSelect+` WHERE w.organization_id = ? AND w.id = ?`, orgID, id)
	return w, err
}

// WorkflowOrganization answers the organisation of a workflow, or ErrNotFound.
func (db *DB) WorkflowOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM workflows WHERE id = ?`, id)
	return org, err
}

// NodeOwner is a workflow that has a node.
type NodeOwner struct {
	OrganizationID string `db:"organization_id"`
	WorkflowID     string `db:"workflow_id"`
}

// WorkflowNodeOwners answers the workflows of the organisations orgIDs that have a node id
// (only workflowID when it is not empty): node ids are unique in their workflow only.
func (db *DB) WorkflowNodeOwners(ctx context.Context, orgIDs []string, nodeID, workflowID string) ([]NodeOwner, error) {
	out := []NodeOwner{}
	if len(orgIDs) == 0 {
		return out, nil
	}
	q := `SELECT organization_id, workflow_id FROM workflow_nodes WHERE organization_id IN (` + placeholders(len(orgIDs)) + `) AND id = ?`
	args := append(anys(orgIDs), nodeID)
	if workflowID != "" {
		q, args = q+` AND workflow_id = ?`, append(args, workflowID)
	}
	err := db.selectAll(ctx, db.read(ctx), &out, q+` ORDER BY workflow_id`, args...)
	return out, err
}

// WorkflowFilter narrows a list of workflows; zero values keep all.
type WorkflowFilter struct {
	Type          Direction
	CampaignID    string
	PhoneNumberID string
	// AgentID keeps the workflows that agent speaks.
	AgentID string
	// Name keeps names containing it, ignoring case.
	Name string
	// Active keeps the campaign's active workflow (true) or the others (false).
	Active *bool
}

// ListWorkflows lists a team's workflows, filtered, and how many match: a campaign's newest
// first, otherwise most recently updated first.
func (db *DB) ListWorkflows(ctx context.Context, orgID string, f WorkflowFilter, limit, offset int) ([]Workflow, int, error) {
	where, args := ` WHERE w.organization_id = ?`, []any{orgID}
	order := ` ORDER BY w.updated_at DESC, w.id DESC`
	if f.Type != "" {
		where, args = where+` AND w.workflow_type = ?`, append(args, f.Type)
	}
	if f.CampaignID != "" {
		where, args = where+` AND w.campaign_id = ?`, append(args, f.CampaignID)
		order = ` ORDER BY w.created_at DESC, w.id DESC`
	}
	if f.PhoneNumberID != "" {
		where, args = where+` AND w.phone_number_id = ?`, append(args, f.PhoneNumberID)
	}
	if f.AgentID != "" {
		where, args = where+` AND w.agent_id = ?`, append(args, f.AgentID)
	}
	if f.Name != "" {
		where, args = where+` AND w.name_folded LIKE ? ESCAPE '\'`, append(args, "%"+escapeLike(FoldName(f.Name))+"%")
	}
	if f.Active != nil {
		if *f.Active {
			where += ` AND c.workflow_id = w.id`
		} else {
			where += ` AND (c.workflow_id IS NULL OR c.workflow_id <> w.id)`
		}
	}
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM workflows w LEFT JOIN campaigns c ON c.id = w.campaign_id`+where, args...); err != nil {
		return nil, 0, err
	}
	out := []Workflow{}
	if total == 0 {
		return out, 0, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, workflowSelect+where+order+` LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	return out, total, err
}

// SaveWorkflowGraph replaces a team's workflow's graph and node ids, increments its version and
// marks its prompt in progress, answering the new version. With base > 0 it saves only over
// that version (ErrStaleVersion otherwise). Run it in a transaction.
func (db *DB) SaveWorkflowGraph(ctx context.Context, orgID, id, graph string, nodes []WorkflowNode, base int) (int, error) {
	q := `UPDATE workflows SET graph = ?, version = version + 1, readable_prompt_status = ?, updated_at = ?
		WHERE organization_id = ? AND id = ?`
	args := []any{graph, PromptInProgress, now(), orgID, id}
	if base > 0 {
		q, args = q+` AND version = ?`, append(args, base)
	}
	n, err := db.exec(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	w, err := db.WorkflowByID(ctx, orgID, id)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return w.Version, ErrStaleVersion
	}
	if _, err := db.exec(ctx, `DELETE FROM workflow_nodes WHERE organization_id = ? AND workflow_id = ?`, orgID, id); err != nil {
		return 0, err
	}
	return w.Version, db.insertWorkflowNodes(ctx, orgID, id, nodes)
}

// UpdateWorkflow writes a team's workflow's settings: name, agent, phone number, storefront
// flag and prompt status (not its graph or version).
func (db *DB) UpdateWorkflow(ctx context.Context, w *Workflow) error {
	w.UpdatedAt = now()
	return db.one(ctx, `UPDATE workflows SET name = ?, name_folded = ?, agent_id = ?, phone_number_id = ?, shopify_enabled = ?,
		readable_prompt_status = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		w.Name, FoldName(w.Name), w.AgentID, w.PhoneNumberID, w.ShopifyEnabled, w.PromptStatus, w.UpdatedAt, w.OrganizationID, w.ID)
}

// FinishWorkflowPrompt records a prompt compiled from w (or, with a nil prompt, a failure
// keeping the last good text) if the workflow still has w's version, name and agent, the
// compilation's inputs: a compilation that read an agent or name changed since is not recorded
// (the change queued its own). It answers whether it was.
func (db *DB) FinishWorkflowPrompt(ctx context.Context, w Workflow, status PromptStatus, prompt *string) (bool, error) {
	agent := ""
	if w.AgentID != nil {
		agent = *w.AgentID
	}
	n, err := db.exec(ctx, `UPDATE workflows SET readable_prompt_status = ?, readable_prompt = COALESCE(?, readable_prompt)
		WHERE organization_id = ? AND id = ? AND version = ? AND name = ? AND COALESCE(agent_id, '') = ?`,
		status, prompt, w.OrganizationID, w.ID, w.Version, w.Name, agent)
	return n > 0, err
}

// ClearWorkflowShopify takes the storefront flag off every workflow of a team.
func (db *DB) ClearWorkflowShopify(ctx context.Context, orgID string) error {
	_, err := db.exec(ctx, `UPDATE workflows SET shopify_enabled = FALSE WHERE organization_id = ? AND shopify_enabled`, orgID)
	return err
}

// DeleteWorkflow deletes a team's workflow (its nodes go with it). A campaign whose workflow it
// was loses it, and an active one is paused.
func (db *DB) DeleteWorkflow(ctx context.Context, orgID, id string) error {
	if err := db.SetCampaignWorkflowIfCurrent(ctx, orgID, id); err != nil {
		return err
	}
	return db.one(ctx, `DELETE FROM workflows WHERE organization_id = ? AND id = ?`, orgID, id)
}

// SetCampaignWorkflow makes workflowID the workflow of a team's campaign.
func (db *DB) SetCampaignWorkflow(ctx context.Context, orgID, campaignID, workflowID string) error {
	return db.one(ctx, `UPDATE campaigns SET workflow_id = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		workflowID, now(), orgID, campaignID)
}

// SetCampaignWorkflowIfCurrent clears the workflow of the team's campaign whose workflow is
// workflowID, pausing it when it was active.
func (db *DB) SetCampaignWorkflowIfCurrent(ctx context.Context, orgID, workflowID string) error {
	_, err := db.exec(ctx, `UPDATE campaigns SET workflow_id = NULL,
		status = CASE WHEN status = ? THEN ? ELSE status END, updated_at = ?
		WHERE organization_id = ? AND workflow_id = ?`, CampaignActive, CampaignPaused, now(), orgID, workflowID)
	return err
}

// WorkflowsOfCampaigns answers the workflows of a team's campaigns, newest first, by campaign.
func (db *DB) WorkflowsOfCampaigns(ctx context.Context, orgID string, campaignIDs []string) (map[string][]Workflow, error) {
	out := map[string][]Workflow{}
	if len(campaignIDs) == 0 {
		return out, nil
	}
	var rows []Workflow
	err := db.selectAll(ctx, db.read(ctx), &rows, workflowSelect+` WHERE w.organization_id = ? AND w.campaign_id IN (`+
		placeholders(len(campaignIDs))+`) ORDER BY w.created_at DESC, w.id DESC`, append([]any{orgID}, anys(campaignIDs)...)...)
	for _, w := range rows {
		out[*w.CampaignID] = append(out[*w.CampaignID], w)
	}
	return out, err
}

// WorkflowTemplate is a ready-made graph.
type WorkflowTemplate struct {
	ID           string    `db:"id"`
	Name         string    `db:"name"`
	Description  string    `db:"description"`
	Type         Direction `db:"workflow_type"`
	Placeholders string    `db:"placeholders"` // JSON [{"key", "label"}]
	Graph        string    `db:"graph"`
	CreatedAt    time.Time `db:"created_at"`
	UpdatedAt    time.Time `db:"updated_at"`
}

const templateColumns = `id, name, description, workflow_type, placeholders, graph, created_at, updated_at`

// ListWorkflowTemplates lists the templates by name (of one type when given) and how many match.
func (db *DB) ListWorkflowTemplates(ctx context.Context, typ Direction, limit, offset int) ([]WorkflowTemplate, int, error) {
	where, args := ``, []any{}
	if typ != "" {
		where, args = ` WHERE workflow_type = ?`, append(args, typ)
	}
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM workflow_templates`+where, args...); err != nil {
		return nil, 0, err
	}
	out := []WorkflowTemplate{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+templateColumns+` FROM workflow_templates`+where+
		` ORDER BY name, id LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	return out, total, err
}

// WorkflowTemplateByID returns a template, or ErrNotFound.
func (db *DB) WorkflowTemplateByID(ctx context.Context, id string) (WorkflowTemplate, error) {
	var t WorkflowTemplate
	err := db.get(ctx, db.read(ctx), &t, `SELECT `+templateColumns+` FROM workflow_templates WHERE id = ?`, id)
	return t, err
}
