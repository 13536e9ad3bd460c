-- Rows loaded right after migration 00001 (both dialects), so later migrations meet real data.
INSERT INTO users (id, email, password_hash, created_at, updated_at)
VALUES ('fixture-user-1', 'owner@example.com', '', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');
INSERT INTO organizations (id, name, owner_user_id, public_api_key, created_at, updated_at)
VALUES ('fixture-org-1', 'Fixture Team', 'fixture-user-1', 'pk_fixture_1', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');
INSERT INTO organization_members (id, organization_id, user_id, email, role, status, created_at, updated_at)
VALUES ('fixture-member-1', 'fixture-org-1', 'fixture-user-1', 'owner@example.com', 'owner', 'active', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');
INSERT INTO email_outbox (id, recipient, subject, body, link, kind, created_at, sent_at, error)
VALUES ('fixture-mail-1', 'owner@example.com', 'Confirm', 'Open the link', 'http://localhost:8080/confirm-email?token=x', 'confirm-email', '2026-01-01 00:00:00+00:00', NULL, '');
INSERT INTO email_outbox (id, recipient, subject, body, link, kind, created_at, sent_at, error)
VALUES ('fixture-mail-2', 'owner@example.com', 'Reset', 'Open the link', 'http://localhost:8080/reset-password?token=y', 'password-reset', '2026-01-01 00:00:01+00:00', '2026-01-01 00:00:02+00:00', '');
