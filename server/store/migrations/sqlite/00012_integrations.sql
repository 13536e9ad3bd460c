-- +goose Up
-- Integrations (issue 13): an organisation's connections to HubSpot and Zapier, and the OAuth
-- states already used. Tokens are sealed (AES-256-GCM, server/integrations/seal.go) with a key
-- from configuration or the server secret integration_token_key; they never leave the server.

-- One connection to one provider account (a HubSpot portal, a Zapier account). The record
-- stays when disconnected (status disconnected, no credential) so it can be reconnected and
-- workflows that name it keep a readable reference.
CREATE TABLE connected_apps (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    integration      TEXT NOT NULL,
    status           TEXT NOT NULL,
    name             TEXT NOT NULL,
    account_id       TEXT,
    -- The current credential: a new id on every (re)connection; NULL while disconnected.
    connection_id    TEXT,
    sealed_tokens    TEXT,
    token_expires_at TIMESTAMP,
    created_by       TEXT,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
CREATE INDEX connected_apps_org_idx ON connected_apps (organization_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX connected_apps_account_key ON connected_apps (organization_id, integration, account_id)
    WHERE account_id IS NOT NULL;
-- Webhooks name the provider account, not the organisation.
CREATE INDEX connected_apps_account_idx ON connected_apps (integration, account_id);

-- OAuth states are signed and carry their expiry; a used one is remembered here until it
-- expires, so it works once.
CREATE TABLE oauth_states_used (
    nonce      TEXT PRIMARY KEY,
    expires_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE oauth_states_used;
DROP TABLE connected_apps;
