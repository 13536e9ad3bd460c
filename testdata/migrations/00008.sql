-- Rows loaded right after migration 00008: a workflow of the fixture campaign, active for it,
-- spoken by the fixture agent, with its two nodes.
INSERT INTO workflows (id, organization_id, campaign_id, name, name_folded, workflow_type, workflow_template, agent_id, phone_number_id, shopify_enabled, version, graph, readable_prompt_status, readable_prompt, created_at, updated_at)
VALUES ('fixture-workflow-1', 'fixture-org-1', 'fixture-campaign-1', 'Renewal call', 'renewal call', 'outbound', NULL, 'fixture-agent-1', 'fixture-phone-1', FALSE, 2,
'{"nodes":[{"id":"fixture-node-start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"fixture-node-end","type":"end-call","position":{"x":0,"y":-400},"data":{},"flow_meta":{}}],"edges":[{"id":"fixture-edge-1","source":"fixture-node-start","target":"fixture-node-end","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}',
'success', 'Call flow "Renewal call"', '2026-01-08 00:00:00+00:00', '2026-01-08 00:00:00+00:00');
INSERT INTO workflow_nodes (id, organization_id, workflow_id, type) VALUES ('fixture-node-start', 'fixture-org-1', 'fixture-workflow-1', 'start');
INSERT INTO workflow_nodes (id, organization_id, workflow_id, type) VALUES ('fixture-node-end', 'fixture-org-1', 'fixture-workflow-1', 'end-call');
UPDATE campaigns SET workflow_id = 'fixture-workflow-1' WHERE id = 'fixture-campaign-1';
