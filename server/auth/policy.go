package auth

// Access is who may call an operation at all.
type Access int

const (
	// Public operations need no credentials.
	Public Access = iota
	// Refresh operations authenticate with the refresh token only (the handler checks it).
	Refresh
	// User operations need a signed-in user (not an API key); no team is involved.
	User
	// Any operations need a signed-in user or an API key; no team is checked (the handler
	// scopes what it answers to the caller).
	Any
	// Team operations act on one organisation: the caller must be an active member (or an
	// API key of that team) with at least the rule's role.
	Team
	// SiteAdmin operations need a signed-in site administrator.
	SiteAdmin
)

// OrgFrom says where a team operation finds its organisation id.
type OrgFrom string

const (
	FromQuery    OrgFrom = "query:organizationId"
	FromBody     OrgFrom = "body:organizationId"
	FromPathTeam OrgFrom = "path:teamId"
	FromPathID   OrgFrom = "path:id"
	FromPathOrg  OrgFrom = "path:organizationId"
	FromBodyID   OrgFrom = "body:id"
	// FromResource: the id names a resource; the handler finds its organisation and calls
	// Authorize with it, under the same rule.
	FromResource OrgFrom = "resource"
	// FromKey: the caller is an API key and acts for its own team.
	FromKey OrgFrom = "key"
)

// Rule is the policy of one operation.
type Rule struct {
	Access Access
	// MinRole is the least role allowed (Team operations).
	MinRole Role
	Org     OrgFrom
	// UsersOnly refuses API keys on a Team operation (managing keys, spending money).
	UsersOnly bool
}

func team(min Role, from OrgFrom) Rule { return Rule{Access: Team, MinRole: min, Org: from} }
func teamUser(min Role, from OrgFrom) Rule {
	return Rule{Access: Team, MinRole: min, Org: from, UsersOnly: true}
}

var (
	public = Rule{Access: Public}
	user   = Rule{Access: User}
	admin  = Rule{Access: SiteAdmin}
)

// Policy maps every operationId of the contract to its rule: the one place that says who may
// do what (docs/roles.md explains the choices). TestPolicyCoversTheContract fails when an
// operation has no entry.
var Policy = map[string]Rule{
	// System
	"getHealth": public, "getReadiness": public, "getMetrics": public, "getServerInfo": public,

	// Auth: the caller's own account
	"signUp": public, "signIn": public, "requestPasswordReset": public, "confirmPasswordReset": public,
	"confirmEmail": public, "refreshSession": {Access: Refresh}, "signOut": user, "getCurrentUser": user,
	"resendEmailConfirmation": user, "getUserByEmail": user, "updateCurrentUserProfile": user,
	"getAdminProfile": user, "getUser": user,
	"completeZapierAuthorization": teamUser(Developer, FromBody),

	// Team
	"createTeam": user, "listTeams": {Access: Any}, "listPendingTeamInvitations": user,
	"acceptTeamInvitation": user, "acceptPendingTeamInvitation": user, "confirmTeamOwnershipTransfer": user,
	"checkTeamMembership":        public,
	"listTeamMembers":            team(Readonly, FromQuery),
	"getTeamOnboarding":          team(Readonly, FromPathID),
	"updateTeamProperties":       team(Admin, FromBodyID),
	"requestTeamVerification":    team(Admin, FromPathID),
	"inviteTeamMember":           team(Admin, FromBody),
	"updateTeamMemberRole":       team(Admin, FromBody),
	"removeTeamMember":           team(Readonly, FromQuery), // anyone may leave; removing others needs admin (handler)
	"transferTeamOwnership":      teamUser(Owner, FromBody),
	"deleteTeam":                 teamUser(Owner, FromPathID),
	"listTeamApiKeys":            teamUser(Developer, FromQuery),
	"createTeamApiKey":           teamUser(Developer, FromBody),
	"deleteTeamApiKey":           teamUser(Developer, FromQuery),
	"getTeamSubscriptionCredits": team(Developer, FromQuery),
	"getTeamSubscriptionStatus":  team(Developer, FromQuery),
	"getTeamBillingAddress":      team(Developer, FromQuery),
	"getTeamCostsUsage":          team(Developer, FromPathID),
	"updateTeamBillingAddress":   teamUser(Admin, FromBody),

	// Site administration
	"getAdminOrganization": admin, "listAdminOrganizationsByOwnerEmail": admin,
	"searchAdminUsersOrganizations": admin, "getAdminUserOrganizations": admin,
	"getAdminUserOrganizationsByEmail": admin, "updateAdminOrganizationLevel": admin,
	"updateAdminOrganizationTier": admin, "listAdminMail": admin, "grantAdminOrganizationCredits": admin,
	"updateAdminOrganizationDialerLimit": admin,

	// Payments: developers may look, admins spend
	"createCreditsPaymentIntent":                 teamUser(Admin, FromBody),
	"createTierSubscriptionPaymentIntent":        teamUser(Admin, FromBody),
	"createPhoneNumberSubscriptionPaymentIntent": teamUser(Admin, FromBody),
	"getSubscriptionManagementLink":              teamUser(Admin, FromQuery),
	"listTiers":                                  {Access: Any},
	"updatePaymentIntentStatus":                  teamUser(Member, FromResource), // creator or admin (handler)
	"listPhoneNumberSubscriptions":               team(Developer, FromQuery),

	// Agents
	"createAgent": team(Member, FromBody), "duplicateAgent": team(Member, FromBody),
	"deleteAgent": team(Member, FromQuery), "getAgent": team(Readonly, FromQuery),
	"updateAgent": team(Member, FromBody), "listAgents": team(Readonly, FromPathTeam),
	"setAgentCallConfig": team(Member, FromBody), "listAgentKnowledgeFiles": team(Readonly, FromQuery),
	"updateAgentFaq": team(Member, FromBody), "synthesizeAgentSpeech": team(Readonly, FromQuery),
	"summarizeAgentAudio": team(Member, FromQuery), "listAgentAudioSummaries": team(Readonly, FromQuery),
	"listAgentAudioFiles": team(Readonly, FromQuery), "activateAgent": team(Member, FromQuery),
	"deactivateAgent": team(Member, FromQuery), "listCampaignAgents": team(Readonly, FromQuery),

	// Voice
	"listVoicePresets": {Access: Any}, "getVoicePresetSample": public, "listVoiceProfiles": team(Readonly, FromPathID),
	"createVoiceProfile": team(Member, FromBody), "deleteVoiceProfile": team(Member, FromQuery),
	"updateVoiceProfile": team(Member, FromBody),

	// Phone
	"listSupportedCountries": {Access: Any}, "searchAvailablePhoneNumbers": {Access: Any},
	"listPhoneNumbers": team(Readonly, FromQuery), "deletePhoneNumber": teamUser(Admin, FromQuery),
	"requestPhoneNumberVerification": team(Member, FromBody), "verifyPhoneNumber": team(Member, FromBody),
	"listVerifiedPhoneNumbers": team(Readonly, FromPathID),

	// Calls
	"bookCall": public, "listCallBookings": team(Readonly, FromQuery), "listCallLogs": team(Readonly, FromQuery), "getCallTranscript": team(Readonly, FromQuery), "simulateInboundCall": team(Member, FromBody),
	"getCallRecording": team(Readonly, FromQuery), "getCallLog": team(Readonly, FromQuery),
	"getCallStatistics": team(Readonly, FromPathTeam),
	"listDoNotCall":     team(Readonly, FromQuery), "addDoNotCall": team(Member, FromBody),
	"removeDoNotCall": team(Admin, FromQuery), "importDoNotCall": team(Member, FromQuery),

	// Inbox
	"listInboxItems": team(Readonly, FromQuery), "searchInboxItems": team(Readonly, FromQuery),
	"getInboxItem": team(Readonly, FromQuery), "getPublicInboxItem": public,
	"updateInboxItem": team(Member, FromBody), "deleteInboxItem": team(Member, FromQuery),

	// Campaigns
	"listCampaigns": team(Readonly, FromQuery), "createCampaign": team(Member, FromBody),
	"getCampaign": team(Readonly, FromResource), "updateCampaign": team(Member, FromResource),
	"deleteCampaign": team(Member, FromResource), "listCampaignPhoneNumberAssignments": team(Readonly, FromResource),
	"duplicateCampaign": team(Member, FromResource), "createCampaignWorkflow": team(Member, FromResource),
	"toggleCampaignWorkflow": team(Member, FromResource), "duplicateCampaignWorkflow": team(Member, FromResource),
	"listCampaignWorkflows": team(Readonly, FromResource),

	// Workflows
	"createWorkflow": team(Member, FromBody), "listWorkflows": team(Readonly, FromQuery),
	"getWorkflow": team(Readonly, FromResource), "deleteWorkflow": team(Member, FromResource),
	"saveWorkflow": team(Member, FromResource), "updateWorkflow": team(Member, FromResource),
	"runWorkflow": team(Member, FromBody), "testRunWorkflow": team(Member, FromBody),
	"getWorkflowProgress": team(Readonly, FromResource), "endWorkflowJob": team(Member, FromResource),
	"setWorkflowAgent": team(Member, FromResource), "setWorkflowPhoneNumber": team(Member, FromResource),
	"configureWorkflowShopify": team(Developer, FromBody), "setWorkflowContacts": team(Member, FromBody),
	"listWorkflowContacts": team(Readonly, FromResource), "deleteWorkflowContacts": team(Member, FromResource),
	"getWorkflowCsv": team(Readonly, FromResource), "deleteWorkflowCsv": team(Member, FromResource), "downloadRejectedContacts": team(Readonly, FromResource),
	"updateWorkflowNode": team(Member, FromResource), "listWorkflowTemplates": {Access: Any},
	"listWorkflowHistory": team(Readonly, FromResource), "listWorkflowsByPhoneNumber": team(Readonly, FromResource),

	// Jobs
	"listJobStatuses": team(Readonly, FromResource),

	// Knowledge base
	"createKnowledgeBase": team(Member, FromBody), "updateKnowledgeBase": team(Member, FromResource),
	"deleteKnowledgeBase": team(Member, FromQuery), "getKnowledgeFile": team(Readonly, FromQuery),
	"deleteKnowledgeFile": team(Member, FromQuery), "listKnowledgeFiles": team(Readonly, FromQuery),
	"listKnowledgeBases": team(Readonly, FromPathOrg), "activateKnowledgeBase": team(Member, FromBody),
	"deactivateKnowledgeBase": team(Member, FromBody), "createKnowledgeFile": team(Member, FromResource),
	"createKnowledgeFaq": team(Member, FromResource), "updateKnowledgeFaq": team(Member, FromResource),
	"searchKnowledgeBase": team(Readonly, FromQuery),

	// Apps: integrations are developers' business; reading them is anyone's
	"connectHubspotApp": teamUser(Developer, FromBody), "reconnectHubspotApp": teamUser(Developer, FromBody), // OAuth needs a person
	"completeHubspotAuthorization": public, "disconnectApp": team(Developer, FromBody), "finishHubspotAuthorization": teamUser(Developer, FromBody),
	"listConnectedApps": team(Readonly, FromQuery), "searchHubspotContacts": team(Member, FromQuery),
	"listHubspotContacts": team(Readonly, FromQuery), "listHubspotLifecycleStages": team(Readonly, FromQuery),
	"listZapierTemplates": team(Readonly, FromQuery), "listZapierZaps": team(Readonly, FromQuery),
	"disconnectZapierApp": team(Developer, FromBody), "connectZapierApp": teamUser(Developer, FromBody),
	"subscribeZapierHook": team(Developer, FromKey), "listZapierHookSamples": team(Developer, FromKey),
	"unsubscribeZapierHook": team(Developer, FromKey), "addZapierContacts": team(Member, FromKey),
	"listZapierHooks": team(Readonly, FromQuery),

	// Uploads and files
	"getUploadCapabilities": public, "createUpload": team(Member, FromResource),
	"getUploadOffset": team(Member, FromResource), "appendUploadChunk": team(Member, FromResource),
	"deleteUpload": team(Member, FromResource), "getUpload": team(Readonly, FromResource),
	"downloadFile": public, // signed, time-limited URL

	// Events
	"streamEvents": team(Readonly, FromQuery),

	// Webhooks: verified by signature
	"receiveStripeWebhook": public, "receiveTelnyxWebhook": public, "receiveHubspotWebhook": public,
}
