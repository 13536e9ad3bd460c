-- +goose Up
-- Issue 21, "the first run just works": two fixes of things that read as broken.

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

-- A paired agent (one answering a number without a campaign) answered from no knowledge base
-- (issue 21): an agent may now name its own, which it answers from wherever it speaks (in a
-- campaign, beside the campaign's active one). Deleting the knowledge base clears it.
ALTER TABLE agent_profiles ADD COLUMN knowledge_base_id TEXT REFERENCES knowledge_bases (id) ON DELETE SET NULL;
CREATE INDEX agent_profiles_knowledge_base_idx ON agent_profiles (knowledge_base_id);

-- +goose Down
DROP INDEX agent_profiles_knowledge_base_idx;
ALTER TABLE agent_profiles DROP COLUMN knowledge_base_id;
