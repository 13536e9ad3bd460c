-- +goose Up
-- Inbound calls (issue 11): each call that comes in is held by a job of its own (type
-- inbound-call) like a test run's, so several calls to one workflow's number may be on the
-- line at once: the one-run-in-progress rule is for workflow runs over a Contacts node only
-- (00015 let a booking's single-contact runs, which have no node, run beside them).
DROP INDEX workflow_jobs_running_key;
CREATE UNIQUE INDEX workflow_jobs_running_key ON workflow_jobs (workflow_id)
    WHERE status = 'in-progress' AND NOT is_test AND type = 'workflow-run' AND node_id IS NOT NULL;

-- The calls on the line nothing moved for a while (the dialer resumes them: a command may
-- have been lost to a crash between the commit and the carrier).
CREATE INDEX contact_attempts_quiet_idx ON contact_attempts (updated_at) WHERE state IN ('ringing', 'in-call');

-- +goose Down
DROP INDEX contact_attempts_quiet_idx;
DROP INDEX workflow_jobs_running_key;
CREATE UNIQUE INDEX workflow_jobs_running_key ON workflow_jobs (workflow_id)
    WHERE status = 'in-progress' AND NOT is_test AND node_id IS NOT NULL;
