-- +goose Up
-- HubSpot (issue 13): the contacts of a Contacts node whose source is HubSpot are rows of
-- workflow_contacts like CSV ones, keyed by their HubSpot record id; HubSpot's webhook events
-- already handled; the lifecycle-stage write-backs after calls and what came of them.

-- The source's record id (HubSpot's contact id); NULL for CSV rows.
ALTER TABLE workflow_contacts ADD COLUMN external_id TEXT;
CREATE INDEX workflow_contacts_external_idx ON workflow_contacts (external_id) WHERE external_id IS NOT NULL;

-- Webhook events handled (HubSpot delivers a batch again when it is not acknowledged).
CREATE TABLE hubspot_webhook_events (
    event_id    TEXT PRIMARY KEY,
    received_at TIMESTAMP NOT NULL
);

-- A lifecycle stage written back to HubSpot after a call: pending while the River job tries,
-- done or failed (with the reason) after.
CREATE TABLE hubspot_stage_updates (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    connected_app_id TEXT NOT NULL,
    -- HubSpot's contact id and Betty's contact row.
    hubspot_id       TEXT NOT NULL,
    contact_id       TEXT,
    call_log_id      TEXT,
    stage            TEXT NOT NULL,
    status           TEXT NOT NULL,
    reason           TEXT,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
CREATE INDEX hubspot_stage_updates_call_idx ON hubspot_stage_updates (organization_id, call_log_id);

-- +goose Down
DROP TABLE hubspot_stage_updates;
DROP TABLE hubspot_webhook_events;
DROP INDEX workflow_contacts_external_idx;
ALTER TABLE workflow_contacts DROP COLUMN external_id;
