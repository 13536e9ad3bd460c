-- +goose Up
-- Issue 22, "what a call leaves behind": the post-call analysis of every finished call.

-- A finished call's analysis (conversation.Analysis): the summary of what happened, the
-- outcome, and the workflow's post-call fields the call answered, as JSON
-- [{"name", "value", "turn"}] (turn: the index of the transcript turn the value was read
-- from). analysed_by says who read the fields ("patterns" or the language model's name).
-- One row per call log, written in the transaction that closes it.
CREATE TABLE call_analyses (
    call_log_id     TEXT PRIMARY KEY REFERENCES call_logs (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    summary         TEXT NOT NULL,
    outcome         TEXT NOT NULL,
    fields          TEXT NOT NULL DEFAULT '[]',
    analysed_by     TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX call_analyses_org_idx ON call_analyses (organization_id);

-- The shipped templates define the fields their calls gather (workflow.PostCallField), kept
-- in the graph's postCallFields beside its nodes and edges. One statement per template, after
-- 00023 (which rewrites the templates' graphs with their spoken lines).
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"issue","type":"text","description":"What does the caller need help with?"}]'::jsonb)::text WHERE id = 'template-customer-support';
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"will_attend","type":"yes-no","description":"Can they still make it to their appointment?"},{"name":"new_time","type":"date","description":"Which day and time would suit them better?"}]'::jsonb)::text WHERE id = 'template-appointment-reminder';
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"interested","type":"yes-no","description":"Are they looking for a solution like ours this quarter?"},{"name":"demo_day","type":"date","description":"Which day and time would suit them for a 20-minute demo?"},{"name":"email","type":"email","description":"What is the best e-mail address to send the invitation to?"}]'::jsonb)::text WHERE id = 'template-lead-qualification';
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"satisfaction","type":"number","description":"How would they rate it from 1 to 5?"},{"name":"reason","type":"text","description":"Why would they rate it that way?"}]'::jsonb)::text WHERE id = 'template-feedback';
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"has_questions","type":"yes-no","description":"Do they have questions about their order?"}]'::jsonb)::text WHERE id = 'template-order-update';
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"urgent","type":"yes-no","description":"Is the call urgent?"},{"name":"callback_number","type":"phone","description":"Which phone number can we call them back on?"},{"name":"message","type":"text","description":"What message should we pass on?"}]'::jsonb)::text WHERE id = 'template-after-hours';
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"booking_confirmed","type":"yes-no","description":"Do they confirm the booking details?"}]'::jsonb)::text WHERE id = 'template-booking-confirmation';
UPDATE workflow_templates SET graph = jsonb_set(graph::jsonb, '{postCallFields}', '[{"name":"request","type":"text","description":"What does the caller need help with?"}]'::jsonb)::text WHERE id = 'template-answer-calls';

-- +goose Down
UPDATE workflow_templates SET graph = (graph::jsonb - 'postCallFields')::text;
DROP TABLE call_analyses;
