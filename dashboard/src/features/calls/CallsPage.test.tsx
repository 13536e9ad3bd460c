import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, ok, pageMeta, problem } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

configure({ asyncUtilTimeout: 10_000 });

export const fakeCall = (o: Record<string, unknown> = {}) => ({
  id: 'c1',
  callControlId: 'cc1',
  organizationId: 't1',
  direction: 'outbound',
  from: '+14155550100',
  to: '+14155550123',
  status: 'completed',
  startTime: '2026-03-30T10:00:00Z',
  endTime: '2026-03-30T10:03:04Z',
  durationSeconds: 184,
  cost: 0.81,
  campaignId: null,
  agentId: 'a1',
  workflowId: 'w1',
  jobId: 'j1',
  hasRecording: true,
  hasTranscript: true,
  simulated: false,
  createdAt: '2026-03-30T10:00:00Z',
  updatedAt: '2026-03-30T10:03:04Z',
  ...o,
});

function routes() {
  return {
    ...dashboardRoutes(),
    'GET /v1/call/logs': () => ok([fakeCall(), fakeCall({ id: 'c2', callControlId: 'cc2', to: '+14155550999', status: 'no-answer', durationSeconds: 0, cost: 0, hasRecording: false, hasTranscript: false })], { meta: pageMeta(1, 2, 10) }),
    'GET /v1/call/log/c1': () => ok(fakeCall()),
    'GET /v1/call/log/c3': () => ok(fakeCall({ id: 'c3', callControlId: 'cc3', cost: 0, simulated: true })),
    'GET /v1/call/transcripts/cc3': () => ok({ id: 't3', callLogId: 'c3', callControlId: 'cc3', organizationId: 't1', createdAt: 'x', updatedAt: 'x', entries: [] }),
    'GET /v1/call/recordings/c3': () => problem(404, 'not_found', 'No call recording exists'),
    'GET /v1/call/log/c2': () => ok(fakeCall({ id: 'c2', callControlId: 'cc2', to: '+14155550999', status: 'no-answer', durationSeconds: 0, cost: 0, hasRecording: false, hasTranscript: false })),
    'GET /v1/call/transcripts/cc1': () =>
      ok({ id: 't', callLogId: 'c1', callControlId: 'cc1', organizationId: 't1', createdAt: 'x', updatedAt: 'x', entries: [{ speaker: 'agent', text: 'Hi, this is Betty from Acme.', offsetSeconds: 0.5 }, { speaker: 'customer', text: '<b>Not now</b>, thanks.', offsetSeconds: 4.2 }] }),
    'GET /v1/call/recordings/c1': () => ok({ callLogId: 'c1', url: 'http://localhost/v1/files/rec.mp3?sig=abc', mimeType: 'audio/mpeg', expiresAt: '2026-03-30T11:00:00Z' }),
    'GET /v1/call/recordings/c2': () => problem(404, 'not_found', 'No call recording exists'),
    'GET /v1/call/organization/t1': ({ url }: { url: URL }) =>
      ok({ startDate: url.searchParams.get('startDate') ?? '2026-03-25', endDate: url.searchParams.get('endDate') ?? '2026-03-31', totalCalls: 5, dailyData: Array.from({ length: 7 }, (_, i) => ({ date: `2026-03-${25 + i}`, count: i === 5 ? 5 : 0 })) }),
  };
}

describe('the calls page', { timeout: 30_000 }, () => {
  it('lists the calls, opens the one chosen with its transcript, recording and cost, and draws the calls per day', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    const { router } = renderApp('/dashboard/calls?teamId=t1');
    await screen.findByRole('heading', { level: 1, name: 'Calls' });
    const row = await screen.findByTestId('call-row-c1');
    expect(row).toHaveTextContent('+14155550123');
    expect(screen.getByText('No answer')).toBeInTheDocument();
    expect(await screen.findByTestId('daily-calls-chart')).toBeInTheDocument();
    expect(screen.getByText(/5 calls from 2026-03-25 to 2026-03-31/)).toBeInTheDocument();

    await userEvent.click(row);
    expect(router.state.location.search).toContain('callLogId=c1');
    const detail = await screen.findByTestId('call-detail');
    expect(within(detail).getByTestId('call-cost')).toHaveTextContent('$0.81');
    const audio = await within(detail).findByTestId('call-recording');
    expect(audio).toHaveAttribute('src', 'http://localhost/v1/files/rec.mp3?sig=abc');
    const transcript = await within(detail).findByTestId('transcript');
    expect(transcript).toHaveTextContent('Hi, this is Betty from Acme.');
    // Said text is shown as text, never as HTML.
    expect(transcript).toHaveTextContent('<b>Not now</b>, thanks.');
    expect(transcript.querySelector('b')).toBeNull();
    expect(calls.some((c) => c.path === '/v1/call/recordings/c1' && c.url.searchParams.get('organizationId') === 't1')).toBe(true);
  });

  it('shows a simulated call as free, in the list and in its detail', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const r = routes();
    r['GET /v1/call/logs'] = () => ok([fakeCall({ id: 'c3', callControlId: 'cc3', cost: 0, simulated: true })], { meta: pageMeta(1, 1, 10) });
    fakeServer(r);
    renderApp('/dashboard/calls?teamId=t1&callLogId=c3');
    const row = (await screen.findByTestId('call-row-c3')).closest('tr');
    expect(row).toHaveTextContent('$0.00');
    expect(row).toHaveTextContent('Simulated');
    const detail = await screen.findByTestId('call-detail');
    expect(within(detail).getByTestId('call-cost')).toHaveTextContent('$0.00');
    expect(within(detail).getByTestId('call-cost')).toHaveTextContent('Simulated');
    expect(within(detail).getByTestId('call-cost')).toHaveTextContent('simulated calls are free');
  });

  it('says when a call has no recording and no transcript', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes());
    renderApp('/dashboard/calls?teamId=t1&callLogId=c2');
    const detail = await screen.findByTestId('call-detail');
    expect(within(detail).queryByText('Why it ended')).toBeNull();
    expect(within(detail).getByText('No call recording exists.')).toBeInTheDocument();
    expect(within(detail).getByText(/no transcript/)).toBeInTheDocument();
  });

  it('says why Betty ended a call, and nothing when it ended the usual way', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...routes(), 'GET /v1/call/log/c3': () => ok(fakeCall({ id: 'c3', endReason: 'The carrier lost this call; it was ended by Betty.' })) });
    renderApp('/dashboard/calls?teamId=t1&callLogId=c3');
    const detail = await screen.findByTestId('call-detail');
    expect(within(detail).getByTestId('call-end-reason')).toHaveTextContent('The carrier lost this call; it was ended by Betty.');
    expect(within(detail).getByText('Why it ended')).toBeInTheDocument();
  });

  it('asks the statistics for the chosen range and refuses an impossible one', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/calls?teamId=t1');
    await screen.findByTestId('daily-calls-chart');
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-03-01');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-03-10');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    await screen.findByText(/5 calls from 2026-03-01 to 2026-03-10/);
    expect(calls.some((c) => c.path === '/v1/call/organization/t1' && c.url.searchParams.get('startDate') === '2026-03-01' && c.url.searchParams.get('endDate') === '2026-03-10')).toBe(true);
    await userEvent.clear(from);
    await userEvent.type(from, '2026-03-20');
    expect(screen.getByRole('alert')).toHaveTextContent('must not be after');
    expect(screen.getByRole('button', { name: 'Show' })).toBeDisabled();
  });

  it('shows an empty state when there are no calls', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...routes(), 'GET /v1/call/logs': () => ok([], { meta: pageMeta(1, 0, 10) }) });
    renderApp('/dashboard/calls?teamId=t1');
    expect(await screen.findByText('No calls yet')).toBeInTheDocument();
  });
});

describe('a call in progress', { timeout: 30_000 }, () => {
  it('shows each turn as the event stream says it was said, without polling', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const encoder = new TextEncoder();
    let push: (chunk: string) => void = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => controller.enqueue(encoder.encode(chunk));
      },
    });
    const live = fakeCall({ status: 'in-progress', endTime: null, durationSeconds: 5, cost: 0, hasRecording: false });
    const turns = [
      { speaker: 'agent', text: 'Hi, this is Betty from Acme.', offsetSeconds: 0.5 },
      { speaker: 'customer', text: 'My parcel is late.', offsetSeconds: 4.2 },
    ];
    let said = 1;
    const calls = fakeServer({
      ...routes(),
      'GET /v1/events': () => new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } }),
      'GET /v1/call/log/c1': () => ok(live),
      'GET /v1/call/transcripts/cc1': () => ok({ id: 't', callLogId: 'c1', callControlId: 'cc1', organizationId: 't1', createdAt: 'x', updatedAt: 'x', entries: turns.slice(0, said) }),
    });
    renderApp('/dashboard/calls?teamId=t1&callLogId=c1');
    const detail = await screen.findByTestId('call-detail');
    const transcript = await within(detail).findByTestId('transcript');
    expect(transcript).toHaveTextContent('Hi, this is Betty from Acme.');
    expect(transcript).not.toHaveTextContent('My parcel is late.');
    const reads = () => calls.filter((c) => c.path === '/v1/call/transcripts/cc1').length;
    const before = reads();
    // The stream is open: the transcript is not polled.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(reads()).toBe(before);
    said = 2;
    push(`id: 7\nevent: call.updated\ndata: ${JSON.stringify(live)}\n\n`);
    expect(await within(detail).findByText('My parcel is late.')).toBeInTheDocument();
  });
});
