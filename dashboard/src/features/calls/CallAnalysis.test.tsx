import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, ok, pageMeta } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { fieldLabel, outcomeLabel } from './CallAnalysisView';

configure({ asyncUtilTimeout: 10_000 });

const fakeCall = (o: Record<string, unknown> = {}) => ({
  id: 'c1', callControlId: 'cc1', organizationId: 't1', direction: 'outbound', from: '+14155550100', to: '+14155550123', status: 'completed',
  startTime: '2026-03-30T10:00:00Z', endTime: '2026-03-30T10:03:04Z', durationSeconds: 184, cost: 0.81, campaignId: null, agentId: 'a1',
  workflowId: 'w1', jobId: 'j1', hasRecording: true, hasTranscript: true, simulated: false, createdAt: '2026-03-30T10:00:00Z',
  updatedAt: '2026-03-30T10:03:04Z', ...o,
});

const analysis = {
  summary: 'Ann asked "Can I see a demo?"; the flow took "Interested". Demo day: Tuesday at 10 am; email: ann@example.com.',
  outcome: 'completed',
  analysedBy: 'patterns',
  fields: [
    { name: 'demo_day', value: 'Tuesday at 10 am', turn: 3 },
    { name: 'email', value: 'ann@example.com', turn: 5 },
  ],
};

function routes(call: Record<string, unknown>) {
  const transcript = { id: 't', callLogId: 'c1', callControlId: 'cc1', organizationId: 't1', createdAt: 'x', updatedAt: 'x', entries: [] };
  return {
    ...dashboardRoutes(),
    'GET /v1/call/logs': () => ok([call], { meta: pageMeta(1, 1, 10) }),
    'GET /v1/call/log/c1': () => ok(call),
    'GET /v1/call/transcripts/cc1': () => ok(transcript),
    'GET /v1/call/recordings/c1': () => ok({ callLogId: 'c1', url: 'http://localhost/rec.mp3', mimeType: 'audio/mpeg', expiresAt: '2026-03-30T11:00:00Z' }),
    'GET /v1/call/organization/t1': () => ok({ startDate: '2026-03-25', endDate: '2026-03-31', totalCalls: 1, dailyData: [] }),
    'GET /v1/inbox': () => ok([inboxItem], { meta: pageMeta(1, 1, 10) }),
    'GET /v1/inbox/private/i1': () => ok(inboxItem),
  };
}

const inboxItem = {
  id: 'i1', organizationId: 't1', title: 'Call with Ann Lee: completed', summary: analysis.summary, priority: 1, visibility: 'private',
  deleted: false, deletedAt: null, callLogId: 'c1', callControlId: 'cc1', campaignId: null, createdAt: '2026-03-30T10:04:00Z', updatedAt: '2026-03-30T10:04:00Z',
};

describe('what a call leaves behind', { timeout: 30_000 }, () => {
  it('shows the summary, outcome and each field with the turn it came from in the call view', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes(fakeCall({ analysis })));
    renderApp('/dashboard/calls?teamId=t1&callLogId=c1');
    const view = await screen.findByTestId('call-analysis');
    expect(view).toHaveTextContent('Ann asked "Can I see a demo?"');
    expect(view).toHaveTextContent('Outcome: Completed');
    expect(within(view).getByTestId('call-field-demo_day')).toHaveTextContent('Demo day');
    expect(within(view).getByTestId('call-field-demo_day')).toHaveTextContent('Tuesday at 10 am (turn 4)');
    expect(within(view).getByTestId('call-field-email')).toHaveTextContent('ann@example.com (turn 6)');
  });

  it('leaves the section out for a call without analysis', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes(fakeCall()));
    renderApp('/dashboard/calls?teamId=t1&callLogId=c1');
    await screen.findByTestId('call-detail');
    expect(screen.queryByTestId('call-analysis')).toBeNull();
  });

  it('shows the fields the call established in its inbox item', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes(fakeCall({ analysis })));
    renderApp('/dashboard/inbox?teamId=t1&inboxId=i1');
    const fields = await screen.findByTestId('call-fields');
    expect(fields).toHaveTextContent('Email');
    expect(fields).toHaveTextContent('ann@example.com (turn 6)');
    expect(screen.getByTestId('inbox-summary')).toHaveTextContent('Demo day: Tuesday at 10 am');
  });

  it('names fields and outcomes in words', () => {
    expect(fieldLabel('appointment_day')).toBe('Appointment day');
    expect(outcomeLabel('do-not-call')).toBe('Asked not to be called again');
    expect(outcomeLabel('something-new')).toBe('something-new');
  });
});
