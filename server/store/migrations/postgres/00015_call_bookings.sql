-- +goose Up
-- Book-a-call (issue 13): shoppers ask the storefront widget for a call; each request is a
-- booking that starts a single-contact run of the team's storefront workflow. The abuse limits
-- of server/integrations/shopify are counted from these rows, in the database, so they hold
-- across replicas.

-- One booking: the call a shopper asked for, with the consent they gave (the sentence, the
-- page, the client address, the time), kept as the record of that consent.
CREATE TABLE call_bookings (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    workflow_id      TEXT NOT NULL,
    job_id           TEXT NOT NULL,
    phone_number     TEXT NOT NULL,
    name             TEXT,
    consent_text     TEXT NOT NULL,
    page_url         TEXT,
    client_ip        TEXT NOT NULL,
    consent_given_at TIMESTAMP NOT NULL,
    created_at       TIMESTAMP NOT NULL
);
-- The per-team daily cap and the per-number daily limit (across teams) count from these.
CREATE INDEX call_bookings_org_idx ON call_bookings (organization_id, created_at);
CREATE INDEX call_bookings_phone_idx ON call_bookings (phone_number, created_at);

-- Every book-a-call request a client address made (refused ones too, except those refused by
-- this very limit), for the per-address hourly limit; rows older than a day are pruned.
CREATE TABLE call_booking_requests (
    id         TEXT PRIMARY KEY,
    client_key TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX call_booking_requests_client_idx ON call_booking_requests (client_key, created_at);
CREATE INDEX call_booking_requests_created_idx ON call_booking_requests (created_at);

-- One run over a workflow's Contacts node at a time (node_id set); single-contact runs (a
-- booking's, no node) and test runs may run beside it and beside each other.
DROP INDEX workflow_jobs_running_key;
CREATE UNIQUE INDEX workflow_jobs_running_key ON workflow_jobs (workflow_id)
    WHERE status = 'in-progress' AND NOT is_test AND node_id IS NOT NULL;

-- +goose Down
DROP INDEX workflow_jobs_running_key;
CREATE UNIQUE INDEX workflow_jobs_running_key ON workflow_jobs (workflow_id) WHERE status = 'in-progress' AND NOT is_test;
DROP TABLE call_booking_requests;
DROP TABLE call_bookings;
