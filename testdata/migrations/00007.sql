-- Rows loaded right after migration 00007: a knowledge base of the fixture team, active for the
-- fixture campaign, with a parsed file (one passage) and a FAQ, and the file linked to the agent.
INSERT INTO knowledge_bases (id, organization_id, name, name_key, campaign_id, created_at, updated_at)
VALUES ('fixture-kb-1', 'fixture-org-1', 'Price lists', 'price lists', 'fixture-campaign-1', '2026-01-05 00:00:00+00:00', '2026-01-05 00:00:00+00:00');
INSERT INTO knowledge_base_links (id, organization_id, knowledge_base_id, campaign_id, active, created_at, updated_at)
VALUES ('fixture-kb-link-1', 'fixture-org-1', 'fixture-kb-1', 'fixture-campaign-1', TRUE, '2026-01-05 00:00:00+00:00', '2026-01-05 00:00:00+00:00');
INSERT INTO knowledge_files (id, organization_id, knowledge_base_id, type, status, name, upload_id, file_name, size, pages, faq, error_message, created_at, updated_at)
VALUES ('fixture-kf-1', 'fixture-org-1', 'fixture-kb-1', 'pdf', 'success', 'price-list.pdf', 'fixture-upload-1', 'price-list.pdf', 10000, 2, NULL, NULL, '2026-01-05 00:00:00+00:00', '2026-01-05 00:00:00+00:00');
INSERT INTO knowledge_files (id, organization_id, knowledge_base_id, type, status, name, upload_id, file_name, size, pages, faq, error_message, created_at, updated_at)
VALUES ('fixture-kf-2', 'fixture-org-1', 'fixture-kb-1', 'faq', 'success', 'Delivery', NULL, NULL, 40, NULL, 'Q: Weekends? A: Saturdays 9 to 1.', NULL, '2026-01-05 00:00:00+00:00', '2026-01-05 00:00:00+00:00');
INSERT INTO knowledge_passages (organization_id, knowledge_base_id, file_id, seq, page, content)
VALUES ('fixture-org-1', 'fixture-kb-1', 'fixture-kf-1', 0, 1, 'Standard delivery costs 5 euros.');
INSERT INTO agent_knowledge_files (organization_id, agent_id, knowledge_file_id, created_at)
VALUES ('fixture-org-1', 'fixture-agent-1', 'fixture-kf-1', '2026-01-05 00:00:00+00:00');
