-- +goose Up
-- Billing (issue 12): the team's account with the payment provider, the payments it started,
-- the credit ledger, the monthly phone-number subscriptions and the provider events handled.
-- (Numbered 9: number 8 is taken by work on another branch.)

-- One row per team that ever reached the payment provider. subscription_status is the tier
-- subscription's state (none, trialing, active, past_due, unpaid, cancelled).
CREATE TABLE billing_accounts (
    organization_id          TEXT PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    customer_id              TEXT,
    subscription_id          TEXT,
    subscription_status      TEXT NOT NULL DEFAULT 'none',
    cancel_at_period_end     BOOLEAN NOT NULL DEFAULT FALSE,
    trial_ends_at            TIMESTAMPTZ,
    trial_used               BOOLEAN NOT NULL DEFAULT FALSE,
    past_due_since           TIMESTAMPTZ,
    created_at               TIMESTAMPTZ NOT NULL,
    updated_at               TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX billing_accounts_customer_key ON billing_accounts (customer_id);

-- A payment a team started: credits, a tier subscription or a phone-number subscription.
CREATE TABLE payment_intents (
    id                 TEXT PRIMARY KEY,
    organization_id    TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    created_by_user_id TEXT,
    kind               TEXT NOT NULL,
    status             TEXT NOT NULL,
    amount             DOUBLE PRECISION NOT NULL,
    currency           TEXT NOT NULL,
    credits            INTEGER,
    target_tier        TEXT,
    trial_days         INTEGER,
    phone_number       TEXT,
    session_id         TEXT,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_intents_org_idx ON payment_intents (organization_id, created_at DESC);
CREATE UNIQUE INDEX payment_intents_session_key ON payment_intents (session_id);

-- Every change of a team's credit balance, with why. organizations.credits_balance is the sum,
-- kept in the same transaction as each row. A payment intent adds credits at most once.
CREATE TABLE credit_ledger (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    amount            DOUBLE PRECISION NOT NULL,
    reason            TEXT NOT NULL,
    payment_intent_id TEXT REFERENCES payment_intents (id) ON DELETE SET NULL,
    actor_user_id     TEXT,
    created_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX credit_ledger_org_idx ON credit_ledger (organization_id, created_at);
CREATE UNIQUE INDEX credit_ledger_intent_key ON credit_ledger (payment_intent_id);

-- The monthly subscription paying for one bought number; kept after the number is released.
CREATE TABLE phone_number_subscriptions (
    id                   TEXT PRIMARY KEY,
    organization_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    phone_number         TEXT NOT NULL,
    phone_number_id      TEXT REFERENCES phone_numbers (id) ON DELETE SET NULL,
    status               TEXT NOT NULL,
    monthly_price        DOUBLE PRECISION NOT NULL,
    currency             TEXT NOT NULL,
    subscription_id      TEXT,
    current_period_end   TIMESTAMPTZ,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX phone_number_subscriptions_org_idx ON phone_number_subscriptions (organization_id, created_at);
CREATE UNIQUE INDEX phone_number_subscriptions_sub_key ON phone_number_subscriptions (subscription_id);

-- The payment provider's events already handled, by event id: each is handled once.
CREATE TABLE payment_events (
    id          TEXT PRIMARY KEY,
    type        TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE payment_events;
DROP TABLE phone_number_subscriptions;
DROP TABLE credit_ledger;
DROP TABLE payment_intents;
DROP TABLE billing_accounts;
