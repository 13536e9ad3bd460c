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
	// FromResource: the organisation is the one of the resource the rule names (Rule.Resource),
	// which the guard finds through the Registry.
	FromResource OrgFrom = "resource"
	// FromMetadata: the organizationId of a tus upload's Upload-Metadata header.
	FromMetadata OrgFrom = "metadata:organizationId"
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
	// Resource is what the operation acts on when its organisation comes from it (Org
	// FromResource): the guard finds the resource's organisation through the Registry and
	// checks the caller there before the handler runs.
	Resource Resource
}

func team(min Role, from OrgFrom) Rule { return Rule{Access: Team, MinRole: min, Org: from} }
func teamUser(min Role, from OrgFrom) Rule {
	return Rule{Access: Team, MinRole: min, Org: from, UsersOnly: true}
}

// on is the rule of an operation whose organisation is the one of the resource r names.
func on(min Role, r Resource) Rule {
	return Rule{Access: Team, MinRole: min, Org: FromResource, Resource: r}
}
func onUser(min Role, r Resource) Rule {
	rule := on(min, r)
	rule.UsersOnly = true
	return rule
}

// The resources several operations name.
func workflowAt(id Source) Resource { return In("workflow", id) }
func campaignAt(id Source) Resource { return In("campaign", id) }

// nodeAt is a workflow's node: node ids are unique only in their workflow, which the request
// names in the query parameter workflowId or leaves to the guard to find among the caller's.
func nodeAt(id Source) Resource { return In("node", id).Within("workflow", Query("workflowId")) }

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
	"updatePaymentIntentStatus":                  onUser(Member, In("payment intent", Body("dbPaymentIntentId"))), // creator or admin (domain)
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
	"getCampaign":                        on(Readonly, campaignAt(Path("id"))),
	"updateCampaign":                     on(Member, campaignAt(Path("id"))),
	"deleteCampaign":                     on(Member, campaignAt(Path("id"))),
	"listCampaignPhoneNumberAssignments": on(Readonly, In("phone number", Path("id"))),
	"duplicateCampaign":                  on(Member, campaignAt(Path("id"))),
	"createCampaignWorkflow":             on(Member, campaignAt(Path("campaignId"))),
	"toggleCampaignWorkflow":             on(Member, workflowAt(Path("workflowId"))),
	"duplicateCampaignWorkflow":          on(Member, workflowAt(Path("id"))),
	"listCampaignWorkflows":              on(Readonly, campaignAt(Path("campaignId"))),

	// Workflows
	"createWorkflow": team(Member, FromBody), "listWorkflows": team(Readonly, FromQuery),
	"getWorkflow":                on(Readonly, workflowAt(Path("id"))),
	"deleteWorkflow":             on(Member, workflowAt(Path("id"))),
	"saveWorkflow":               on(Member, workflowAt(Body("workflowId"))),
	"updateWorkflow":             on(Member, workflowAt(Query("workflowId"))),
	"runWorkflow":                team(Member, FromBody),
	"testRunWorkflow":            team(Member, FromBody),
	"getWorkflowProgress":        on(Readonly, workflowAt(Path("id"))),
	"previewWorkflowRun":         on(Readonly, workflowAt(Path("id"))),
	"getWorkflowRunActivity":     on(Readonly, workflowAt(Path("id"))),
	"endWorkflowJob":             on(Member, workflowAt(Path("id"))),
	"setWorkflowAgent":           on(Member, workflowAt(Body("workflowId"))),
	"setWorkflowPhoneNumber":     on(Member, workflowAt(Body("workflowId"))),
	"configureWorkflowShopify":   team(Developer, FromBody),
	"setWorkflowContacts":        team(Member, FromBody),
	"listWorkflowContacts":       on(Readonly, workflowAt(Query("workflowId"))),
	"deleteWorkflowContacts":     on(Member, workflowAt(Query("workflowId"))),
	"getWorkflowCsv":             on(Readonly, nodeAt(Path("nodeId"))),
	"deleteWorkflowCsv":          on(Member, nodeAt(Path("nodeId"))),
	"downloadRejectedContacts":   on(Readonly, nodeAt(Path("nodeId"))),
	"updateWorkflowNode":         on(Member, workflowAt(Body("workflowId"))),
	"listWorkflowTemplates":      {Access: Any},
	"listWorkflowHistory":        on(Readonly, workflowAt(Path("id"))),
	"listWorkflowsByPhoneNumber": on(Readonly, In("phone number", Path("phoneNumberId"))),

	// Jobs: of every team of the caller the ids name
	"listJobStatuses": on(Readonly, EachIn("job", Query("ids"))),
	"exportJobCalls":  on(Readonly, In("job", Path("id"))),

	// Knowledge base
	"createKnowledgeBase": team(Member, FromBody), "updateKnowledgeBase": on(Member, In("knowledge base", Path("id"))),
	"deleteKnowledgeBase": team(Member, FromQuery), "getKnowledgeFile": team(Readonly, FromQuery),
	"deleteKnowledgeFile": team(Member, FromQuery), "listKnowledgeFiles": team(Readonly, FromQuery),
	"listKnowledgeBases": team(Readonly, FromPathOrg), "activateKnowledgeBase": team(Member, FromBody),
	"deactivateKnowledgeBase": team(Member, FromBody),
	"createKnowledgeFile":     on(Member, In("knowledge base", Body("knowledgeBaseId"))),
	"createKnowledgeFaq":      on(Member, In("knowledge base", Body("knowledgeBaseId"))),
	"updateKnowledgeFaq":      on(Member, In("knowledge file", Path("id"))),
	"searchKnowledgeBase":     team(Readonly, FromQuery),

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
	"getUploadCapabilities": public, "createUpload": team(Member, FromMetadata),
	"getUploadOffset":   on(Member, In("upload", Path("uploadId"))),
	"appendUploadChunk": on(Member, In("upload", Path("uploadId"))),
	"deleteUpload":      on(Member, In("upload", Path("uploadId"))),
	"getUpload":         on(Readonly, In("upload", Path("uploadId"))),
	"downloadFile":      public, // signed, time-limited URL

	// Events
	"streamEvents": team(Readonly, FromQuery),

	// Webhooks: verified by signature
	"receiveStripeWebhook": public, "receiveTelnyxWebhook": public, "receiveHubspotWebhook": public,
}
