// The Settings tab's form: what it holds, how it is checked before sending (the contract's
// limits, so the person hears about a mistake before the server answers 400), and the body sent
// (the whole settings object, which replaces the stored one).

import type { CampaignNumberType, CampaignSettings, CampaignSettingsInput, CampaignVoicemailAction, CampaignWeekday } from '../../api/gen/model';
import { NUMBER_TYPES } from './labels';

export interface SettingsForm {
  maxConcurrentCalls: string;
  start: string;
  end: string;
  days: CampaignWeekday[];
  timezone: string;
  retryAttempts: string;
  retryDelayMinutes: string;
  voicemailAction: CampaignVoicemailAction;
  voicemailMessage: string;
  recordCalls: boolean;
  /** Kinds called beyond landlines and mobiles, for numbers the team typed (CSV files, test runs). */
  allowedNumberTypes: CampaignNumberType[];
  maxCallDurationMinutes: string;
}

export type SettingsErrors = Partial<Record<keyof SettingsForm, string>>;

export function formFromSettings(s: CampaignSettings): SettingsForm {
  return {
    maxConcurrentCalls: String(s.maxConcurrentCalls),
    start: s.callWindow.start,
    end: s.callWindow.end,
    days: [...s.callWindow.days],
    timezone: s.timezone,
    retryAttempts: String(s.retryAttempts),
    retryDelayMinutes: String(s.retryDelayMinutes),
    voicemailAction: s.voicemailAction,
    voicemailMessage: s.voicemailMessage ?? '',
    recordCalls: s.recordCalls,
    // A server older than the setting sends none: nothing beyond landlines and mobiles.
    allowedNumberTypes: [...(s.allowedNumberTypes ?? [])],
    maxCallDurationMinutes: String(s.maxCallDurationMinutes),
  };
}

const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

function wholeIn(value: string, min: number, max: number): boolean {
  const n = Number(value);
  return value.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
}

export function validateSettings(form: SettingsForm): SettingsErrors {
  const errors: SettingsErrors = {};
  if (!wholeIn(form.maxConcurrentCalls, 1, 50)) errors.maxConcurrentCalls = 'A whole number from 1 to 50.';
  if (!TIME.test(form.start)) errors.start = 'A time like 09:00.';
  if (!TIME.test(form.end)) errors.end = 'A time like 17:00.';
  else if (TIME.test(form.start) && form.start >= form.end) errors.end = 'The window must end after it starts (windows over midnight are not supported).';
  if (form.days.length === 0) errors.days = 'Choose at least one day.';
  if (!form.timezone.trim()) errors.timezone = 'Choose a time zone, like Europe/Paris.';
  if (!wholeIn(form.retryAttempts, 0, 5)) errors.retryAttempts = 'A whole number from 0 to 5.';
  if (!wholeIn(form.retryDelayMinutes, 5, 1440)) errors.retryDelayMinutes = 'A whole number of minutes from 5 to 1440.';
  if (form.voicemailAction === 'leave-message' && !form.voicemailMessage.trim()) errors.voicemailMessage = 'Write the message the agent leaves.';
  if (form.voicemailMessage.length > 1000) errors.voicemailMessage = 'At most 1000 characters.';
  if (!wholeIn(form.maxCallDurationMinutes, 1, 240)) errors.maxCallDurationMinutes = 'A whole number of minutes from 1 to 240.';
  return errors;
}

const DAY_ORDER: CampaignWeekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export function settingsFromForm(form: SettingsForm): CampaignSettingsInput {
  return {
    maxConcurrentCalls: Number(form.maxConcurrentCalls),
    callWindow: { start: form.start, end: form.end, days: DAY_ORDER.filter((d) => form.days.includes(d)) },
    timezone: form.timezone.trim(),
    retryAttempts: Number(form.retryAttempts),
    retryDelayMinutes: Number(form.retryDelayMinutes),
    voicemailAction: form.voicemailAction,
    voicemailMessage: form.voicemailAction === 'leave-message' ? form.voicemailMessage.trim() : null,
    recordCalls: form.recordCalls,
    allowedNumberTypes: NUMBER_TYPES.map((t) => t.value).filter((t) => form.allowedNumberTypes.includes(t)),
    maxCallDurationMinutes: Number(form.maxCallDurationMinutes),
  };
}

/** The time zones this browser knows, for the picker's suggestions. */
export function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : ['UTC'];
}
