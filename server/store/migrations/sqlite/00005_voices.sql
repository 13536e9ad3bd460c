-- +goose Up
-- A team's custom voice profiles: what was asked (name, gender, language, samples) and where the
-- voice stands. The preset it speaks with is worked out from the speech engine on each read, so
-- a change of engine needs no migration. name_key is the name in lower case: names are unique
-- in a team regardless of case.
CREATE TABLE voice_profiles (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    name_key         TEXT NOT NULL,
    gender           TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    language         TEXT NOT NULL DEFAULT 'en-US',
    sample_upload_ids TEXT NOT NULL DEFAULT '[]',
    status           TEXT NOT NULL,
    rejection_reason TEXT,
    created_by       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX voice_profiles_org_name_key ON voice_profiles (organization_id, name_key);
CREATE INDEX voice_profiles_org_created_idx ON voice_profiles (organization_id, created_at);

-- +goose Down
DROP TABLE voice_profiles;
