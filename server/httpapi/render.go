package httpapi

import (
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/server/agents"
	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/identity"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/teams"
	"github.com/bettyhq/betty/server/workflow"
	"github.com/bettyhq/betty/server/workflows"
)

// Renderers turn domain values into the contract's types. They never query: the domain hands
// them everything they show, looked up in batches.

func renderSummary(u store.User) api.UserSummary {
	p := identity.ProfileOf(u)
	return api.UserSummary{Id: u.ID, Email: openapi_types.Email(u.Email), Name: p.Name, AvatarUrl: p.AvatarURL}
}

func renderSummaryPtr(u *store.User) *api.UserSummary {
	if u == nil {
		return nil
	}
	s := renderSummary(*u)
	return &s
}

func renderProfile(p identity.Profile) api.UserProfile {
	return api.UserProfile{Name: p.Name, AvatarUrl: p.AvatarURL, PhoneNumber: p.PhoneNumber, JobTitle: p.JobTitle,
		Timezone: p.Timezone, Locale: p.Locale, Preferences: p.Preferences}
}

func renderAccount(a identity.Account) api.User {
	u := a.User
	return api.User{
		Id: u.ID, Email: openapi_types.Email(u.Email), Profile: renderProfile(a.Profile), IsSiteAdmin: u.IsSiteAdmin,
		IsInternal: a.Internal, HasNoTeamsOwned: !a.OwnsTeams,
		EmailConfirmed: u.EmailConfirmedAt != nil, EmailConfirmedAt: u.EmailConfirmedAt,
		LastSignInAt: u.LastSignInAt, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt,
	}
}

func renderSession(s identity.Session) api.Session {
	return api.Session{AccessToken: s.AccessToken, RefreshToken: s.RefreshToken, TokenType: api.Bearer, ExpiresAt: s.AccessExpiresAt,
		ExpiresIn: max(1, int(s.AccessTTL.Seconds())), RefreshTokenExpiresAt: s.RefreshExpiresAt, User: renderAccount(s.Account)}
}

func renderTeam(t teams.Team) api.Organization {
	o := t.Organization
	out := api.Organization{
		Id: o.ID, Name: o.Name, CompanyName: optional(o.CompanyName), PlatformKey: optional(o.PlatformKey),
		Industry: optional(o.Industry), Purpose: optional(o.Purpose), Owner: renderSummary(t.Owner), PublicApiKey: o.PublicAPIKey,
		VerificationLevel: api.VerificationLevel(o.VerificationLevel), SubscriptionTier: api.SubscriptionTier(o.SubscriptionTier),
		CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
	}
	if t.MyRole != "" {
		r := api.TeamRole(t.MyRole)
		out.MyRole = &r
	}
	return out
}

func renderMember(m teams.Member) api.TeamMember {
	out := api.TeamMember{Id: m.ID, OrganizationId: m.OrganizationID, Email: openapi_types.Email(m.Email),
		Role: api.TeamRole(m.Role), Status: api.MemberStatus(m.Status), InvitedAt: m.InvitedAt, JoinedAt: m.JoinedAt,
		RemovedAt: m.RemovedAt, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
	if m.User != nil {
		id := m.User.ID
		out.UserId = &id
		out.Name = identity.ProfileOf(*m.User).Name
	}
	return out
}

func renderInvitation(i teams.Invitation) api.Invitation {
	m := i.Member
	return api.Invitation{Id: m.ID, OrganizationMemberId: m.ID, OrganizationId: i.Team.ID, OrganizationName: i.Team.Name,
		Email: openapi_types.Email(m.Email), Role: api.TeamRole(m.Role), ExpiresAt: i.ExpiresAt,
		InvitedBy: renderSummaryPtr(i.InvitedBy), CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

func renderAPIKey(k teams.APIKey) api.ApiKey {
	out := api.ApiKey{Id: k.ID, OrganizationId: k.OrganizationID, Name: k.Name, Prefix: k.Prefix, Role: api.TeamRole(k.Role),
		CreatedBy: renderSummaryPtr(k.Creator), LastUsedAt: k.LastUsedAt, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}
	if k.CreatorStatus != "" {
		s := api.MemberStatus(k.CreatorStatus)
		out.CreatedByStatus = &s
	}
	return out
}

func renderVerificationRequest(v store.VerificationRequest) api.VerificationRequest {
	return api.VerificationRequest{Id: v.ID, OrganizationId: v.OrganizationID, CurrentLevel: api.VerificationLevel(v.CurrentLevel),
		RequestedLevel: api.VerificationLevel(v.RequestedLevel), Status: api.VerificationRequestStatus(v.Status),
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}
}

func renderAdminTeam(a teams.AdminTeam) api.AdminOrganization {
	out := api.AdminOrganization{Organization: renderTeam(a.Team), MemberCount: a.MemberCount, Balance: a.CreditsBalance,
		SubscriptionEndAt: a.SubscriptionEndAt, RefreshedAt: a.RefreshedAt}
	if a.PendingRequest != nil {
		v := renderVerificationRequest(*a.PendingRequest)
		out.PendingVerificationRequest = &v
	}
	return out
}

func renderUserTeams(u teams.UserTeams, internal bool) api.UserOrganizations {
	out := api.UserOrganizations{User: renderSummary(u.User), IsSiteAdmin: u.User.IsSiteAdmin, IsInternal: internal,
		Organizations: make([]api.UserOrganization, 0, len(u.Memberships))}
	for _, m := range u.Memberships {
		out.Organizations = append(out.Organizations, api.UserOrganization{
			OrganizationId: m.Team.ID, OrganizationMemberId: m.Member.ID, Name: m.Team.Name, CompanyName: optional(m.Team.CompanyName),
			Role: api.TeamRole(m.Member.Role), Status: api.MemberStatus(m.Member.Status),
			VerificationLevel: api.VerificationLevel(m.Team.VerificationLevel),
			SubscriptionTier:  api.SubscriptionTier(m.Team.SubscriptionTier), JoinedAt: m.Member.JoinedAt,
		})
	}
	return out
}

func renderOutboxMessage(e store.Email) api.OutboxMessage {
	out := api.OutboxMessage{Id: e.ID, Recipient: openapi_types.Email(e.Recipient), Subject: e.Subject,
		Kind: api.OutboxMessageKind(e.Kind), Text: e.Body, Link: optional(e.Link), Status: api.OutboxMessageStatus(e.Status),
		Attempts: e.Attempts, Error: optional(e.Error), CreatedAt: e.CreatedAt, SentAt: e.SentAt}
	return out
}

// optional renders an empty string as null.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func renderBillingAddress(o store.Organization) (api.TeamBillingAddress, error) {
	a, at, err := billing.AddressOf(o)
	if err != nil {
		return api.TeamBillingAddress{}, err
	}
	out := api.TeamBillingAddress{OrganizationId: o.ID, UpdatedAt: at}
	if a != nil {
		out.BillingAddress = &api.BillingAddress{Line1: a.Line1, Line2: a.Line2, City: a.City, State: a.State,
			PostalCode: a.PostalCode, Country: a.Country}
	}
	return out, nil
}

func renderCampaign(c campaigns.Campaign) api.Campaign {
	s := c.Settings
	days := make([]api.CampaignWeekday, 0, len(s.CallWindow.Days))
	for _, d := range s.CallWindow.Days {
		days = append(days, api.CampaignWeekday(d))
	}
	return api.Campaign{
		Id: c.ID, OrganizationId: c.OrganizationID, Name: c.Name, Type: api.CallDirection(c.Direction),
		Status: api.CampaignStatus(c.Status), Priority: api.CampaignPriority(c.Priority), Purpose: api.CampaignPurpose(c.Purpose),
		WorkflowId: c.WorkflowID, PhoneNumberId: c.PhoneNumberID, PhoneNumber: c.PhoneNumber,
		Settings: api.CampaignSettings{MaxConcurrentCalls: s.MaxConcurrentCalls, Timezone: s.Timezone, RetryAttempts: s.RetryAttempts,
			RetryDelayMinutes: s.RetryDelayMinutes, VoicemailAction: api.CampaignVoicemailAction(s.VoicemailAction),
			VoicemailMessage: s.VoicemailMessage, RecordCalls: s.RecordCalls, MaxCallDurationMinutes: s.MaxCallDurationMinutes,
			CallWindow:         api.CampaignCallWindow{Start: s.CallWindow.Start, End: s.CallWindow.End, Days: days},
			AllowedNumberTypes: mapped(s.AllowedNumberTypes, func(k phones.Kind) api.CampaignNumberType { return api.CampaignNumberType(k) })},
		Workflows: mapped(c.Workflows, renderCampaignWorkflow),
		Agents: mapped(c.Agents, func(a store.Agent) api.CampaignAgentSummary {
			return api.CampaignAgentSummary{Id: a.ID, Name: a.Name, Status: api.AgentStatus(a.Status)}
		}),
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
	}
}

func renderAgent(ag agents.Agent) api.AgentProfile {
	return api.AgentProfile{Id: ag.ID, OrganizationId: ag.OrganizationID, Name: ag.Name, Status: api.AgentStatus(ag.Status),
		Greeting: ag.Greeting, Instructions: ag.Instructions, VoiceId: ag.VoiceID, VoicePresetId: ag.VoicePresetID,
		Language: ag.Language, Faq: ag.FAQ, KnowledgeFiles: mapped(ag.KnowledgeFiles, func(f agents.KnowledgeFile) api.AgentKnowledgeFile { return renderAgentKnowledgeFile(ag.ID, f) }), AudioFiles: mapped(ag.AudioFiles, renderAudioFile),
		CampaignId: ag.CampaignID, KnowledgeBaseId: ag.KnowledgeBaseID, CreatedAt: ag.CreatedAt, UpdatedAt: ag.UpdatedAt}
}

func renderAudioFile(f agents.Audio) api.AgentAudioFile {
	return api.AgentAudioFile{Id: f.ID, AgentId: f.AgentID, OrganizationId: f.OrganizationID, Url: f.URL, FileName: f.FileName,
		SummaryStatus: api.AgentAudioSummaryStatus(f.SummaryStatus), Summary: f.Summary, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt}
}

func renderAgentKnowledgeFile(agentID string, f agents.KnowledgeFile) api.AgentKnowledgeFile {
	size := int(f.Size)
	return api.AgentKnowledgeFile{Id: f.ID, AgentId: agentID, OrganizationId: f.OrganizationID, Name: f.Name, FileUrl: f.URL,
		Size: &size, Pages: f.Pages, Type: f.Type, Status: api.AgentFileStatus(f.Status), CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt}
}

func renderWorkflow(w workflows.Workflow, withGraph bool) api.Workflow {
	out := renderWorkflowSummary(w)
	if withGraph {
		var g struct {
			Nodes []api.WorkflowNode `json:"nodes"`
			Edges []api.WorkflowEdge `json:"edges"`
		}
		if err := roundTrip(w.Graph, &g); err == nil { // a graph the store decoded always encodes
			out.Nodes, out.Edges = &g.Nodes, &g.Edges
		}
		out.PostCallFields = renderPostCallFields(w.Graph.Fields)
		problems := mapped(w.Problems, func(v workflow.Violation) api.FieldError { return api.FieldError{Field: v.Field, Message: v.Message} })
		out.Problems = &problems
		warnings := mapped(w.Warnings, func(v workflow.Violation) api.FieldError { return api.FieldError{Field: v.Field, Message: v.Message} })
		out.Warnings = &warnings
	}
	if w.Changes != nil {
		changes := mapped(w.Changes, func(c workflow.Change) api.WorkflowGraphChange {
			return api.WorkflowGraphChange{Rule: api.WorkflowGraphChangeRule(c.Rule), NodeId: optional(c.NodeID), EdgeId: optional(c.EdgeID)}
		})
		out.Normalization = &changes
	}
	return out
}

func renderWorkflowSummary(w workflows.Workflow) api.Workflow {
	return api.Workflow{Id: w.ID, Name: w.Name, OrganizationId: w.OrganizationID, AgentId: w.AgentID,
		WorkflowType: api.WorkflowType(w.Type), WorkflowTemplate: w.Template, ReadablePromptStatus: api.PromptStatus(w.PromptStatus),
		ReadablePrompt: w.Prompt, PhoneNumberId: w.PhoneNumberID, Active: w.Active, CampaignId: w.CampaignID,
		ShopifyEnabled: w.ShopifyEnabled, Version: w.Version, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

func renderCampaignWorkflow(w store.Workflow) api.CampaignWorkflowSummary {
	return api.CampaignWorkflowSummary{Id: w.ID, Name: w.Name, CampaignId: deref(w.CampaignID), WorkflowType: api.WorkflowType(w.Type),
		Active: w.Active, AgentId: w.AgentID, PhoneNumberId: w.PhoneNumberID, ReadablePromptStatus: api.PromptStatus(w.PromptStatus),
		Version: w.Version, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

func renderWorkflowTemplate(t workflows.Template) api.WorkflowTemplate {
	var g struct {
		Nodes []api.WorkflowNode `json:"nodes"`
		Edges []api.WorkflowEdge `json:"edges"`
	}
	_ = roundTrip(t.Graph, &g) // a graph the store decoded always encodes
	return api.WorkflowTemplate{Id: t.ID, Name: t.Name, Description: t.Description, WorkflowType: api.WorkflowType(t.Type),
		Placeholders: mapped(t.Placeholders, func(p workflows.Placeholder) api.WorkflowTemplatePlaceholder {
			return api.WorkflowTemplatePlaceholder{Key: p.Key, Label: p.Label}
		}), Nodes: g.Nodes, Edges: g.Edges, PostCallFields: renderPostCallFields(t.Graph.Fields), CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}
