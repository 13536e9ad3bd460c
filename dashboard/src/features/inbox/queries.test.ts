import { describe, expect, it } from 'vitest';

import { inboxQueryOptions, priorityLabel, publicLink } from './queries';

describe('inbox queries', () => {
  it('lists without text and searches with it', () => {
    expect(inboxQueryOptions('t1', 2, '').queryKey[0]).toBe('/v1/inbox');
    expect(inboxQueryOptions('t1', 1, '  refund ').queryKey).toEqual(['/v1/inbox/search', { organizationId: 't1', page: 1, sizePerPage: 10, sortBy: 'createdAt', ascending: false, query: 'refund' }]);
    expect(inboxQueryOptions('t1', 1, '').staleTime).toBe(5 * 60_000);
  });

  it('names priorities and builds the share link', () => {
    expect(priorityLabel(0).label).toBe('Low');
    expect(priorityLabel(30).label).toBe('Medium');
    expect(priorityLabel(50).label).toBe('High');
    expect(priorityLabel(100).label).toBe('Urgent');
    expect(publicLink('https://b.example', { id: 'i 1', organizationId: 't1' })).toBe('https://b.example/inbox?inboxId=i%201&organizationId=t1');
  });
});
