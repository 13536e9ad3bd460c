-- Rows loaded right after migration 00005: a custom voice profile of the fixture team.
INSERT INTO voice_profiles (id, organization_id, name, name_key, gender, description, language, sample_upload_ids, status, rejection_reason, created_by, created_at, updated_at)
VALUES ('fixture-voice-1', 'fixture-org-1', 'Our CEO', 'our ceo', 'female', 'Warm', 'en-US', '["http://localhost:8080/v1/uploads/fixture-upload-1"]', 'approved', NULL, 'fixture-user-1', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
