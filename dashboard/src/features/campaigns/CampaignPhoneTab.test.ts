import { describe, expect, it } from 'vitest';

import type { Campaign, PhoneNumber } from '../../api/gen/model';
import { numberUnusableReason } from './CampaignPhoneTab';

const number = (overrides: Partial<PhoneNumber>) => ({ id: 'n1', phoneNumber: '+13125550148', status: 'active', isNonTelnyxNumber: false, ...overrides }) as PhoneNumber;
const campaign = (type: 'inbound' | 'outbound') => ({ id: 'c1', type }) as Campaign;

describe('which numbers a campaign may take', () => {
  it('lets an inbound campaign answer only numbers bought through Betty', () => {
    expect(numberUnusableReason(number({}), campaign('inbound'))).toBeNull();
    expect(numberUnusableReason(number({ isNonTelnyxNumber: true }), campaign('inbound'))).toMatch(/cannot answer/);
  });

  it('lets an outbound campaign call from a verified number of its own', () => {
    expect(numberUnusableReason(number({ isNonTelnyxNumber: true }), campaign('outbound'))).toBeNull();
  });

  it('refuses a suspended number', () => {
    expect(numberUnusableReason(number({ status: 'suspended' }), campaign('outbound'))).toMatch(/unpaid/);
  });
});
