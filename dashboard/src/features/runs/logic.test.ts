import { describe, expect, it } from 'vitest';

import type { CallLog, Contact } from '../../api/gen/model';
import { contactsNode, countContacts, DEFAULT_RUN_SETTINGS, formatCount, formatDays, formatRetries, formatWindow } from './plan';
import { jobStatus, percentDone, progressCounters } from './progress';
import { findTestCall, validateTestRun } from './testRun';

describe('job progress', () => {
  it('shows the known counters in the order a run goes, then any other whole-number counter', () => {
    const progress = { total: 20, queued: 5, dialling: 2, inCall: 3, completed: 6, failed: 1, suppressed: 2, remaining: 10, pending: 10, percent: 45, retries: 4 };
    const counters = progressCounters(progress as never);
    expect(counters.map((c) => c.label)).toEqual(['Contacts', 'Queued', 'Dialling', 'In call', 'Completed', 'Failed', 'Suppressed', 'Remaining', 'Retries']);
    expect(counters.find((c) => c.label === 'Remaining')!.value).toBe(10);
  });

  it('shows numbers refused for their kind after the suppressed ones, with why', () => {
    const counters = progressCounters({ total: 4, completed: 1, failed: 3, suppressed: 1, refused: 2, pending: 0, percent: 100 });
    expect(counters.map((c) => `${c.label}=${c.value}`)).toEqual(['Contacts=4', 'Completed=1', 'Failed=3', 'Suppressed=1', 'Refused=2', 'Remaining=0']);
    expect(counters.find((c) => c.key === 'refused')!.hint).toContain('premium-rate');
  });

  it('falls back to pending as Remaining when the server sends only the base counters', () => {
    const counters = progressCounters({ total: 3, completed: 1, failed: 0, pending: 2, percent: 33 });
    expect(counters.map((c) => `${c.label}=${c.value}`)).toEqual(['Contacts=3', 'Completed=1', 'Failed=0', 'Remaining=2']);
  });

  it('reads the percent, clamped, and names each status', () => {
    expect(percentDone({ total: 0, completed: 0, failed: 0, pending: 0, percent: 100 })).toBe(100);
    expect(percentDone({ total: 10, completed: 3, failed: 1, pending: 6, percent: 140 })).toBe(100);
    expect(jobStatus({ status: 'cancelled' }).label).toBe('Cancelled');
    expect(jobStatus({ status: 'in-progress' }).tone).toBe('success');
  });
});

const contact = (status: string): Contact => ({ id: status + Math.random(), phone: '+14155550100', created_at: '2026-01-01T00:00:00Z', betty_metadata: { status: status as never, attempts: 0, callLogId: null, lastError: null, lastCalledAt: null } });

describe('the run plan', () => {
  it('counts only pending contacts when the whole list is on the page', () => {
    const rows = [contact('pending'), contact('pending'), contact('completed'), contact('failed')];
    const count = countContacts(rows, { totalSize: 4, totalPages: 1 });
    expect(count).toEqual({ toCall: 2, total: 4, exact: true });
    expect(formatCount(count)).toBe('2 contacts');
    expect(formatCount(countContacts([contact('pending')], { totalSize: 1, totalPages: 1 }))).toBe('1 contact');
  });

  it('says "up to" when the list is longer than one page', () => {
    expect(formatCount(countContacts([], { totalSize: 1200, totalPages: 3 }))).toBe('Up to 1,200 contacts');
  });

  it('writes the window and the retries in words', () => {
    expect(formatWindow(DEFAULT_RUN_SETTINGS)).toBe('09:00–17:00, Mon–Fri (UTC)');
    expect(formatDays(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'])).toBe('Every day');
    expect(formatDays(['fri', 'mon', 'wed'])).toBe('Mon, Wed, Fri');
    expect(formatRetries({ ...DEFAULT_RUN_SETTINGS, retryAttempts: 0 })).toMatch(/called once/);
    expect(formatRetries(DEFAULT_RUN_SETTINGS)).toBe('2 retries, 60 minutes apart, for busy, no answer or voicemail');
  });

  it('finds the Contacts node and its source, in either spelling', () => {
    expect(contactsNode({ nodes: [{ id: 'n1', type: 'contacts', data: { contacts_source: 'csv' } } as never] })).toEqual({ id: 'n1', source: 'csv' });
    expect(contactsNode({ nodes: [] })).toBeNull();
  });
});

const call = (o: Partial<CallLog>): CallLog =>
  ({ id: 'c', workflowId: 'w1', to: '+14155550123', direction: 'outbound', startTime: '2026-01-01T10:00:10Z', endTime: null, ...o }) as CallLog;

describe('the test run', () => {
  it('checks the number is E.164 and every field is there', () => {
    expect(validateTestRun({ destinationPhoneNumber: '415 555', customerDescription: '', nameOrEmail: ' ' })).toEqual({
      destinationPhoneNumber: expect.stringMatching(/international format/),
      customerDescription: expect.any(String),
      nameOrEmail: expect.any(String),
    });
    expect(validateTestRun({ destinationPhoneNumber: '+14155550123', customerDescription: 'Angry', nameOrEmail: 'Ada' })).toEqual({});
  });

  it('recognises its call: this workflow, the number tested, after the job started; the newest wins', () => {
    const since = '2026-01-01T10:00:00Z';
    const calls = [
      call({ id: 'old', startTime: '2026-01-01T08:00:00Z' }),
      call({ id: 'other-number', to: '+14155550999' }),
      call({ id: 'other-workflow', workflowId: 'w2' }),
      call({ id: 'inbound', direction: 'inbound' }),
      call({ id: 'match' }),
      call({ id: 'newer', startTime: '2026-01-01T10:00:20Z' }),
    ];
    expect(findTestCall(calls, { workflowId: 'w1', to: '+14155550123', since })!.id).toBe('newer');
    expect(findTestCall(calls.slice(0, 4), { workflowId: 'w1', to: '+14155550123', since })).toBeNull();
  });
});
