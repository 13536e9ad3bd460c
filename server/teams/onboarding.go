package teams

import (
	"context"
	"errors"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/store"
)

// Step is one item of the onboarding checklist.
type Step string

const (
	StepTeamCreated       Step = "team-created"
	StepAgentCreated      Step = "agent-created"
	StepPhoneNumberBought Step = "phone-number-bought"
	StepPhoneNumberPaired Step = "phone-number-paired"
	StepTestCallMade      Step = "test-call-made"
)

// OnboardingItem is a step and when it was first done (nil while not done).
type OnboardingItem struct {
	Step   Step
	Label  string
	DoneAt *time.Time
}

// Onboarding is a team's checklist.
type Onboarding struct {
	OrganizationID string
	Items          []OnboardingItem
	Completed      bool
}

// onboardingStep says, from what exists, when a step was first done. Each feature fills in
// its step.
type onboardingStep struct {
	step   Step
	label  string
	doneAt func(ctx context.Context, db *store.DB, o store.Organization) (*time.Time, error)
}

// onboardingSteps are the checklist, in the contract's order.
var onboardingSteps = []onboardingStep{
	{StepTeamCreated, "Create your team", func(_ context.Context, _ *store.DB, o store.Organization) (*time.Time, error) {
		t := o.CreatedAt
		return &t, nil
	}},
	{StepAgentCreated, "Create an agent", func(ctx context.Context, db *store.DB, o store.Organization) (*time.Time, error) {
		return db.FirstAgentCreatedAt(ctx, o.ID)
	}},
	{StepPhoneNumberBought, "Buy a phone number", func(ctx context.Context, db *store.DB, o store.Organization) (*time.Time, error) {
		return db.FirstPhoneNumberOrderAt(ctx, o.ID) // the first number bought, even if released since
	}},
	{StepPhoneNumberPaired, "Pair the phone number with an agent", func(ctx context.Context, db *store.DB, o store.Organization) (*time.Time, error) {
		c, err := db.CallConfigOf(ctx, o.ID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		return &c.CreatedAt, err
	}},
	// A test run, or a call to one of the team's numbers, ticks it (issue 21: it never did).
	{StepTestCallMade, "Make a test call", func(ctx context.Context, db *store.DB, o store.Organization) (*time.Time, error) {
		return db.FirstTestCallAt(ctx, o.ID)
	}},
}

// Onboarding answers the team's checklist.
func (s *Service) Onboarding(ctx context.Context, a auth.Actor) (Onboarding, error) {
	o, err := s.db.OrganizationByID(ctx, a.OrganizationID)
	if err != nil {
		return Onboarding{}, teamNotFound(err)
	}
	out := Onboarding{OrganizationID: o.ID, Completed: true}
	for _, st := range onboardingSteps {
		at, err := st.doneAt(ctx, s.db, o)
		if err != nil {
			return Onboarding{}, err
		}
		out.Items = append(out.Items, OnboardingItem{Step: st.step, Label: st.label, DoneAt: at})
		out.Completed = out.Completed && at != nil
	}
	return out, nil
}
