-- +goose Up
-- E-mail is written to the outbox in the transaction of the change that causes it and sent by a
-- background job (River): the row says where it stands and how many attempts were made.
ALTER TABLE email_outbox ADD COLUMN status TEXT NOT NULL DEFAULT 'queued';
ALTER TABLE email_outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
UPDATE email_outbox SET status = CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN error <> '' THEN 'failed' ELSE 'kept' END,
    attempts = CASE WHEN sent_at IS NOT NULL OR error <> '' THEN 1 ELSE 0 END;
CREATE INDEX email_outbox_created_idx ON email_outbox (created_at);

-- +goose Down
DROP INDEX email_outbox_created_idx;
ALTER TABLE email_outbox DROP COLUMN attempts;
ALTER TABLE email_outbox DROP COLUMN status;
