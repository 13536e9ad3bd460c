-- Rows loaded right after migration 00011: a run of the fixture workflow with one call on the
-- line (answered, its hang-up not come yet) and its call log, so later migrations of
-- contact_attempts and call_logs (00020: the call sweep's columns) meet a live call.
INSERT INTO workflow_jobs (id, organization_id, workflow_id, campaign_id, type, status, paused, is_test, triggered_by, spent,
    from_number, graph, settings, total, started_at, created_at, updated_at)
VALUES ('fixture-job-1', 'fixture-org-1', 'fixture-workflow-1', 'fixture-campaign-1', 'workflow-run', 'in-progress', FALSE, FALSE,
    'ada@example.com', 0, '+14155550100', '{"nodes":[],"edges":[]}', '{"timezone":"UTC","maxAttempts":1}', 1,
    '2026-01-09 10:00:00+00:00', '2026-01-09 10:00:00+00:00', '2026-01-09 10:00:00+00:00');
INSERT INTO call_logs (id, organization_id, call_control_id, direction, from_number, to_number, status, campaign_id, workflow_id,
    job_id, attempt_id, start_time, answered_at, billed_minutes, cost, has_transcript, created_at, updated_at)
VALUES ('fixture-call-log-1', 'fixture-org-1', 'v3:fixture-call-1', 'outbound', '+14155550100', '+14155550123', 'in-progress',
    'fixture-campaign-1', 'fixture-workflow-1', 'fixture-job-1', 'fixture-job-1.1.1', '2026-01-09 10:00:01+00:00',
    '2026-01-09 10:00:05+00:00', 0, 0, FALSE, '2026-01-09 10:00:01+00:00', '2026-01-09 10:00:05+00:00');
INSERT INTO contact_attempts (id, organization_id, job_id, seq, attempt, phone, state, retried, due_at, dialled_at, answered_at,
    call_control_id, call_log_id, commands, billed_minutes, cost, created_at, updated_at)
VALUES ('fixture-job-1.1.1', 'fixture-org-1', 'fixture-job-1', 1, 1, '+14155550123', 'in-call', FALSE, '2026-01-09 10:00:00+00:00',
    '2026-01-09 10:00:01+00:00', '2026-01-09 10:00:05+00:00', 'v3:fixture-call-1', 'fixture-call-log-1', 2, 0, 0,
    '2026-01-09 10:00:00+00:00', '2026-01-09 10:00:05+00:00');
