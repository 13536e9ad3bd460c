-- +goose Up
-- Phone numbers (issue 8): what the carrier calls a bought number, when a number of the team's
-- own was verified, every number order a team placed, and the attempts to verify numbers.

-- carrier_id is the carrier's id of a bought number when known (releasing looks it up by the
-- number otherwise); verified_at is set on numbers of the team's own (is_non_telnyx).
ALTER TABLE phone_numbers ADD COLUMN carrier_id TEXT;
ALTER TABLE phone_numbers ADD COLUMN verified_at TIMESTAMPTZ;
-- A number bought from the carrier belongs to one team: two teams never hold it at once.
CREATE UNIQUE INDEX phone_numbers_bought_key ON phone_numbers (phone_number) WHERE NOT is_non_telnyx;
-- Whether any team holds a number (search, release of a verified number).
CREATE INDEX phone_numbers_number_idx ON phone_numbers (phone_number);

-- Every number a team ordered from the carrier, kept after the number is released: the
-- onboarding checklist's "bought a phone number" stays done, and support can find the order.
CREATE TABLE phone_number_orders (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    phone_number     TEXT NOT NULL,
    carrier_order_id TEXT NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX phone_number_orders_org_idx ON phone_number_orders (organization_id, created_at);

-- An attempt to verify a number a team owns elsewhere: the carrier sends a code to the number
-- and someone types it back into Betty.
CREATE TABLE phone_number_verifications (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    phone_number    TEXT NOT NULL,
    method          TEXT NOT NULL,
    status          TEXT NOT NULL,
    wrong_codes     INTEGER NOT NULL DEFAULT 0,
    expires_at      TIMESTAMPTZ NOT NULL,
    verified_at     TIMESTAMPTZ,
    phone_number_id TEXT REFERENCES phone_numbers (id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
-- The team's list, newest first; a number's latest attempt and its requests in the last hour.
CREATE INDEX phone_number_verifications_org_idx ON phone_number_verifications (organization_id, created_at DESC, id DESC);
CREATE INDEX phone_number_verifications_number_idx ON phone_number_verifications (organization_id, phone_number, created_at DESC);

-- +goose Down
DROP TABLE phone_number_verifications;
DROP TABLE phone_number_orders;
DROP INDEX phone_numbers_number_idx;
DROP INDEX phone_numbers_bought_key;
ALTER TABLE phone_numbers DROP COLUMN verified_at;
ALTER TABLE phone_numbers DROP COLUMN carrier_id;
