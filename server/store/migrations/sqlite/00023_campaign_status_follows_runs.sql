-- +goose Up
-- A campaign's status follows its runs (issue 21; the transitions: server/campaigns/status.go
-- and docs/campaign-status.md). Campaigns that ran while it did not are moved as if it had:
-- a draft campaign with a run in progress is active; a draft outbound campaign whose runs have
-- all ended is completed (error when its latest run ended in error). Test runs do not count.
-- Other statuses were set by the user and are kept.
UPDATE campaigns SET status = 'active'
WHERE status = 'draft' AND EXISTS (SELECT 1 FROM workflow_jobs j WHERE j.campaign_id = campaigns.id
    AND j.status = 'in-progress' AND NOT j.is_test AND j.persona IS NULL);
UPDATE campaigns SET status = CASE WHEN (SELECT j.status FROM workflow_jobs j WHERE j.campaign_id = campaigns.id
        AND NOT j.is_test AND j.persona IS NULL ORDER BY COALESCE(j.finished_at, j.created_at) DESC, j.id DESC LIMIT 1) = 'error'
    THEN 'error' ELSE 'completed' END
WHERE status = 'draft' AND direction = 'outbound' AND EXISTS (SELECT 1 FROM workflow_jobs j WHERE j.campaign_id = campaigns.id
    AND NOT j.is_test AND j.persona IS NULL);

-- +goose Down
