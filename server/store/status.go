package store

// The states rows move through, as typed constants: code compares these, never bare strings.

// MemberStatus is where a membership stands.
type MemberStatus string

const (
	MemberInvited MemberStatus = "invited"
	MemberActive  MemberStatus = "active"
	MemberRemoved MemberStatus = "removed"
)

// VerificationLevel is how far an organisation is verified.
type VerificationLevel string

const (
	LevelNone VerificationLevel = "none"
	LevelL1   VerificationLevel = "l1"
	LevelL2   VerificationLevel = "l2"
)

// SubscriptionTier is an organisation's plan.
type SubscriptionTier string

const (
	TierFree SubscriptionTier = "free"
	Tier1    SubscriptionTier = "tier1"
	Tier2    SubscriptionTier = "tier2"
	Tier3    SubscriptionTier = "tier3"
	Tier4    SubscriptionTier = "tier4"
)

// RequestStatus is where a verification request stands.
type RequestStatus string

const (
	RequestPending   RequestStatus = "pending"
	RequestCompleted RequestStatus = "completed"
)

// TokenKind is what a one-time token is for.
type TokenKind string

const (
	TokenEmailConfirm      TokenKind = "email_confirm"
	TokenPasswordReset     TokenKind = "password_reset"
	TokenInvitation        TokenKind = "invitation"
	TokenOwnershipTransfer TokenKind = "ownership_transfer"
)

// EmailStatus is what became of an outbox message.
type EmailStatus string

const (
	// EmailQueued: written, waiting for the sending job.
	EmailQueued EmailStatus = "queued"
	// EmailSent: the SMTP relay accepted it.
	EmailSent EmailStatus = "sent"
	// EmailFailed: the last attempt failed; the job retries with backoff.
	EmailFailed EmailStatus = "failed"
	// EmailKept: no relay is configured; it stays in the outbox and its link is logged.
	EmailKept EmailStatus = "kept"
)

// CampaignStatus is where a campaign stands.
type CampaignStatus string

const (
	CampaignActive    CampaignStatus = "active"
	CampaignPaused    CampaignStatus = "paused"
	CampaignCompleted CampaignStatus = "completed"
	CampaignDraft     CampaignStatus = "draft"
	CampaignError     CampaignStatus = "error"
)

// Direction is which way a campaign's (and a workflow's) calls go.
type Direction string

const (
	Inbound  Direction = "inbound"
	Outbound Direction = "outbound"
)

// AgentStatus says whether an agent profile answers for its campaign.
type AgentStatus string

const (
	AgentActive   AgentStatus = "active"
	AgentInactive AgentStatus = "inactive"
)

// SummaryStatus is where the summary of a teaching audio file stands.
type SummaryStatus string

const (
	SummaryInProgress SummaryStatus = "in-progress"
	SummarySuccess    SummaryStatus = "success"
	SummaryError      SummaryStatus = "error"
)
