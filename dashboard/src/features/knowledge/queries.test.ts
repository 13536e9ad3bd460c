import { describe, expect, it } from 'vitest';

import { FOLLOW_FOR_MS, FOLLOW_POLL_MS, KNOWLEDGE_BASES_PAGE_SIZE, KNOWLEDGE_FILES_PAGE_SIZE, KNOWLEDGE_POLL_MS, filesPollMs, knowledgeBasesQueryOptions, knowledgeFilesQueryOptions } from './queries';

describe('knowledge-base polling and pages', () => {
  it('uses the spec’s page sizes and 60 s polling', () => {
    expect(KNOWLEDGE_BASES_PAGE_SIZE).toBe(20);
    expect(KNOWLEDGE_FILES_PAGE_SIZE).toBe(10);
    expect(KNOWLEDGE_POLL_MS).toBe(60_000);
    expect(knowledgeBasesQueryOptions('t1', 2).queryKey).toEqual(['/v1/campaigns/knowledge-base/list/t1', { page: 2, limit: 20 }]);
    expect(knowledgeBasesQueryOptions('t1', 1, 'c1').queryKey).toEqual(['/v1/campaigns/knowledge-base/list/t1', { page: 1, limit: 20, campaignId: 'c1' }]);
    expect(knowledgeFilesQueryOptions('t1', 'kb1', 3).queryKey).toEqual(['/v1/campaigns/knowledge-base/files/kb1', { organizationId: 't1', page: 3, limit: 10 }]);
  });

  it('follows a file this page just added every 2 s while it parses, else every 60 s', () => {
    const now = 1_000_000;
    const followed = new Map([['f1', now - 5_000]]);
    expect(filesPollMs(undefined, followed, now)).toBe(KNOWLEDGE_POLL_MS);
    expect(filesPollMs([{ id: 'f1', status: 'parsing' }], followed, now)).toBe(FOLLOW_POLL_MS);
    expect(filesPollMs([{ id: 'f1', status: 'success' }], followed, now)).toBe(KNOWLEDGE_POLL_MS);
    expect(filesPollMs([{ id: 'f1', status: 'error' }], followed, now)).toBe(KNOWLEDGE_POLL_MS);
    // Someone else's upload still parsing: the spec's 60 s.
    expect(filesPollMs([{ id: 'f2', status: 'parsing' }], followed, now)).toBe(KNOWLEDGE_POLL_MS);
    // A file still parsing after two minutes is no longer followed closely.
    expect(filesPollMs([{ id: 'f1', status: 'parsing' }], followed, now + FOLLOW_FOR_MS)).toBe(KNOWLEDGE_POLL_MS);
  });
});
