import { describe, expect, it } from 'vitest';

import { DEFAULT_SEARCH, IDLE_POLL_MS, VERIFYING_POLL_MS, verificationPollInterval } from './queries';
import { searchErrors, searchParamsFromForm } from './search';

describe('buying a number: the search', () => {
  const defaults = { ...DEFAULT_SEARCH, limit: String(DEFAULT_SEARCH.limit) };

  it('starts from US, local, 20', () => {
    expect(searchParamsFromForm(defaults)).toEqual({ countryCode: 'US', type: 'local', limit: 20 });
  });

  it('sends an area code only when one is given', () => {
    expect(searchParamsFromForm({ ...defaults, areaCode: ' 415 ' })).toEqual({ countryCode: 'US', type: 'local', limit: 20, areaCode: '415' });
  });

  it('checks the area code and the limit', () => {
    expect(searchErrors(defaults)).toEqual({});
    expect(Object.keys(searchErrors({ ...defaults, areaCode: '4a', limit: '51' }))).toEqual(['areaCode', 'limit']);
  });
});

describe('verification polling', () => {
  it('is every 8 s while a code is out, else every 10 minutes', () => {
    expect(verificationPollInterval(['verified', 'pending'])).toBe(VERIFYING_POLL_MS);
    expect(verificationPollInterval(['verified', 'expired'])).toBe(IDLE_POLL_MS);
    expect(verificationPollInterval(undefined)).toBe(IDLE_POLL_MS);
    expect(VERIFYING_POLL_MS).toBe(8000);
  });
});
