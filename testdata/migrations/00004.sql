-- Rows loaded right after migration 00004: an unfinished upload with one chunk, a finished one
-- used by something, and the trigger's record of a deleted upload.
INSERT INTO uploads (id, organization_id, purpose, file_name, file_type, type_checked, metadata, size, received, object_key, completed_at, expires_at, unused_since, created_at, updated_at)
VALUES ('fixture-upload-1', 'fixture-org-1', 'knowledge-file', 'price-list.pdf', 'application/pdf', TRUE, 'filename cHJpY2UtbGlzdC5wZGY=', 10000, 6000, '', NULL, '2026-01-04 00:00:00+00:00', NULL, '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
INSERT INTO upload_parts (upload_id, part_offset, size, object_key, created_at)
VALUES ('fixture-upload-1', 0, 6000, 'fixture-upload-1/part-00000000000000000000-a', '2026-01-03 00:00:00+00:00');
INSERT INTO uploads (id, organization_id, purpose, file_name, file_type, type_checked, metadata, size, received, object_key, completed_at, expires_at, unused_since, created_at, updated_at)
VALUES ('fixture-upload-2', 'fixture-org-1', 'agent-audio', 'hello.mp3', 'audio/mpeg', TRUE, 'filename aGVsbG8ubXAz', 5000, 5000, 'fixture-upload-2/file-b', '2026-01-03 00:00:00+00:00', '2026-01-04 00:00:00+00:00', NULL, '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
INSERT INTO upload_refs (upload_id, ref, created_at)
VALUES ('fixture-upload-2', 'agent:fixture-agent-1', '2026-01-03 00:00:00+00:00');
INSERT INTO uploads (id, organization_id, purpose, file_name, file_type, type_checked, metadata, size, received, object_key, completed_at, expires_at, unused_since, created_at, updated_at)
VALUES ('fixture-upload-3', 'fixture-org-1', 'contacts-csv', 'list.csv', 'text/csv', FALSE, 'filename bGlzdC5jc3Y=', 10, 0, '', NULL, '2026-01-04 00:00:00+00:00', NULL, '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
DELETE FROM uploads WHERE id = 'fixture-upload-3';
