-- +goose Up
-- Knowledge bases: named collections of files and FAQs a campaign's agent answers from, their
-- links to campaigns (at most one active per campaign), their entries, and the passages the
-- entries are split into for full-text search (FTS5 here, tsvector on PostgreSQL).
CREATE TABLE knowledge_bases (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    -- The name in lower case: names are unique in a team regardless of case.
    name_key        TEXT NOT NULL,
    -- The campaign it was created for, if any.
    campaign_id     TEXT REFERENCES campaigns (id) ON DELETE SET NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX knowledge_bases_org_name_key ON knowledge_bases (organization_id, name_key);

CREATE TABLE knowledge_base_links (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE,
    campaign_id       TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    active            BOOLEAN NOT NULL DEFAULT FALSE,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX knowledge_base_links_campaign_kb_key ON knowledge_base_links (campaign_id, knowledge_base_id);
-- One active knowledge base per campaign, whatever races.
CREATE UNIQUE INDEX knowledge_base_links_active_key ON knowledge_base_links (campaign_id) WHERE active;
CREATE INDEX knowledge_base_links_kb_idx ON knowledge_base_links (knowledge_base_id);

-- An entry: an uploaded file (parsed in the background) or a FAQ.
CREATE TABLE knowledge_files (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE,
    type              TEXT NOT NULL,
    status            TEXT NOT NULL,
    name              TEXT NOT NULL,
    upload_id         TEXT,
    file_name         TEXT,
    size              BIGINT NOT NULL DEFAULT 0,
    pages             INTEGER,
    faq               TEXT,
    error_message     TEXT,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);
CREATE INDEX knowledge_files_kb_created_idx ON knowledge_files (knowledge_base_id, created_at DESC, id DESC);
CREATE INDEX knowledge_files_org_upload_idx ON knowledge_files (organization_id, upload_id);

-- Knowledge files an agent answers from besides its campaign's active knowledge base.
CREATE TABLE agent_knowledge_files (
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    agent_id          TEXT NOT NULL REFERENCES agent_profiles (id) ON DELETE CASCADE,
    knowledge_file_id TEXT NOT NULL REFERENCES knowledge_files (id) ON DELETE CASCADE,
    created_at        TIMESTAMP NOT NULL,
    PRIMARY KEY (agent_id, knowledge_file_id)
);
CREATE INDEX agent_knowledge_files_file_idx ON agent_knowledge_files (knowledge_file_id);

-- A passage of an entry's text; the rowid is the FTS5 index's.
CREATE TABLE knowledge_passages (
    id                INTEGER PRIMARY KEY,
    organization_id   TEXT NOT NULL,
    knowledge_base_id TEXT NOT NULL,
    file_id           TEXT NOT NULL REFERENCES knowledge_files (id) ON DELETE CASCADE,
    seq               INTEGER NOT NULL,
    page              INTEGER,
    content           TEXT NOT NULL
);
CREATE INDEX knowledge_passages_file_idx ON knowledge_passages (file_id, seq);
CREATE INDEX knowledge_passages_kb_idx ON knowledge_passages (organization_id, knowledge_base_id);

-- External-content FTS5 index over knowledge_passages.content, kept in step by triggers
-- (which also fire for rows deleted by a cascade).
CREATE VIRTUAL TABLE knowledge_passages_fts USING fts5(
    content, content='knowledge_passages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);

-- +goose StatementBegin
CREATE TRIGGER knowledge_passages_ai AFTER INSERT ON knowledge_passages BEGIN
    INSERT INTO knowledge_passages_fts (rowid, content) VALUES (new.id, new.content);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER knowledge_passages_ad AFTER DELETE ON knowledge_passages BEGIN
    INSERT INTO knowledge_passages_fts (knowledge_passages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER knowledge_passages_ad;
DROP TRIGGER knowledge_passages_ai;
DROP TABLE knowledge_passages_fts;
DROP TABLE knowledge_passages;
DROP TABLE agent_knowledge_files;
DROP TABLE knowledge_files;
DROP TABLE knowledge_base_links;
DROP TABLE knowledge_bases;
