-- +goose Up
-- Campaigns, agent profiles (with their FAQ and teaching audio), the organisation's agent call
-- configuration, and phone numbers (the phones feature adds to this table).

-- A phone number of an organisation: bought through the carrier, or one of its own verified
-- as caller id (is_non_telnyx).
CREATE TABLE phone_numbers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    phone_number    TEXT NOT NULL,
    status          TEXT NOT NULL,
    is_non_telnyx   INTEGER NOT NULL DEFAULT 0,
    country_code    TEXT NOT NULL,
    number_type     TEXT,
    area_code       TEXT,
    monthly_price   REAL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX phone_numbers_org_number_key ON phone_numbers (organization_id, phone_number);

CREATE TABLE campaigns (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    name_folded     TEXT NOT NULL,
    direction       TEXT NOT NULL,
    status          TEXT NOT NULL,
    priority        TEXT NOT NULL,
    purpose         TEXT NOT NULL,
    settings        TEXT NOT NULL,
    workflow_id     TEXT,
    phone_number_id TEXT REFERENCES phone_numbers (id) ON DELETE SET NULL,
    phone_assigned_at TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
-- The list: a team's campaigns newest first, filtered by status.
CREATE INDEX campaigns_org_created_idx ON campaigns (organization_id, created_at DESC, id DESC);
CREATE INDEX campaigns_org_status_created_idx ON campaigns (organization_id, status, created_at DESC, id DESC);
CREATE INDEX campaigns_phone_idx ON campaigns (phone_number_id);

CREATE TABLE agent_profiles (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    campaign_id     TEXT REFERENCES campaigns (id) ON DELETE SET NULL,
    name            TEXT NOT NULL,
    status          TEXT NOT NULL,
    greeting        TEXT NOT NULL DEFAULT '',
    instructions    TEXT NOT NULL DEFAULT '',
    voice_id        TEXT,
    voice_preset_id TEXT,
    language        TEXT NOT NULL,
    faq             TEXT NOT NULL DEFAULT '{}',
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE INDEX agent_profiles_org_created_idx ON agent_profiles (organization_id, created_at DESC, id DESC);
CREATE INDEX agent_profiles_campaign_idx ON agent_profiles (campaign_id, status);

-- Teaching audio: a recorded call the agent learns from, with what was learnt.
CREATE TABLE agent_audio_files (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    agent_id        TEXT NOT NULL REFERENCES agent_profiles (id) ON DELETE CASCADE,
    upload_id       TEXT NOT NULL,
    file_name       TEXT NOT NULL,
    summary_status  TEXT NOT NULL,
    summary         TEXT,
    error           TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE INDEX agent_audio_files_agent_idx ON agent_audio_files (agent_id, created_at DESC);

-- Which agent answers calls to which number: one per organisation.
CREATE TABLE agent_call_configs (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    agent_id        TEXT NOT NULL REFERENCES agent_profiles (id) ON DELETE CASCADE,
    phone_number_id TEXT NOT NULL REFERENCES phone_numbers (id) ON DELETE CASCADE,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX agent_call_configs_org_key ON agent_call_configs (organization_id);

-- +goose Down
DROP TABLE agent_call_configs;
DROP TABLE agent_audio_files;
DROP TABLE agent_profiles;
DROP TABLE campaigns;
DROP TABLE phone_numbers;
