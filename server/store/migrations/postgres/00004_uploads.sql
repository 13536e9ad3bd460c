-- +goose Up
-- Resumable uploads (tus) and the files they become. An upload's bytes live in the storage
-- (package storage), under "<organization_id>/<id>/": while unfinished as one object per chunk
-- received (upload_parts), once complete as one object (object_key). Other features mark the
-- files they use in upload_refs; a finished file nothing uses is deleted after a while.
CREATE TABLE uploads (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    purpose         TEXT NOT NULL,
    file_name       TEXT NOT NULL,
    -- The declared type until type_checked, then the type read from the bytes.
    file_type       TEXT NOT NULL,
    type_checked    BOOLEAN NOT NULL DEFAULT FALSE,
    -- The Upload-Metadata header given at creation, answered by HEAD.
    metadata        TEXT NOT NULL,
    size            BIGINT NOT NULL,
    received        BIGINT NOT NULL DEFAULT 0,
    object_key      TEXT NOT NULL DEFAULT '',
    completed_at    TIMESTAMPTZ,
    -- An unfinished upload is deleted after expires_at.
    expires_at      TIMESTAMPTZ NOT NULL,
    -- Since when a finished upload is used by nothing (NULL while something uses it).
    unused_since    TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX uploads_org_idx ON uploads (organization_id);
CREATE INDEX uploads_expires_idx ON uploads (expires_at);
CREATE INDEX uploads_unused_idx ON uploads (unused_since);

CREATE TABLE upload_parts (
    upload_id   TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
    part_offset BIGINT NOT NULL,
    size        BIGINT NOT NULL,
    object_key  TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (upload_id, part_offset)
);

-- What uses a finished upload: "<kind>:<id>" of a knowledge file, agent, voice profile…
CREATE TABLE upload_refs (
    upload_id  TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
    ref        TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (upload_id, ref)
);

-- Uploads whose rows are gone (deleted, expired, or with their organisation) and whose bytes
-- are still to be removed from the storage; the trigger records them whatever deleted the row.
CREATE TABLE upload_deletions (
    organization_id TEXT NOT NULL,
    upload_id       TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (organization_id, upload_id)
);

-- +goose StatementBegin
CREATE FUNCTION uploads_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO upload_deletions (organization_id, upload_id, created_at)
    VALUES (OLD.organization_id, OLD.id, now())
    ON CONFLICT DO NOTHING;
    RETURN OLD;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER uploads_deleted AFTER DELETE ON uploads FOR EACH ROW EXECUTE FUNCTION uploads_deleted();

-- +goose Down
DROP TRIGGER uploads_deleted ON uploads;
DROP FUNCTION uploads_deleted();
DROP TABLE upload_deletions;
DROP TABLE upload_refs;
DROP TABLE upload_parts;
DROP TABLE uploads;
