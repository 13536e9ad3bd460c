-- +goose Up
-- Node ids are unique within their workflow only (issue 20): a workflow's nodes, the contacts
-- source of a Contacts node and that source's contacts are keyed by (workflow_id, node_id), so
-- a flow can be saved or imported into any workflow and no team learns which node ids another
-- team uses. SQLite cannot change a primary key, so the three tables are rebuilt with every
-- row kept: a contact takes its source's workflow. New tables are filled before the old ones
-- are dropped, so dropping a parent cascades to nothing; renaming the new sources table
-- rewrites the contacts' foreign key to it. An upload a source uses is marked with its
-- workflow too ("contacts:<workflow>:<node>"), as two workflows may now share a node id and
-- a file.
CREATE TABLE workflow_nodes_new (
    id              TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    workflow_id     TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    type            TEXT NOT NULL,
    PRIMARY KEY (workflow_id, id)
);
INSERT INTO workflow_nodes_new (id, organization_id, workflow_id, type)
SELECT id, organization_id, workflow_id, type FROM workflow_nodes;
DROP TABLE workflow_nodes;
ALTER TABLE workflow_nodes_new RENAME TO workflow_nodes;
-- How the guard finds a node among the workflows of the caller's teams.
CREATE INDEX workflow_nodes_org_node_idx ON workflow_nodes (organization_id, id);

CREATE TABLE workflow_contact_sources_new (
    node_id          TEXT NOT NULL,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    workflow_id      TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    import_id        TEXT NOT NULL,
    source           TEXT NOT NULL,
    status           TEXT NOT NULL,
    upload_id        TEXT,
    file_name        TEXT,
    file_url         TEXT,
    connected_app_id TEXT,
    list_id          TEXT,
    error            TEXT,
    rows_imported    INTEGER NOT NULL DEFAULT 0,
    rows_rejected    INTEGER NOT NULL DEFAULT 0,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (workflow_id, node_id)
);
INSERT INTO workflow_contact_sources_new (node_id, organization_id, workflow_id, import_id, source, status, upload_id, file_name,
    file_url, connected_app_id, list_id, error, rows_imported, rows_rejected, created_at, updated_at)
SELECT node_id, organization_id, workflow_id, import_id, source, status, upload_id, file_name,
    file_url, connected_app_id, list_id, error, rows_imported, rows_rejected, created_at, updated_at
FROM workflow_contact_sources;

CREATE TABLE workflow_contacts_new (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    workflow_id     TEXT NOT NULL,
    node_id         TEXT NOT NULL,
    import_id       TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    phone           TEXT NOT NULL,
    first_name      TEXT,
    last_name       TEXT,
    email           TEXT,
    lifecycle_stage TEXT,
    extra           TEXT,
    region          TEXT,
    time_zone       TEXT,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    call_log_id     TEXT,
    last_error      TEXT,
    last_called_at  TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    external_id     TEXT,
    -- Contacts go with their source (and so with their workflow, campaign and team).
    FOREIGN KEY (workflow_id, node_id) REFERENCES workflow_contact_sources_new (workflow_id, node_id) ON DELETE CASCADE
);
INSERT INTO workflow_contacts_new (id, organization_id, workflow_id, node_id, import_id, seq, phone, first_name, last_name, email,
    lifecycle_stage, extra, region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at, external_id)
SELECT c.id, c.organization_id, s.workflow_id, c.node_id, c.import_id, c.seq, c.phone, c.first_name, c.last_name, c.email,
    c.lifecycle_stage, c.extra, c.region, c.time_zone, c.status, c.attempts, c.call_log_id, c.last_error, c.last_called_at, c.created_at,
    c.external_id
FROM workflow_contacts c JOIN workflow_contact_sources s ON s.node_id = c.node_id;

UPDATE upload_refs SET ref = (SELECT 'contacts:' || s.workflow_id || ':' || s.node_id FROM workflow_contact_sources s
        WHERE s.upload_id = upload_refs.upload_id AND 'contacts:' || s.node_id = upload_refs.ref)
WHERE EXISTS (SELECT 1 FROM workflow_contact_sources s WHERE s.upload_id = upload_refs.upload_id AND 'contacts:' || s.node_id = upload_refs.ref);

DROP TABLE workflow_contacts;
DROP TABLE workflow_contact_sources;
ALTER TABLE workflow_contact_sources_new RENAME TO workflow_contact_sources;
ALTER TABLE workflow_contacts_new RENAME TO workflow_contacts;
-- A contacts-import job is named by its import id.
CREATE UNIQUE INDEX workflow_contact_sources_import_key ON workflow_contact_sources (import_id);
-- The node's current import, in file order; deleting a source finds its contacts by node id.
CREATE INDEX workflow_contacts_node_idx ON workflow_contacts (node_id, import_id, seq);
CREATE INDEX workflow_contacts_external_idx ON workflow_contacts (external_id) WHERE external_id IS NOT NULL;

-- +goose Down
-- Only while no node id is used by two workflows.
CREATE TABLE workflow_contact_sources_old (
    node_id          TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    workflow_id      TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    import_id        TEXT NOT NULL,
    source           TEXT NOT NULL,
    status           TEXT NOT NULL,
    upload_id        TEXT,
    file_name        TEXT,
    file_url         TEXT,
    connected_app_id TEXT,
    list_id          TEXT,
    error            TEXT,
    rows_imported    INTEGER NOT NULL DEFAULT 0,
    rows_rejected    INTEGER NOT NULL DEFAULT 0,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
INSERT INTO workflow_contact_sources_old SELECT node_id, organization_id, workflow_id, import_id, source, status, upload_id, file_name,
    file_url, connected_app_id, list_id, error, rows_imported, rows_rejected, created_at, updated_at FROM workflow_contact_sources;
CREATE TABLE workflow_contacts_old (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    node_id         TEXT NOT NULL REFERENCES workflow_contact_sources_old (node_id) ON DELETE CASCADE,
    import_id       TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    phone           TEXT NOT NULL,
    first_name      TEXT,
    last_name       TEXT,
    email           TEXT,
    lifecycle_stage TEXT,
    extra           TEXT,
    region          TEXT,
    time_zone       TEXT,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    call_log_id     TEXT,
    last_error      TEXT,
    last_called_at  TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    external_id     TEXT
);
INSERT INTO workflow_contacts_old SELECT id, organization_id, node_id, import_id, seq, phone, first_name, last_name, email,
    lifecycle_stage, extra, region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at, external_id
FROM workflow_contacts;
UPDATE upload_refs SET ref = (SELECT 'contacts:' || s.node_id FROM workflow_contact_sources s
        WHERE s.upload_id = upload_refs.upload_id AND 'contacts:' || s.workflow_id || ':' || s.node_id = upload_refs.ref)
WHERE EXISTS (SELECT 1 FROM workflow_contact_sources s
        WHERE s.upload_id = upload_refs.upload_id AND 'contacts:' || s.workflow_id || ':' || s.node_id = upload_refs.ref);
DROP TABLE workflow_contacts;
DROP TABLE workflow_contact_sources;
ALTER TABLE workflow_contact_sources_old RENAME TO workflow_contact_sources;
ALTER TABLE workflow_contacts_old RENAME TO workflow_contacts;
CREATE INDEX workflow_contact_sources_workflow_idx ON workflow_contact_sources (workflow_id);
CREATE INDEX workflow_contacts_node_idx ON workflow_contacts (node_id, import_id, seq);
CREATE INDEX workflow_contacts_external_idx ON workflow_contacts (external_id) WHERE external_id IS NOT NULL;

CREATE TABLE workflow_nodes_old (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    workflow_id     TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    type            TEXT NOT NULL
);
INSERT INTO workflow_nodes_old SELECT id, organization_id, workflow_id, type FROM workflow_nodes;
DROP TABLE workflow_nodes;
ALTER TABLE workflow_nodes_old RENAME TO workflow_nodes;
CREATE INDEX workflow_nodes_workflow_idx ON workflow_nodes (workflow_id);
