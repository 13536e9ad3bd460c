-- +goose Up
-- Zapier REST hooks (issue 13): the subscriptions a team's zaps make with its API key, and one
-- delivery per subscription and entity (River works it; this row is its bookkeeping and makes
-- a second event about the same entity deliver nothing new). Samples are read from the
-- team's recent entities, so nothing is written for a team without subscriptions.
CREATE TABLE zapier_hooks (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    event           TEXT NOT NULL,
    hook_url        TEXT NOT NULL,
    -- The API key that subscribed (NULL once that key is deleted).
    api_key_id      TEXT,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX zapier_hooks_url_key ON zapier_hooks (organization_id, event, hook_url);
CREATE INDEX zapier_hooks_org_idx ON zapier_hooks (organization_id, created_at DESC, id DESC);

CREATE TABLE zapier_deliveries (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    hook_id         TEXT NOT NULL REFERENCES zapier_hooks (id) ON DELETE CASCADE,
    event           TEXT NOT NULL,
    entity_id       TEXT NOT NULL,
    payload         TEXT NOT NULL,
    -- pending, delivered, failed (retries spent) or gone (the hook answered 410).
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_status     INTEGER,
    last_error      TEXT,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX zapier_deliveries_entity_key ON zapier_deliveries (hook_id, entity_id);

-- +goose Down
DROP TABLE zapier_deliveries;
DROP TABLE zapier_hooks;
