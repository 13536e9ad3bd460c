// Package campaigns is the campaign domain: a set of inbound or outbound calls with one purpose,
// its settings (how calls are placed), the phone number it uses, its agents and workflows. The
// status rules (a campaign's status follows its runs: status.go, docs/campaign-status.md), the one-inbound-campaign-per-number rule and duplication live here; the HTTP
// handlers and the dialer call the same methods.
package campaigns

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/runs/inuse"
	"github.com/bettyhq/betty/server/store"
)

const (
	// DefaultName names a campaign created without a name.
	DefaultName = "Untitled campaign"
	// MaxName is the longest name (the contract's limit); copies are cut to it.
	MaxName = 100
)

// Service is the campaign domain.
type Service struct {
	db        *store.DB
	workflows Workflows
	events    events.Publisher // nil: no live events
}

// Workflows copies a campaign's workflows (the workflows feature; app satisfies it).
type Workflows interface {
	// CopyCampaignWorkflows copies every workflow of campaign from into campaign to, in the
	// caller's transaction, speaking through agents[old agent id] when the agent was copied.
	CopyCampaignWorkflows(ctx context.Context, orgID, from, to string, agents map[string]string) error
}

// New returns the campaign service; workflows copies workflows when a campaign is duplicated.
func New(db *store.DB, workflows Workflows) *Service { return &Service{db: db, workflows: workflows} }

// SetEvents publishes campaign.updated to the team's event stream, in the transaction of
// every change (created, updated, deleted, duplicated).
func (s *Service) SetEvents(p events.Publisher) { s.events = p }

// changed publishes campaign.updated for campaign id (when events are set).
func (s *Service) changed(ctx context.Context, orgID, id string) error {
	if s.events == nil {
		return nil
	}
	return s.events.Publish(ctx, orgID, "campaign.updated", id)
}

// Campaign is a campaign with its decoded settings, its agents (the active one first) and its
// workflows (newest first, without their graphs).
type Campaign struct {
	store.Campaign
	Settings  Settings
	Agents    []store.Agent
	Workflows []store.Workflow
}

// Page asks for one page of a list.
type Page struct{ Limit, Offset int }

var errNotFound = errs.NotFoundf("Campaign")

func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	}
	return err
}

// OrganizationOf answers the organisation a campaign belongs to (for the HTTP guard).
func (s *Service) OrganizationOf(ctx context.Context, id string) (string, error) {
	org, err := s.db.CampaignOrganization(ctx, id)
	return org, notFound(err)
}

// List lists the team's campaigns newest first, filtered by status and name, and how many
// match.
func (s *Service) List(ctx context.Context, a auth.Actor, f store.CampaignFilter, pg Page) ([]Campaign, int, error) {
	rows, total, err := s.db.ListCampaigns(ctx, a.OrganizationID, f, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.withAgents(ctx, a.OrganizationID, rows)
	return out, total, err
}

// withAgents adds each campaign's agents, looked up in one query.
func (s *Service) withAgents(ctx context.Context, orgID string, rows []store.Campaign) ([]Campaign, error) {
	ids := make([]string, 0, len(rows))
	for _, c := range rows {
		ids = append(ids, c.ID)
	}
	agents, err := s.db.AgentsOfCampaigns(ctx, orgID, ids)
	if err != nil {
		return nil, err
	}
	workflows, err := s.db.WorkflowsOfCampaigns(ctx, orgID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Campaign, 0, len(rows))
	for _, c := range rows {
		out = append(out, Campaign{Campaign: c, Settings: decodeSettings(c.Settings), Agents: agents[c.ID], Workflows: workflows[c.ID]})
	}
	return out, nil
}

// Get answers one of the team's campaigns.
func (s *Service) Get(ctx context.Context, a auth.Actor, id string) (Campaign, error) {
	c, err := s.db.CampaignByID(ctx, a.OrganizationID, id)
	if err != nil {
		return Campaign{}, notFound(err)
	}
	out, err := s.withAgents(ctx, a.OrganizationID, []store.Campaign{c})
	if err != nil {
		return Campaign{}, err
	}
	return out[0], nil
}

// Input is a campaign as a client sends it; on update, nil fields keep their value (and
// Settings, when present, replaces the stored settings as a whole).
type Input struct {
	Name      *string
	Direction *store.Direction
	Status    *store.CampaignStatus
	Priority  *string
	Purpose   *string
	Settings  *SettingsInput
	// PhoneNumberID: nil keeps the number; a pointer to "" removes it.
	PhoneNumberID *string
}

// Create creates a campaign: outbound, draft, medium priority, purpose Other and the default
// settings unless the input says otherwise. A new campaign has no workflow, so it cannot start
// active.
func (s *Service) Create(ctx context.Context, a auth.Actor, in Input) (Campaign, error) {
	c := store.Campaign{OrganizationID: a.OrganizationID, Name: DefaultName, Direction: store.Outbound, Status: store.CampaignDraft,
		Priority: "medium", Purpose: "Other"}
	settings := DefaultSettings()
	if in.Settings != nil {
		var err error
		if settings, err = in.Settings.Settings(); err != nil {
			return Campaign{}, err
		}
	}
	if in.Status != nil && *in.Status == store.CampaignActive {
		return Campaign{}, errs.UnprocessableErr("A new campaign cannot start active: it has no workflow yet. Create it, give it a workflow and a phone number, then activate it.")
	}
	if err := apply(&c, in); err != nil {
		return Campaign{}, err
	}
	c.Settings = settings.encode()
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		if c.PhoneNumberID != nil {
			if err := s.checkNumber(ctx, c, ""); err != nil {
				return err
			}
		}
		if err := s.db.CreateCampaign(ctx, &c); err != nil {
			return err
		}
		return s.changed(ctx, c.OrganizationID, c.ID)
	})
	if err != nil {
		return Campaign{}, err
	}
	return s.Get(ctx, a, c.ID)
}

// apply copies the fields present in in onto c.
func apply(c *store.Campaign, in Input) error {
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if name == "" {
			return errs.InvalidField("body.name", "name cannot be empty")
		}
		c.Name = name
	}
	if in.Direction != nil {
		c.Direction = *in.Direction
	}
	if in.Status != nil {
		c.Status = *in.Status
	}
	if in.Priority != nil {
		c.Priority = *in.Priority
	}
	if in.Purpose != nil {
		c.Purpose = *in.Purpose
	}
	if in.PhoneNumberID != nil {
		if *in.PhoneNumberID == "" {
			c.PhoneNumberID = nil
		} else {
			id := *in.PhoneNumberID
			c.PhoneNumberID = &id
		}
	}
	return nil
}

// Update changes the fields present. The rules: a campaign cannot be made active without an
// active workflow and a phone number; an inbound campaign's number answers for it alone, so a
// number another inbound campaign has is refused (409); removing the number pauses an active
// campaign; the number must be the team's.
func (s *Service) Update(ctx context.Context, a auth.Actor, id string, in Input) (Campaign, error) {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		c, err := s.db.CampaignByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		before := c
		if err := apply(&c, in); err != nil {
			return err
		}
		if in.Settings != nil {
			settings, err := in.Settings.Settings()
			if err != nil {
				return err
			}
			c.Settings = settings.encode()
		}
		numberChanged := !store.SameID(before.PhoneNumberID, c.PhoneNumberID)
		switch {
		case c.PhoneNumberID == nil && before.PhoneNumberID != nil && c.Status == store.CampaignActive:
			c.Status = store.CampaignPaused // no number, nothing to call with
		case c.Status == store.CampaignActive && before.Status != store.CampaignActive:
			if c.WorkflowID == nil || c.PhoneNumberID == nil {
				return errs.UnprocessableErr("A campaign can only be activated with an active workflow and a phone number.")
			}
		}
		if c.PhoneNumberID != nil && (numberChanged || before.Direction != c.Direction) {
			if err := s.checkNumber(ctx, c, c.ID); err != nil {
				return err
			}
		}
		if numberChanged {
			c.PhoneAssignedAt = nil
			if c.PhoneNumberID != nil {
				t := now()
				c.PhoneAssignedAt = &t
			}
		}
		if err := s.db.UpdateCampaign(ctx, &c); err != nil {
			return err
		}
		return s.changed(ctx, c.OrganizationID, c.ID)
	})
	if err != nil {
		return Campaign{}, err
	}
	return s.Get(ctx, a, id)
}

// checkNumber checks that c's number is the team's and, for an inbound campaign, that no other
// inbound campaign (but except) answers it.
func (s *Service) checkNumber(ctx context.Context, c store.Campaign, except string) error {
	if _, err := s.db.PhoneNumberOfTeam(ctx, c.OrganizationID, *c.PhoneNumberID); errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Phone number")
	} else if err != nil {
		return err
	}
	if c.Direction != store.Inbound {
		return nil
	}
	others, _, err := s.db.CampaignsUsingPhone(ctx, c.OrganizationID, *c.PhoneNumberID, store.Inbound, 2)
	if err != nil {
		return err
	}
	for _, o := range others {
		if o.ID != except {
			return errs.ConflictErr("This number already answers the inbound campaign \"" + o.Name + "\". A number answers one inbound campaign at a time: give that campaign another number first.")
		}
	}
	return nil
}

// Delete deletes a campaign; its agents stay, unlinked, its number is freed, and its workflows
// and their jobs go with it. A campaign with a run in progress is refused (409).
func (s *Service) Delete(ctx context.Context, a auth.Actor, id string) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		if err := inuse.Check(ctx, s.db, a.OrganizationID, inuse.Campaign, id); err != nil {
			return err
		}
		if err := notFound(s.db.DeleteCampaign(ctx, a.OrganizationID, id)); err != nil {
			return err
		}
		return s.changed(ctx, a.OrganizationID, id)
	})
}

// Duplicate copies a campaign: "Copy of <name>" (cut to the longest name), draft, the same
// type, priority, purpose and settings, a copy of every agent with the same statuses, a copy
// of every workflow (spoken by the copied agents; the copy of the active one active), and no
// phone number (an inbound number answers for one campaign only).
func (s *Service) Duplicate(ctx context.Context, a auth.Actor, id string) (Campaign, error) {
	var copyID string
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		orig, err := s.db.CampaignByID(ctx, a.OrganizationID, id)
		if err != nil {
			return notFound(err)
		}
		c := orig
		c.Name = CopyName(orig.Name, MaxName)
		c.Status = store.CampaignDraft
		c.WorkflowID, c.PhoneNumberID, c.PhoneAssignedAt = nil, nil, nil
		if err := s.db.CreateCampaign(ctx, &c); err != nil {
			return err
		}
		copyID = c.ID
		agents, _, err := s.db.CampaignAgents(ctx, a.OrganizationID, orig.ID, 1000, 0)
		if err != nil {
			return err
		}
		copied := make(map[string]string, len(agents))
		for i := len(agents) - 1; i >= 0; i-- { // oldest first, so the copies keep their order
			ag := agents[i]
			ag.CampaignID = &copyID
			if err := s.db.CreateAgent(ctx, &ag); err != nil {
				return err
			}
			copied[agents[i].ID] = ag.ID
		}
		if err := s.workflows.CopyCampaignWorkflows(ctx, a.OrganizationID, orig.ID, copyID, copied); err != nil {
			return err
		}
		return s.changed(ctx, a.OrganizationID, copyID)
	})
	if err != nil {
		return Campaign{}, err
	}
	return s.Get(ctx, a, copyID)
}

// CopyName is "Copy of " + name, cut to max characters (runes).
func CopyName(name string, max int) string {
	r := []rune("Copy of " + name)
	if len(r) > max {
		r = r[:max]
	}
	return strings.TrimSpace(string(r))
}

// PhoneAssignments lists the team's campaigns a number is assigned to (of one direction when
// given), newest assignment first, at most limit, and how many there are.
func (s *Service) PhoneAssignments(ctx context.Context, orgID, phoneID string, direction store.Direction, limit int) ([]store.Campaign, int, error) {
	return s.db.CampaignsUsingPhone(ctx, orgID, phoneID, direction, limit)
}

// PhoneOrganizationOf answers the organisation a phone number belongs to (for the HTTP guard).
func (s *Service) PhoneOrganizationOf(ctx context.Context, phoneID string) (string, error) {
	org, err := s.db.PhoneNumberOrganization(ctx, phoneID)
	if errors.Is(err, store.ErrNotFound) {
		return "", errs.NotFoundf("Phone number")
	}
	return org, err
}

func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
