package workflows

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// compileAttempts is how often compiling one version is tried before it is marked error.
const compileAttempts = 3

// compileArgs is the job that compiles the readable prompt of one version of a workflow.
type compileArgs struct {
	OrganizationID string `json:"organizationId"`
	WorkflowID     string `json:"workflowId"`
	Version        int    `json:"version"`
}

func (compileArgs) Kind() string { return "workflow_compile_prompt" }

type compiler struct {
	river.WorkerDefaults[compileArgs]
	s *Service
}

func (w *compiler) Timeout(*river.Job[compileArgs]) time.Duration { return time.Minute }

func (w *compiler) Work(ctx context.Context, job *river.Job[compileArgs]) error {
	return w.s.CompilePrompt(ctx, job.Args.OrganizationID, job.Args.WorkflowID, job.Args.Version, job.Attempt >= job.MaxAttempts)
}

// CompilePrompt compiles the readable prompt of a workflow if it is still at version (a later
// save queued its own compilation) and records it: success with the text, or, on the last
// attempt, error keeping the last good text. A workflow gone is left alone, and doing it twice
// writes the same text (River works a job at least once).
func (s *Service) CompilePrompt(ctx context.Context, orgID, id string, version int, lastAttempt bool) error {
	wf, err := s.db.WorkflowByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if wf.Version != version {
		return nil
	}
	prompt, err := s.compile(ctx, wf)
	if err != nil {
		if lastAttempt {
			_, ferr := s.db.FinishWorkflowPrompt(ctx, wf, store.PromptError, nil)
			return ferr
		}
		return err
	}
	_, err = s.db.FinishWorkflowPrompt(ctx, wf, store.PromptSuccess, &prompt)
	return err
}

func (s *Service) compile(ctx context.Context, wf store.Workflow) (string, error) {
	g, err := workflow.Parse([]byte(wf.Graph))
	if err != nil {
		return "", err
	}
	script := workflow.Script{Name: wf.Name, Type: workflow.Type(wf.Type)}
	if wf.AgentID != nil {
		ag, err := s.db.AgentByID(ctx, wf.OrganizationID, *wf.AgentID)
		switch {
		case err == nil:
			script.Agent = ag.Name
		case !errors.Is(err, store.ErrNotFound):
			return "", err
		}
	}
	return workflow.CompilePrompt(g, script), nil
}
