-- +goose Up
-- Node ids are unique within their workflow only (issue 20): a workflow's nodes, the contacts
-- source of a Contacts node and that source's contacts are keyed by (workflow_id, node_id), so
-- a flow can be saved or imported into any workflow and no team learns which node ids another
-- team uses. Every row is kept: a contact takes its source's workflow. An upload a source uses
-- is marked with its workflow too ("contacts:<workflow>:<node>"), as two workflows may now
-- share a node id and a file.
ALTER TABLE workflow_nodes DROP CONSTRAINT workflow_nodes_pkey;
ALTER TABLE workflow_nodes ADD PRIMARY KEY (workflow_id, id);
DROP INDEX workflow_nodes_workflow_idx;
-- How the guard finds a node among the workflows of the caller's teams.
CREATE INDEX workflow_nodes_org_node_idx ON workflow_nodes (organization_id, id);

ALTER TABLE workflow_contacts ADD COLUMN workflow_id TEXT;
UPDATE workflow_contacts c SET workflow_id = s.workflow_id FROM workflow_contact_sources s WHERE s.node_id = c.node_id;
ALTER TABLE workflow_contacts ALTER COLUMN workflow_id SET NOT NULL;
ALTER TABLE workflow_contacts DROP CONSTRAINT workflow_contacts_node_id_fkey;
ALTER TABLE workflow_contact_sources DROP CONSTRAINT workflow_contact_sources_pkey;
ALTER TABLE workflow_contact_sources ADD PRIMARY KEY (workflow_id, node_id);
DROP INDEX workflow_contact_sources_workflow_idx;
-- Contacts go with their source (and so with their workflow, campaign and team).
ALTER TABLE workflow_contacts ADD CONSTRAINT workflow_contacts_source_fkey FOREIGN KEY (workflow_id, node_id)
    REFERENCES workflow_contact_sources (workflow_id, node_id) ON DELETE CASCADE;
-- A contacts-import job is named by its import id.
CREATE UNIQUE INDEX workflow_contact_sources_import_key ON workflow_contact_sources (import_id);

UPDATE upload_refs r SET ref = 'contacts:' || s.workflow_id || ':' || s.node_id
FROM workflow_contact_sources s WHERE s.upload_id = r.upload_id AND r.ref = 'contacts:' || s.node_id;

-- +goose Down
-- Only while no node id is used by two workflows.
UPDATE upload_refs r SET ref = 'contacts:' || s.node_id
FROM workflow_contact_sources s WHERE s.upload_id = r.upload_id AND r.ref = 'contacts:' || s.workflow_id || ':' || s.node_id;
DROP INDEX workflow_contact_sources_import_key;
ALTER TABLE workflow_contacts DROP CONSTRAINT workflow_contacts_source_fkey;
ALTER TABLE workflow_contact_sources DROP CONSTRAINT workflow_contact_sources_pkey;
ALTER TABLE workflow_contact_sources ADD PRIMARY KEY (node_id);
CREATE INDEX workflow_contact_sources_workflow_idx ON workflow_contact_sources (workflow_id);
ALTER TABLE workflow_contacts ADD CONSTRAINT workflow_contacts_node_id_fkey FOREIGN KEY (node_id)
    REFERENCES workflow_contact_sources (node_id) ON DELETE CASCADE;
ALTER TABLE workflow_contacts DROP COLUMN workflow_id;
DROP INDEX workflow_nodes_org_node_idx;
ALTER TABLE workflow_nodes DROP CONSTRAINT workflow_nodes_pkey;
ALTER TABLE workflow_nodes ADD PRIMARY KEY (id);
CREATE INDEX workflow_nodes_workflow_idx ON workflow_nodes (workflow_id);
