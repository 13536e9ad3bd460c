-- +goose Up
-- Calls through the offline simulator are fictional (issue 21): they cost nothing, are never
-- refused for credits, and their call logs say so. Calls made before this column existed were
-- charged as any call, so they keep false.
ALTER TABLE call_logs ADD COLUMN simulated BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE call_logs DROP COLUMN simulated;
