-- +goose Up
-- A team's hooks show their latest delivery (issue 13: a zap that stopped receiving events
-- says why): the most recently updated delivery of each hook.
CREATE INDEX zapier_deliveries_recent_idx ON zapier_deliveries (hook_id, updated_at DESC);

-- +goose Down
DROP INDEX zapier_deliveries_recent_idx;
