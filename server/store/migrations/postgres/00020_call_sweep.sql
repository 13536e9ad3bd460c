-- +goose Up
-- Every call in progress ends (issue 20): a call whose hang-up never arrives no longer holds
-- a line for ever. server/runs (sweep.go) reads these columns; existing rows keep theirs and
-- take NULL here, which the sweep reads as "nothing heard since the answer (or the dial)".

-- last_event_at: when the carrier last told something about the call (the time of its last
-- event, by the carrier's clock). A call silent for long is asked about, and a call the
-- carrier lost is closed and billed up to here, never for the silent time after.
ALTER TABLE contact_attempts ADD COLUMN last_event_at TIMESTAMPTZ;
-- ends_by: the answer plus the campaign's maxCallDurationMinutes; the sweep hangs up a call
-- still on the line after it.
ALTER TABLE contact_attempts ADD COLUMN ends_by TIMESTAMPTZ;
-- swept_at: when the sweep last asked the carrier about the call (or hung it up), so that it
-- asks again only after the silence it waits for.
ALTER TABLE contact_attempts ADD COLUMN swept_at TIMESTAMPTZ;
-- No index of its own: the sweep finds the live attempts team by team through
-- contact_attempts_live_idx (organization_id, state). An index on state cost the dialer about
-- 15% of its time per dial (BenchmarkDialer: every move of an attempt rewrites it).

-- Why Betty ended a call, for people (the call log's endReason); NULL when it ended the usual way.
ALTER TABLE call_logs ADD COLUMN end_reason TEXT;

-- +goose Down
ALTER TABLE call_logs DROP COLUMN end_reason;
ALTER TABLE contact_attempts DROP COLUMN swept_at;
ALTER TABLE contact_attempts DROP COLUMN ends_by;
ALTER TABLE contact_attempts DROP COLUMN last_event_at;
