-- +goose Up
-- Identity: users and their sessions, organisations (teams), members, API keys, one-time
-- tokens (e-mail confirmation, password reset, invitations, ownership transfer), the e-mail
-- outbox and the server's own secrets.
CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    email              TEXT NOT NULL,
    password_hash      TEXT NOT NULL DEFAULT '',
    email_confirmed_at TIMESTAMP,
    is_site_admin      INTEGER NOT NULL DEFAULT 0,
    site_admin_since   TIMESTAMP,
    referral           TEXT NOT NULL DEFAULT '',
    profile            TEXT NOT NULL DEFAULT '{}',
    last_sign_in_at    TIMESTAMP,
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_agent   TEXT NOT NULL DEFAULT '',
    ip           TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP NOT NULL,
    expires_at   TIMESTAMP NOT NULL,
    revoked_at   TIMESTAMP,
    revoked_why  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Refresh tokens are single use: each refresh marks the token rotated and issues the next one
-- of the same session. A rotated token presented again revokes the session (theft).
CREATE TABLE refresh_tokens (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    rotated_at TIMESTAMP
);
CREATE UNIQUE INDEX refresh_tokens_hash_key ON refresh_tokens (token_hash);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

CREATE TABLE referrals (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    ref        TEXT NOT NULL,
    event      TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX referrals_user_idx ON referrals (user_id);

CREATE TABLE organizations (
    id                         TEXT PRIMARY KEY,
    name                       TEXT NOT NULL,
    company_name               TEXT NOT NULL DEFAULT '',
    platform_key               TEXT NOT NULL DEFAULT '',
    industry                   TEXT NOT NULL DEFAULT '',
    purpose                    TEXT NOT NULL DEFAULT '',
    owner_user_id              TEXT NOT NULL REFERENCES users (id),
    public_api_key             TEXT NOT NULL,
    verification_level         TEXT NOT NULL DEFAULT 'none',
    subscription_tier          TEXT NOT NULL DEFAULT 'free',
    subscription_end_at        TIMESTAMP,
    credits_balance            REAL NOT NULL DEFAULT 0,
    billing_address            TEXT,
    billing_address_updated_at TIMESTAMP,
    created_at                 TIMESTAMP NOT NULL,
    updated_at                 TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX organizations_public_api_key_key ON organizations (public_api_key);
CREATE INDEX organizations_owner_idx ON organizations (owner_user_id);

-- A member row exists from the invitation on (status invited), becomes active on acceptance,
-- and is kept as removed when the member leaves, so history survives.
CREATE TABLE organization_members (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         TEXT REFERENCES users (id) ON DELETE SET NULL,
    email           TEXT NOT NULL,
    role            TEXT NOT NULL,
    status          TEXT NOT NULL,
    invited_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    invited_at      TIMESTAMP,
    joined_at       TIMESTAMP,
    removed_at      TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX organization_members_org_email_key ON organization_members (organization_id, email);
CREATE INDEX organization_members_user_idx ON organization_members (user_id);
CREATE INDEX organization_members_email_idx ON organization_members (email);

CREATE TABLE api_keys (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    prefix          TEXT NOT NULL,
    key_hash        TEXT NOT NULL,
    role            TEXT NOT NULL,
    created_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    last_used_at    TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);
CREATE UNIQUE INDEX api_keys_org_name_key ON api_keys (organization_id, name);

-- One-time tokens sent by e-mail. Only a hash is stored.
CREATE TABLE one_time_tokens (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL,
    token_hash      TEXT NOT NULL,
    user_id         TEXT REFERENCES users (id) ON DELETE CASCADE,
    organization_id TEXT REFERENCES organizations (id) ON DELETE CASCADE,
    member_id       TEXT REFERENCES organization_members (id) ON DELETE CASCADE,
    email           TEXT NOT NULL DEFAULT '',
    expires_at      TIMESTAMP NOT NULL,
    used_at         TIMESTAMP,
    created_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX one_time_tokens_hash_key ON one_time_tokens (token_hash);
CREATE INDEX one_time_tokens_member_idx ON one_time_tokens (member_id);

CREATE TABLE verification_requests (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    current_level   TEXT NOT NULL,
    requested_level TEXT NOT NULL,
    status          TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE INDEX verification_requests_org_idx ON verification_requests (organization_id);

-- Mail that was sent, or (without SMTP) kept here and logged so a local user can follow it.
CREATE TABLE email_outbox (
    id         TEXT PRIMARY KEY,
    recipient  TEXT NOT NULL,
    subject    TEXT NOT NULL,
    body       TEXT NOT NULL,
    link       TEXT NOT NULL DEFAULT '',
    kind       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    sent_at    TIMESTAMP,
    error      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX email_outbox_recipient_idx ON email_outbox (recipient);

-- Secrets the server makes itself on first start (the access-token signing key), shared by
-- every replica through the database.
CREATE TABLE server_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE server_secrets;
DROP TABLE email_outbox;
DROP TABLE verification_requests;
DROP TABLE one_time_tokens;
DROP TABLE api_keys;
DROP TABLE organization_members;
DROP TABLE organizations;
DROP TABLE referrals;
DROP TABLE refresh_tokens;
DROP TABLE sessions;
DROP TABLE users;
