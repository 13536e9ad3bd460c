import { describe, expect, it } from 'vitest';

import { formFromSettings, settingsFromForm, validateSettings } from './settings';

const STORED = {
  maxConcurrentCalls: 5,
  callWindow: { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] as ('mon' | 'tue' | 'wed' | 'thu' | 'fri')[] },
  timezone: 'UTC',
  retryAttempts: 2,
  retryDelayMinutes: 60,
  voicemailAction: 'hang-up' as const,
  voicemailMessage: null,
  recordCalls: true,
  allowedNumberTypes: [] as ('toll-free' | 'premium-rate')[],
  maxCallDurationMinutes: 30,
};

describe('campaign settings form', () => {
  it('round-trips the stored settings', () => {
    expect(settingsFromForm(formFromSettings(STORED))).toEqual(STORED);
  });

  it('reads settings stored before allowedNumberTypes as landlines and mobiles only', () => {
    const { allowedNumberTypes: _, ...older } = STORED;
    expect(formFromSettings(older as typeof STORED).allowedNumberTypes).toEqual([]);
  });

  it('sends the number types ticked, each once, in the order shown', () => {
    const form = { ...formFromSettings(STORED), allowedNumberTypes: ['premium-rate' as const, 'toll-free' as const] };
    expect(settingsFromForm(form).allowedNumberTypes).toEqual(['toll-free', 'premium-rate']);
    expect(settingsFromForm(formFromSettings({ ...STORED, allowedNumberTypes: ['premium-rate'] }))).toEqual({ ...STORED, allowedNumberTypes: ['premium-rate'] });
  });

  it('accepts the defaults', () => {
    expect(validateSettings(formFromSettings(STORED))).toEqual({});
  });

  it('holds the contract limits', () => {
    const form = { ...formFromSettings(STORED), maxConcurrentCalls: '51', retryAttempts: '6', retryDelayMinutes: '4', start: '18:00', days: [], voicemailAction: 'leave-message' as const };
    expect(Object.keys(validateSettings(form)).sort()).toEqual(['days', 'end', 'maxConcurrentCalls', 'retryAttempts', 'retryDelayMinutes', 'voicemailMessage']);
  });

  it('holds calls to 1 to 240 minutes', () => {
    for (const bad of ['0', '241', '1.5', '']) {
      expect(validateSettings({ ...formFromSettings(STORED), maxCallDurationMinutes: bad })).toEqual({ maxCallDurationMinutes: 'A whole number of minutes from 1 to 240.' });
    }
    expect(settingsFromForm({ ...formFromSettings(STORED), maxCallDurationMinutes: '240' }).maxCallDurationMinutes).toBe(240);
  });

  it('sends days in week order and no voicemail message when hanging up', () => {
    const form = { ...formFromSettings(STORED), days: ['sun' as const, 'mon' as const], voicemailMessage: 'left over' };
    expect(settingsFromForm(form).callWindow?.days).toEqual(['mon', 'sun']);
    expect(settingsFromForm(form).voicemailMessage).toBeNull();
  });
});
