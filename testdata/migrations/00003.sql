-- Rows loaded right after migration 00003: a number, a campaign using it, an agent with a FAQ,
-- a teaching audio file and the team's call configuration.
INSERT INTO phone_numbers (id, organization_id, phone_number, status, is_non_telnyx, country_code, number_type, area_code, monthly_price, created_at, updated_at)
VALUES ('fixture-phone-1', 'fixture-org-1', '+14155550123', 'active', FALSE, 'US', 'local', '415', 1.5, '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
INSERT INTO campaigns (id, organization_id, name, name_folded, direction, status, priority, purpose, settings, workflow_id, phone_number_id, phone_assigned_at, created_at, updated_at)
VALUES ('fixture-campaign-1', 'fixture-org-1', 'Spring renewals', 'spring renewals', 'outbound', 'draft', 'medium', 'Other', '{}', NULL, 'fixture-phone-1', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
INSERT INTO agent_profiles (id, organization_id, campaign_id, name, status, greeting, instructions, voice_id, voice_preset_id, language, faq, created_at, updated_at)
VALUES ('fixture-agent-1', 'fixture-org-1', 'fixture-campaign-1', 'Ava', 'active', 'Hello!', 'Be kind.', NULL, NULL, 'en-US', '{"[1] Hours?":"9 to 5"}', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
INSERT INTO agent_audio_files (id, organization_id, agent_id, upload_id, file_name, summary_status, summary, error, created_at, updated_at)
VALUES ('fixture-audio-1', 'fixture-org-1', 'fixture-agent-1', 'fixture-upload-1', 'call.mp3', 'error', NULL, 'no transcriber', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
INSERT INTO agent_call_configs (id, organization_id, agent_id, phone_number_id, created_at, updated_at)
VALUES ('fixture-callconfig-1', 'fixture-org-1', 'fixture-agent-1', 'fixture-phone-1', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
