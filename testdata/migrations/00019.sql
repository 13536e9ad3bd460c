-- Rows loaded right after migration 00019: a second workflow of the fixture team using the
-- same node ids as the first, with its own Contacts source and contact on the same node id.
INSERT INTO workflows (id, organization_id, campaign_id, name, name_folded, workflow_type, workflow_template, agent_id, phone_number_id, shopify_enabled, version, graph, readable_prompt_status, readable_prompt, created_at, updated_at)
VALUES ('fixture-workflow-2', 'fixture-org-1', NULL, 'Renewal call (copy)', 'renewal call (copy)', 'outbound', NULL, NULL, NULL, FALSE, 1,
'{"nodes":[{"id":"fixture-node-start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"fixture-node-contacts","type":"contacts","position":{"x":0,"y":400},"data":{"contactsSource":"zapier"},"flow_meta":{}}],"edges":[]}',
'in-progress', NULL, '2026-01-10 00:00:00+00:00', '2026-01-10 00:00:00+00:00');
INSERT INTO workflow_nodes (id, organization_id, workflow_id, type) VALUES ('fixture-node-start', 'fixture-org-1', 'fixture-workflow-2', 'start');
INSERT INTO workflow_nodes (id, organization_id, workflow_id, type) VALUES ('fixture-node-contacts', 'fixture-org-1', 'fixture-workflow-2', 'contacts');
INSERT INTO workflow_contact_sources (node_id, organization_id, workflow_id, import_id, source, status, upload_id, file_name, file_url, connected_app_id, list_id, error, rows_imported, rows_rejected, created_at, updated_at)
VALUES ('fixture-node-contacts', 'fixture-org-1', 'fixture-workflow-2', 'fixture-import-2', 'zapier', 'success', NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, '2026-01-10 00:00:00+00:00', '2026-01-10 00:00:00+00:00');
INSERT INTO workflow_contacts (id, organization_id, workflow_id, node_id, import_id, seq, phone, first_name, last_name, email, lifecycle_stage, extra, region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at, external_id)
VALUES ('fixture-contact-3', 'fixture-org-1', 'fixture-workflow-2', 'fixture-node-contacts', 'fixture-import-2', 1, '+14155550124', 'Cy', NULL, NULL, NULL, NULL, 'US', 'America/Los_Angeles', 'pending', 0, NULL, NULL, NULL, '2026-01-10 00:00:00+00:00', NULL);
