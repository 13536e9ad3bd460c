-- +goose Up
-- Issue 23, "a run you can watch on the canvas": where each call stands in its workflow.

-- current_node_id is the workflow node a call is on now (NULL before the agent speaks and
-- once the call ended); path the nodes it has been on, in order, as a JSON array of node
-- ids. The call driver writes both as the call moves; the canvas counts calls per step
-- from them.
ALTER TABLE call_logs ADD COLUMN current_node_id TEXT;
ALTER TABLE call_logs ADD COLUMN path TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE call_logs DROP COLUMN path;
ALTER TABLE call_logs DROP COLUMN current_node_id;
