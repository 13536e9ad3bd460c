-- +goose Up
-- Calls (issue 11): the log of every call, its transcript per turn, the inbox item each
-- finished call files (full-text searchable: FTS5 here, tsvector on PostgreSQL), the team's
-- do-not-call list, and the live events the stream at /v1/events sends (kept 10 minutes).

-- A call placed or received. attempt_id is the dialer's contact attempt: one call log per
-- attempt, so opening it again answers the same row.
CREATE TABLE call_logs (
    id                  TEXT PRIMARY KEY,
    organization_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    call_control_id     TEXT,
    direction           TEXT NOT NULL,
    from_number         TEXT NOT NULL,
    to_number           TEXT NOT NULL,
    status              TEXT NOT NULL,
    campaign_id         TEXT REFERENCES campaigns (id) ON DELETE SET NULL,
    agent_id            TEXT REFERENCES agent_profiles (id) ON DELETE SET NULL,
    workflow_id         TEXT REFERENCES workflows (id) ON DELETE SET NULL,
    job_id              TEXT,
    attempt_id          TEXT,
    start_time          TIMESTAMP NOT NULL,
    answered_at         TIMESTAMP,
    end_time            TIMESTAMP,
    billed_minutes      INTEGER NOT NULL DEFAULT 0,
    cost                DOUBLE PRECISION NOT NULL DEFAULT 0,
    -- The recording: an upload of the team (purpose call-recording) used by this call log.
    recording_upload_id TEXT REFERENCES uploads (id) ON DELETE SET NULL,
    has_transcript      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at          TIMESTAMP NOT NULL,
    updated_at          TIMESTAMP NOT NULL
);
CREATE INDEX call_logs_org_start_idx ON call_logs (organization_id, start_time DESC, id DESC);
CREATE INDEX call_logs_org_control_idx ON call_logs (organization_id, call_control_id);
CREATE UNIQUE INDEX call_logs_attempt_key ON call_logs (organization_id, attempt_id) WHERE attempt_id IS NOT NULL;
CREATE INDEX call_logs_job_idx ON call_logs (job_id) WHERE job_id IS NOT NULL;

-- One turn of a call's conversation; offset_ms from the answer.
CREATE TABLE call_transcript_turns (
    call_log_id     TEXT NOT NULL REFERENCES call_logs (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    speaker         TEXT NOT NULL,
    text            TEXT NOT NULL,
    offset_ms       BIGINT NOT NULL,
    PRIMARY KEY (call_log_id, seq)
);

-- The outcome of a finished call; one per call log. rowid is the FTS5 index's.
CREATE TABLE inbox_items (
    rowid_          INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    call_log_id     TEXT REFERENCES call_logs (id) ON DELETE SET NULL,
    call_control_id TEXT,
    campaign_id     TEXT REFERENCES campaigns (id) ON DELETE SET NULL,
    title           TEXT NOT NULL,
    summary         TEXT NOT NULL,
    outcome         TEXT NOT NULL,
    priority        INTEGER NOT NULL DEFAULT 0,
    visibility      TEXT NOT NULL DEFAULT 'private',
    deleted_at      TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX inbox_items_call_key ON inbox_items (call_log_id);
CREATE INDEX inbox_items_org_created_idx ON inbox_items (organization_id, created_at DESC, id DESC);

-- External-content FTS5 index over title and summary, kept in step by triggers. No stemming:
-- words are matched by prefix, the same as the 'simple' tsvector on PostgreSQL.
CREATE VIRTUAL TABLE inbox_items_fts USING fts5(
    title, summary, content='inbox_items', content_rowid='rowid_', tokenize='unicode61 remove_diacritics 2'
);
-- +goose StatementBegin
CREATE TRIGGER inbox_items_ai AFTER INSERT ON inbox_items BEGIN
    INSERT INTO inbox_items_fts (rowid, title, summary) VALUES (new.rowid_, new.title, new.summary);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER inbox_items_ad AFTER DELETE ON inbox_items BEGIN
    INSERT INTO inbox_items_fts (inbox_items_fts, rowid, title, summary) VALUES ('delete', old.rowid_, old.title, old.summary);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER inbox_items_au AFTER UPDATE OF title, summary ON inbox_items BEGIN
    INSERT INTO inbox_items_fts (inbox_items_fts, rowid, title, summary) VALUES ('delete', old.rowid_, old.title, old.summary);
    INSERT INTO inbox_items_fts (rowid, title, summary) VALUES (new.rowid_, new.title, new.summary);
END;
-- +goose StatementEnd

-- The team's do-not-call list: a number (E.164) at most once per team.
CREATE TABLE do_not_call (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    phone_number    TEXT NOT NULL,
    reason          TEXT,
    added_by        TEXT NOT NULL,
    -- manual, import or conversation.
    source          TEXT NOT NULL,
    call_log_id     TEXT REFERENCES call_logs (id) ON DELETE SET NULL,
    created_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX do_not_call_org_number_key ON do_not_call (organization_id, phone_number);
CREATE INDEX do_not_call_org_created_idx ON do_not_call (organization_id, created_at DESC, id DESC);

-- "Entity id of the team changed", for the event stream. SQLite has one writer, so ids are
-- assigned in commit order; tx is PostgreSQL's (always 0 here).
CREATE TABLE events (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    tx              BIGINT NOT NULL DEFAULT 0,
    organization_id TEXT NOT NULL,
    type            TEXT NOT NULL,
    entity_id       TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX events_org_idx ON events (organization_id, tx, id);
CREATE INDEX events_created_idx ON events (created_at);

-- +goose Down
DROP TABLE events;
DROP TABLE do_not_call;
DROP TRIGGER inbox_items_au;
DROP TRIGGER inbox_items_ad;
DROP TRIGGER inbox_items_ai;
DROP TABLE inbox_items_fts;
DROP TABLE inbox_items;
DROP TABLE call_transcript_turns;
DROP TABLE call_logs;
