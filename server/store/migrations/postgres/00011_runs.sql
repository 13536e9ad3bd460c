-- +goose Up
-- Runs (issue 11): the jobs that call a workflow's contacts, one row per dial attempt, the
-- carrier's call events already handled, and the site admin's per-team dialer limits. The
-- states an attempt goes through are written down in server/runs (doc.go).

-- A workflow-run job: a run over the workflow's pending contacts, or a test run (is_test, one
-- call to the tester). What it calls with is fixed when it starts (from_number, agent, graph,
-- settings). paused: the dialer stopped placing calls (pause_reason says why, e.g. credits);
-- it resumes by itself when the reason is gone. Progress is counted from the attempts.
CREATE TABLE workflow_jobs (
    id                   TEXT PRIMARY KEY,
    organization_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    workflow_id          TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    campaign_id          TEXT,
    type                 TEXT NOT NULL,
    status               TEXT NOT NULL,
    paused               BOOLEAN NOT NULL DEFAULT FALSE,
    pause_reason         TEXT,
    is_test              BOOLEAN NOT NULL DEFAULT FALSE,
    triggered_by         TEXT NOT NULL,
    triggered_by_user_id TEXT,
    -- The most the job may spend (credits); NULL: no budget of its own (the balance still caps).
    budget               DOUBLE PRECISION,
    spent                DOUBLE PRECISION NOT NULL DEFAULT 0,
    phone_number_id      TEXT,
    from_number          TEXT NOT NULL,
    agent_id             TEXT,
    node_id              TEXT,
    -- JSON: the graph and the dialing settings as they were when the job started.
    graph                TEXT NOT NULL,
    settings             TEXT NOT NULL,
    persona              TEXT,
    total                INTEGER NOT NULL,
    error                TEXT,
    -- The dispatcher working the job (its River job id) and until when its lease holds: a
    -- dispatcher on a replica that died loses it, and the sweep starts another.
    dispatcher           TEXT,
    dispatcher_until     TIMESTAMPTZ,
    started_at           TIMESTAMPTZ NOT NULL,
    finished_at          TIMESTAMPTZ,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX workflow_jobs_workflow_idx ON workflow_jobs (workflow_id, created_at DESC, id DESC);
CREATE INDEX workflow_jobs_org_status_idx ON workflow_jobs (organization_id, status);
-- One run in progress per workflow, whatever races.
CREATE UNIQUE INDEX workflow_jobs_running_key ON workflow_jobs (workflow_id) WHERE status = 'in-progress' AND NOT is_test;

-- One row per dial attempt of a contact (a retry is a new row; the one it retries is marked
-- retried). state: scheduled, dialling, in-doubt, ringing, in-call, then final: completed,
-- busy, no-answer, voicemail, failed, cancelled, suppressed.
CREATE TABLE contact_attempts (
    id                 TEXT PRIMARY KEY,
    organization_id    TEXT NOT NULL,
    job_id             TEXT NOT NULL REFERENCES workflow_jobs (id) ON DELETE CASCADE,
    -- The workflow_contacts row; NULL for a test run.
    contact_id         TEXT,
    seq                INTEGER NOT NULL,
    attempt            INTEGER NOT NULL,
    phone              TEXT NOT NULL,
    time_zone          TEXT,
    state              TEXT NOT NULL,
    retried            BOOLEAN NOT NULL DEFAULT FALSE,
    due_at             TIMESTAMPTZ NOT NULL,
    dialled_at         TIMESTAMPTZ,
    answered_at        TIMESTAMPTZ,
    ended_at           TIMESTAMPTZ,
    call_control_id    TEXT,
    call_log_id        TEXT,
    cause              TEXT,
    -- The conversation engine's state between call events (JSON).
    conversation       TEXT,
    -- A counter of commands sent on the call, making each command's idempotency key unique.
    commands           INTEGER NOT NULL DEFAULT 0,
    billed_minutes     INTEGER NOT NULL DEFAULT 0,
    cost               DOUBLE PRECISION NOT NULL DEFAULT 0,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX contact_attempts_due_idx ON contact_attempts (job_id, state, due_at, seq);
CREATE INDEX contact_attempts_progress_idx ON contact_attempts (job_id, retried, state);
CREATE INDEX contact_attempts_live_idx ON contact_attempts (organization_id, state);
CREATE INDEX contact_attempts_phone_idx ON contact_attempts (organization_id, phone, dialled_at);
CREATE UNIQUE INDEX contact_attempts_call_key ON contact_attempts (call_control_id);

-- The carrier's call events already handled, by event id, written in the transaction of the
-- event's effect: an event delivered again changes nothing.
CREATE TABLE call_events_seen (
    id          TEXT PRIMARY KEY,
    attempt_id  TEXT,
    kind        TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL
);

-- A site admin's override of a team's dialer limits (the tier's otherwise).
CREATE TABLE dialer_limits (
    organization_id      TEXT PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    max_concurrent_calls INTEGER NOT NULL,
    updated_by_user_id   TEXT,
    updated_at           TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE dialer_limits;
DROP TABLE call_events_seen;
DROP TABLE contact_attempts;
DROP TABLE workflow_jobs;
