-- Rows loaded right after migration 00002: the outbox rows of 00001 got their status.
INSERT INTO email_outbox (id, recipient, subject, body, link, kind, created_at, sent_at, error, status, attempts)
VALUES ('fixture-mail-3', 'owner@example.com', 'Invitation', 'Join', '', 'invitation', '2026-01-02 00:00:00+00:00', NULL, '', 'queued', 0);
