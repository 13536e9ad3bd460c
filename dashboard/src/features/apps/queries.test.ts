import { describe, expect, it } from 'vitest';

import { connectedAppsQueryOptions, hubspotContactsQueryOptions, hubspotStagesQueryOptions } from './queries';

// Spec, polling: connected apps 30 s, CRM stages 60 s, HubSpot contacts 10 s.
describe('integration polling intervals', () => {
  it('follow the spec', () => {
    expect(connectedAppsQueryOptions('t1').refetchInterval).toBe(30_000);
    expect(hubspotStagesQueryOptions('t1', 'a1').refetchInterval).toBe(60_000);
    expect(hubspotContactsQueryOptions('t1', 'a1', { nodeId: 'n1', workflowId: 'w1' }, 1).refetchInterval).toBe(10_000);
  });
});
