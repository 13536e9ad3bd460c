import { describe, expect, it } from 'vitest';

import { filterParams, filtersFromParams, withFilters } from './filters';

describe('campaign list filters in the URL', () => {
  it('reads status and name, defaulting to every campaign', () => {
    expect(filtersFromParams(new URLSearchParams(''))).toEqual({ status: 'all', name: '' });
    expect(filtersFromParams(new URLSearchParams('status=paused&name=%20renewal%20'))).toEqual({ status: 'paused', name: 'renewal' });
    expect(filtersFromParams(new URLSearchParams('status=bogus'))).toEqual({ status: 'all', name: '' });
  });

  it('changing a filter goes back to page 1 and keeps other parameters (the team)', () => {
    const next = withFilters(new URLSearchParams('teamId=t1&page=3&status=draft'), { name: 'spring' });
    expect(next.toString()).toBe('teamId=t1&status=draft&name=spring');
  });

  it('leaves defaults out of the URL', () => {
    expect(withFilters(new URLSearchParams('status=draft&name=x&page=2'), { status: 'all', name: '  ' }).toString()).toBe('');
  });

  it('sends only what narrows the list', () => {
    expect(filterParams({ status: 'all', name: '' })).toEqual({});
    expect(filterParams({ status: 'error', name: 'q' })).toEqual({ status: 'error', name: 'q' });
  });
});
