-- +goose Up
-- Users, organisations (teams) and their members: the identity every later table hangs on.
CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    email              TEXT NOT NULL,
    name               TEXT NOT NULL DEFAULT '',
    password_hash      TEXT NOT NULL DEFAULT '',
    email_confirmed_at TIMESTAMPTZ,
    is_site_admin      BOOLEAN NOT NULL DEFAULT FALSE,
    is_internal        BOOLEAN NOT NULL DEFAULT FALSE,
    referral           TEXT NOT NULL DEFAULT '',
    properties         JSONB NOT NULL DEFAULT '{}',
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE organizations (
    id                 TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    company_name       TEXT NOT NULL DEFAULT '',
    platform_key       TEXT NOT NULL DEFAULT '',
    industry           TEXT NOT NULL DEFAULT '',
    purpose            TEXT NOT NULL DEFAULT '',
    owner_user_id      TEXT NOT NULL REFERENCES users (id),
    public_api_key     TEXT NOT NULL,
    verification_level TEXT NOT NULL DEFAULT 'none',
    subscription_tier  TEXT NOT NULL DEFAULT 'free',
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX organizations_public_api_key_key ON organizations (public_api_key);
CREATE INDEX organizations_owner_idx ON organizations (owner_user_id);

CREATE TABLE organization_members (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         TEXT REFERENCES users (id),
    email           TEXT NOT NULL,
    role            TEXT NOT NULL,
    status          TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX organization_members_org_email_key ON organization_members (organization_id, email);
CREATE INDEX organization_members_user_idx ON organization_members (user_id);

-- +goose Down
DROP TABLE organization_members;
DROP TABLE organizations;
DROP TABLE users;
