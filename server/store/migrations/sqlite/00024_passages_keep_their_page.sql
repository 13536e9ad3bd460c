-- +goose Up
-- Issue 22: a passage never spans pages any more, so the page it cites holds it. Files of
-- several pages read before were split across page breaks (an answer on page 2 cited page 1):
-- they are read again. A file parsing whose pages are known was read before; the knowledge
-- sweep (server/knowledge/jobs.go, SweepAbandoned) queues it to be read again rather than
-- failing it, and its old passages answer until its new ones replace them.
UPDATE knowledge_files SET status = 'parsing'
WHERE status = 'success' AND upload_id IS NOT NULL AND pages > 1;

-- +goose Down
-- Files still waiting to be read again keep their old passages; an older sweep would fail them.
UPDATE knowledge_files SET status = 'success' WHERE status = 'parsing' AND pages IS NOT NULL;
