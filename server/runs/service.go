package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Config tunes the dialer. Zero values take the defaults.
type Config struct {
	// CPSPerNumber and CPSAccount are the calls a second one caller number, and the whole
	// account, may start (Telnyx's defaults: 1 and 30).
	CPSPerNumber, CPSAccount float64
	// FrequencyCap is how many times a team may dial one number in 24 hours (3).
	FrequencyCap int
	// Batch is how many due attempts the dispatcher claims at once (200).
	Batch int
	// RingTimeout is how long a call rings before it counts as no answer (30 s).
	RingTimeout time.Duration
	// DoubtAfter is how long an attempt may stay dialling before it is in doubt and the
	// carrier is asked again with the same key (15 s; asking again is idempotent).
	DoubtAfter time.Duration
	// Slice is how long one run of the dispatcher works before it snoozes (20 s).
	Slice time.Duration
	// RecordingTimeout bounds downloading a carrier's recording (30 s).
	RecordingTimeout time.Duration
	// ResumeAfter is how long a call on the line may go without an event before its last
	// commands are sent again (30 s; resume.go).
	ResumeAfter time.Duration
	// SilentAfter is how long a call on the line may go without a word from the carrier
	// before the call sweep asks the carrier whether it still has it (2 minutes; sweep.go).
	// The sweep runs every quarter of it, between 1 and 30 seconds.
	SilentAfter time.Duration
	// Carrier names the carrier that places this server's calls and sold its numbers
	// (phones.Telephony's Name: "sim", "telnyx"); credits.go asks billing whether its calls
	// are free. "" is a real carrier.
	Carrier string
}

func (c Config) withDefaults() Config {
	if c.CPSPerNumber <= 0 {
		c.CPSPerNumber = 1
	}
	if c.CPSAccount <= 0 {
		c.CPSAccount = 30
	}
	if c.FrequencyCap <= 0 {
		c.FrequencyCap = 3
	}
	if c.Batch <= 0 {
		c.Batch = 200
	}
	if c.RingTimeout <= 0 {
		c.RingTimeout = 30 * time.Second
	}
	if c.DoubtAfter <= 0 {
		c.DoubtAfter = 15 * time.Second
	}
	if c.Slice <= 0 {
		c.Slice = 20 * time.Second
	}
	if c.RecordingTimeout <= 0 {
		c.RecordingTimeout = 30 * time.Second
	}
	if c.ResumeAfter <= 0 {
		c.ResumeAfter = resumeAfterDefault
	}
	if c.SilentAfter <= 0 {
		c.SilentAfter = silentAfterDefault
	}
	return c
}

// Deps are the dialer's neighbours (ports.go).
type Deps struct {
	Calls        phones.CallControl
	Conversation Conversation
	CallLogs     CallLogs
	Suppressions Suppressions
	Events       Events
	Billing      Billing
	// Pairings makes the workflow of a team's paired number that has none (inbound.go); nil:
	// such a number is turned down.
	Pairings Pairings
	Log      *slog.Logger
	HTTP     *http.Client // downloads carriers' recordings
	Now      func() time.Time
}

// Service runs workflows.
type Service struct {
	db    *store.DB
	jobs  *jobs.Queue
	d     Deps
	cfg   Config
	pacer *Pacer
	cache jobCache
}

// New returns the service and registers the dispatcher on q.
func New(db *store.DB, q *jobs.Queue, d Deps, cfg Config) *Service {
	cfg = cfg.withDefaults()
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	if d.HTTP == nil {
		d.HTTP = &http.Client{Timeout: cfg.RecordingTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	s := &Service{db: db, jobs: q, d: d, cfg: cfg, pacer: NewPacer(cfg.CPSPerNumber, cfg.CPSAccount),
		cache: jobCache{jobs: map[string]store.WorkflowJob{}, graph: map[string]workflow.Graph{}}}
	jobs.Register(q, &dispatcher{s: s})
	jobs.Register(q, &sweeper{s: s})
	jobs.Periodic(q, sweepEvery, func() river.JobArgs { return sweepArgs{} })
	jobs.Register(q, &callSweeper{s: s})
	jobs.Periodic(q, callSweepEvery(cfg.SilentAfter), func() river.JobArgs { return callSweepArgs{} })
	return s
}

// SetCalls sets the carrier's call control (built after the service, as it is handed the
// service as its event handler).
func (s *Service) SetCalls(c phones.CallControl) { s.d.Calls = c }

// Job is a job with its progress.
type Job struct {
	store.WorkflowJob
	Progress Progress
	// Waiting says why its queued contacts wait (waiting.go); empty once it finished.
	Waiting []Waiting
}

// Progress are a job's counters (doc.go: how they relate).
type Progress struct {
	Total, Queued, Dialling, InCall, Completed, Failed, Suppressed, Refused, Pending, Percent int
}

// settings are the dialing settings a job keeps from when it started; those a campaign
// decides while its runs go on (followCampaign) are read again at every round of the dialer.
type settings struct {
	Window            Window `json:"window"`
	IgnoreWindow      bool   `json:"ignoreWindow,omitempty"`
	Timezone          string `json:"timezone"`
	MaxAttempts       int    `json:"maxAttempts"`
	RetryDelayMinutes int    `json:"retryDelayMinutes"`
	Record            bool   `json:"record"`
	Voicemail         string `json:"voicemail"`
	VoicemailMessage  string `json:"voicemailMessage,omitempty"`
	MaxConcurrent     int    `json:"maxConcurrent,omitempty"`
	// MaxCallMinutes bounds each call from its answer (the campaign's maxCallDurationMinutes;
	// jobs written before it existed read 0, which is the default).
	MaxCallMinutes int `json:"maxCallMinutes,omitempty"`
	// ContactName is the test run's nameOrEmail.
	ContactName string `json:"contactName,omitempty"`
	// Numbers are the kinds of numbers the job may dial (NumberRefusal); jobs started before
	// it existed dial landlines and mobiles only.
	Numbers phones.Policy `json:"numbers"`
}

func decodeSettings(raw string) settings {
	st := settings{Window: DefaultWindow, Timezone: "UTC", MaxAttempts: 1}
	_ = json.Unmarshal([]byte(raw), &st)
	if st.MaxCallMinutes <= 0 {
		st.MaxCallMinutes = campaigns.DefaultMaxCallDurationMinutes
	}
	return st
}

// maxCall is how long a call of the job may last from its answer.
func (st settings) maxCall() time.Duration { return time.Duration(st.MaxCallMinutes) * time.Minute }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// OrganizationOf answers the organisation of a job or contacts import (for the HTTP guard).
func (s *Service) OrganizationsOf(ctx context.Context, ids []string) (map[string]string, error) {
	return s.db.WorkflowJobOrganizations(ctx, ids)
}

// prepared is what a run needs, checked.
type prepared struct {
	wf       store.Workflow
	graph    workflow.Graph
	campaign *store.Campaign
	from     string
	phoneID  string
	st       settings
}

var errNoWorkflow = errs.NotFoundf("Workflow")

// prepare checks what every run and test run needs: the workflow, its graph, agent and number.
func (s *Service) prepare(ctx context.Context, orgID, workflowID string, test bool) (prepared, error) {
	var p prepared
	wf, err := s.db.WorkflowByID(ctx, orgID, workflowID)
	if errors.Is(err, store.ErrNotFound) {
		return p, errNoWorkflow
	}
	if err != nil {
		return p, err
	}
	p.wf = wf
	if !test && wf.Type == store.Inbound {
		return p, errs.UnprocessableErr("Inbound workflows run when calls come in; only outbound workflows are run.")
	}
	if p.graph, err = workflow.Parse([]byte(wf.Graph)); err != nil {
		return p, fmt.Errorf("runs: stored graph of %s: %w", wf.ID, err)
	}
	if len(p.graph.Nodes) == 0 {
		return p, errs.UnprocessableErr("The workflow is empty: draw its call flow before running it.")
	}
	if vs := forRun(ctx, workflow.Validate(p.graph, workflow.Type(wf.Type))); len(vs) > 0 {
		return p, refused(p.graph, vs)
	}
	if wf.AgentID == nil {
		return p, errs.UnprocessableErr("The workflow has no agent: choose the agent who speaks before running it.")
	}
	p.st = settings{Window: DefaultWindow, Timezone: "UTC", MaxAttempts: 1, Record: true, Voicemail: campaigns.VoicemailHangUp,
		Numbers: phones.TeamPolicy(nil), MaxCallMinutes: campaigns.DefaultMaxCallDurationMinutes}
	phoneID := wf.PhoneNumberID
	if wf.CampaignID != nil {
		c, err := s.db.CampaignByID(ctx, orgID, *wf.CampaignID)
		if err != nil {
			return p, err
		}
		p.campaign = &c
		if phoneID == nil {
			phoneID = c.PhoneNumberID
		}
		cs := campaigns.DefaultSettings()
		_ = json.Unmarshal([]byte(c.Settings), &cs)
		if err := p.st.followCampaign(cs); err != nil {
			return p, fmt.Errorf("runs: campaign %s window: %w", c.ID, err)
		}
		p.st.MaxAttempts, p.st.RetryDelayMinutes = 1+cs.RetryAttempts, cs.RetryDelayMinutes
		p.st.Record, p.st.Voicemail = cs.RecordCalls, cs.VoicemailAction
		p.st.MaxCallMinutes = cs.MaxCallDurationMinutes
		if cs.VoicemailMessage != nil {
			p.st.VoicemailMessage = *cs.VoicemailMessage
		}
		p.st.Numbers = cs.NumberPolicy()
	}
	if phoneID == nil {
		return p, errs.UnprocessableErr("The workflow has no phone number: choose the number it calls from (its own or its campaign's).")
	}
	if p.from, err = s.db.PhoneNumberOfTeam(ctx, orgID, *phoneID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return p, errs.UnprocessableErr("The workflow's phone number was released: choose another one.")
		}
		return p, err
	}
	p.phoneID = *phoneID
	balance, rate, _, err := s.funds(ctx, orgID)
	if err != nil {
		return p, err
	}
	if balance+1e-9 < rate {
		return p, errs.WithCode(errs.Unprocessable, errs.CodeLimitReached,
			fmt.Sprintf("This team has no credits left for calls (balance %.2f, a minute costs %.2f). Add credits, then run it again.", balance, rate))
	}
	return p, nil
}

func refused(g workflow.Graph, vs []workflow.Violation) error {
	kinds := map[string]workflow.Kind{}
	for _, n := range g.Nodes {
		kinds[n.ID] = n.Type
	}
	msg := vs[0].Message
	fields := make([]errs.Field, 0, len(vs))
	for _, v := range vs {
		fields = append(fields, errs.Field{Name: v.Field, Message: v.Message})
		for id, k := range kinds {
			if k == workflow.ForwardCall && strings.Contains(v.Field, id) {
				msg = "Add a valid number to run your workflow."
			}
		}
	}
	e := errs.UnprocessableErr(msg)
	e.Fields = fields
	return e
}

func triggeredBy(a auth.Actor, given *string) string {
	if given != nil && strings.TrimSpace(*given) != "" {
		return strings.TrimSpace(*given)
	}
	if a.Email != "" {
		return a.Email
	}
	return "API key " + a.APIKeyID
}

func userID(a auth.Actor) *string {
	if a.UserID == "" {
		return nil
	}
	u := a.UserID
	return &u
}

// Start starts a run of a workflow over its pending contacts: the job, an attempt per contact
// and the dispatcher in one transaction (the 422 rules: runWorkflow in openapi.yaml).
func (s *Service) Start(ctx context.Context, a auth.Actor, workflowID string, by *string) (Job, error) {
	p, err := s.prepare(ctx, a.OrganizationID, workflowID, false)
	if err != nil {
		return Job{}, err
	}
	if p.campaign != nil && p.campaign.Status == store.CampaignPaused { // a completed campaign runs again (campaigns.StatusAfterRuns)
		return Job{}, errs.UnprocessableErr(fmt.Sprintf("The campaign is %s: resume it before running its workflows.", p.campaign.Status))
	}
	var nodeID string
	for _, n := range p.graph.Nodes {
		if n.Type == workflow.Contacts {
			nodeID = n.ID
			break
		}
	}
	noSource := errs.UnprocessableErr("Please add a contact source to run your workflow.")
	if nodeID == "" {
		return Job{}, noSource
	}
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, workflowID, nodeID)
	if errors.Is(err, store.ErrNotFound) {
		return Job{}, noSource
	}
	if err != nil {
		return Job{}, err
	}
	if src.Status == store.ContactsParsing {
		what := "contacts file"
		if src.Source == "hubspot" {
			what = "HubSpot list"
		}
		return Job{}, errs.UnprocessableErr("The " + what + " is still being read: run the workflow once it is done.")
	}
	p.st.Numbers = sourcePolicy(src.Source, p.st.Numbers)
	if _, err := s.db.RunningWorkflowJob(ctx, a.OrganizationID, workflowID); err == nil {
		return Job{}, errs.UnprocessableErr("This workflow is running already: end that run or wait for it to finish.")
	} else if !errors.Is(err, store.ErrNotFound) {
		return Job{}, err
	}
	j := store.WorkflowJob{OrganizationID: a.OrganizationID, WorkflowID: workflowID, CampaignID: p.wf.CampaignID,
		Type: store.JobTypeWorkflowRun, Status: store.JobInProgress, TriggeredBy: triggeredBy(a, by), TriggeredByUserID: userID(a),
		DispatcherUntil: ptr(s.d.Now().Add(leaseFor)),
		PhoneNumberID:   &p.phoneID, FromNumber: p.from, AgentID: p.wf.AgentID, NodeID: &nodeID, Graph: p.wf.Graph, Settings: mustJSON(p.st)}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.CreateWorkflowJob(ctx, &j); err != nil {
			if errors.Is(err, store.ErrConflict) {
				return errs.UnprocessableErr("This workflow is running already: end that run or wait for it to finish.")
			}
			return err
		}
		n, err := s.db.InsertAttemptsFromContacts(ctx, &j, nodeID, src.ImportID, j.StartedAt)
		if err != nil {
			return err
		}
		if n == 0 {
			return errs.UnprocessableErr("The workflow has no contact left to call: every contact was called already.")
		}
		if err := s.campaignFollowsRuns(ctx, j); err != nil {
			return err
		}
		return s.insertDispatcher(ctx, j.ID)
	})
	if err != nil {
		return Job{}, err
	}
	return s.withProgress(ctx, j)
}

func (s *Service) insertDispatcher(ctx context.Context, jobID string) error {
	// One dispatcher works a job at a time (its lease, dialer.go); the sweep inserts another
	// when the lease has run out (the replica working it died).
	return s.jobs.Insert(ctx, dialArgs{JobID: jobID}, &river.InsertOpts{MaxAttempts: 100})
}

// TestInput is a test run's request.
type TestInput struct {
	WorkflowID, Destination, Persona, NameOrEmail, TriggeredBy string
	IsTest                                                     bool
}

// TestRun places one call from the workflow's number to in.Destination, the simulated
// customer following in.Persona; it ignores the calling window.
func (s *Service) TestRun(ctx context.Context, a auth.Actor, in TestInput) (Job, error) {
	if !workflow.ValidE164(in.Destination) {
		return Job{}, errs.InvalidField("body.destinationPhoneNumber", "the number must be in E.164 form, like +14155550123")
	}
	p, err := s.prepare(ctx, a.OrganizationID, in.WorkflowID, true)
	if err != nil {
		return Job{}, err
	}
	st := p.st
	if why := NumberRefusal(st.Numbers, in.Destination); why != "" {
		return Job{}, errs.UnprocessableField("body.destinationPhoneNumber", why)
	}
	st.IgnoreWindow, st.MaxAttempts, st.ContactName = true, 1, in.NameOrEmail
	persona := in.Persona
	j := store.WorkflowJob{OrganizationID: a.OrganizationID, WorkflowID: in.WorkflowID, CampaignID: p.wf.CampaignID,
		Type: store.JobTypeWorkflowRun, Status: store.JobInProgress, IsTest: in.IsTest, TriggeredBy: triggeredBy(a, &in.TriggeredBy),
		DispatcherUntil:   ptr(s.d.Now().Add(leaseFor)),
		TriggeredByUserID: userID(a), PhoneNumberID: &p.phoneID, FromNumber: p.from, AgentID: p.wf.AgentID, Graph: p.wf.Graph,
		Settings: mustJSON(st), Persona: &persona, Total: 1}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.CreateWorkflowJob(ctx, &j); err != nil {
			return err
		}
		if _, err := s.db.InsertAttempt(ctx, &store.Attempt{ID: store.AttemptID(j.ID, 1, 1), OrganizationID: j.OrganizationID,
			JobID: j.ID, Seq: 1, Attempt: 1, Phone: in.Destination, State: store.AttemptScheduled, DueAt: j.StartedAt}); err != nil {
			return err
		}
		return s.insertDispatcher(ctx, j.ID)
	})
	if err != nil {
		return Job{}, err
	}
	return s.withProgress(ctx, j)
}

// End cancels the workflow's run in progress: nothing more is dialled, calls on the line
// finish, contacts not called stay pending.
func (s *Service) End(ctx context.Context, a auth.Actor, workflowID string) (Job, error) {
	var j store.WorkflowJob
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		var err error
		j, err = s.db.RunningWorkflowJob(ctx, a.OrganizationID, workflowID)
		if errors.Is(err, store.ErrNotFound) {
			if _, werr := s.db.WorkflowByID(ctx, a.OrganizationID, workflowID); errors.Is(werr, store.ErrNotFound) {
				return errNoWorkflow
			}
			return errs.UnprocessableErr("This workflow has no run in progress.")
		}
		if err != nil {
			return err
		}
		if _, err := s.db.CancelScheduledAttempts(ctx, j.ID); err != nil {
			return err
		}
		if _, err := s.db.FinishWorkflowJob(ctx, j.ID, store.JobCancelled, nil); err != nil {
			return err
		}
		if err := s.campaignFollowsRuns(ctx, j); err != nil {
			return err
		}
		return s.publish(ctx, j.OrganizationID, "job.updated", j.ID)
	})
	if err != nil {
		return Job{}, err
	}
	if j, err = s.db.WorkflowJobByID(ctx, a.OrganizationID, j.ID); err != nil {
		return Job{}, err
	}
	return s.withProgress(ctx, j)
}

// campaignFollowsRuns moves the status of j's campaign after its runs (campaigns.FollowRuns), in
// the caller's transaction, when a run starts or ends.
func (s *Service) campaignFollowsRuns(ctx context.Context, j store.WorkflowJob) error {
	if j.CampaignID == nil {
		return nil
	}
	changed, err := campaigns.FollowRuns(ctx, s.db, j.OrganizationID, *j.CampaignID)
	if err != nil || !changed {
		return err
	}
	return s.publish(ctx, j.OrganizationID, "campaign.updated", *j.CampaignID)
}

func (s *Service) publish(ctx context.Context, orgID, typ, id string) error {
	if s.d.Events == nil {
		return nil
	}
	return s.d.Events.Publish(ctx, orgID, typ, id)
}

// DialerLimit answers a team's concurrent-call limit: the tier's, the override (0: none).
func (s *Service) DialerLimit(ctx context.Context, orgID string) (tierLimit, override int, err error) {
	_, _, tier, err := s.d.Billing.CallFunds(ctx, orgID)
	if err != nil {
		return 0, 0, err
	}
	override, err = s.db.DialerLimit(ctx, orgID)
	if errors.Is(err, store.ErrNotFound) {
		override, err = 0, nil
	}
	return ConcurrencyLimit(tier, 0, 0), override, err
}

// SetDialerLimit sets (n > 0) or removes (n == 0) a site admin's override of a team's
// concurrent calls.
func (s *Service) SetDialerLimit(ctx context.Context, adminUserID, orgID string, n int) error {
	if n < 0 || n > 10000 {
		return errs.InvalidField("query.maxConcurrentCalls", "maxConcurrentCalls must be between 0 and 10000")
	}
	if _, _, _, err := s.d.Billing.CallFunds(ctx, orgID); err != nil {
		return err
	}
	return s.db.SetDialerLimit(ctx, orgID, n, adminUserID)
}
