import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import type { Organization, Workflow } from '../../api/gen/model';
import { setTokens } from '../../api/session';
import { fakeServer, fakeTeam, fakeUser, ok, pageMeta, problem } from '../../test/fakeServer';
import { TeamContext } from '../team/TeamContext';
import { JobPanel } from './JobPanel';
import { RunControls } from './RunControls';

configure({ asyncUtilTimeout: 10_000 });

const team = fakeTeam('t1', 'Acme', 'owner') as unknown as Organization;

const workflow = (o: Partial<Workflow> = {}): Workflow =>
  ({
    id: 'w1',
    name: 'Renewals',
    organizationId: 't1',
    workflowType: 'outbound',
    campaignId: 'cmp1',
    agentId: 'a1',
    phoneNumberId: 'p1',
    readablePromptStatus: 'done',
    nodes: [{ id: 'n-contacts', type: 'contacts', position: { x: 0, y: 0 }, data: { contactsSource: 'csv' } }],
    edges: [],
    problems: [],
    version: 3,
    active: true,
    createdAt: '2026-03-30T10:00:00Z',
    updatedAt: '2026-03-30T10:00:00Z',
    ...o,
  }) as unknown as Workflow;

const contact = (i: number, status: string) => ({ id: `k${i}`, phone: `+1415555${String(i).padStart(4, '0')}`, created_at: 'x', betty_metadata: { status, attempts: 0, callLogId: null, lastError: null, lastCalledAt: null } });

const job = (o: Record<string, unknown> = {}) => ({
  id: 'j1',
  type: 'workflow-run',
  workflowId: 'w1',
  organizationId: 't1',
  status: 'in-progress',
  progress: { total: 20, completed: 5, failed: 1, pending: 14, percent: 30 },
  triggeredBy: 'olivia@example.com',
  isTest: false,
  startedAt: '2026-03-30T10:00:00Z',
  finishedAt: null,
  error: null,
  createdAt: '2026-03-30T10:00:00Z',
  updatedAt: '2026-03-30T10:00:05Z',
  ...o,
});

function renderWith(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: ['/dashboard/workflow-canvas?workflowId=w1&teamId=t1'] });
  return render(
    <QueryClientProvider client={queryClient}>
      <TeamContext.Provider value={{ user: fakeUser() as never, teams: [team], team, switchTeam: () => {} }}>
        <RouterProvider router={router} />
      </TeamContext.Provider>
    </QueryClientProvider>,
  );
}

const campaign = { id: 'cmp1', name: 'Spring', settings: { maxConcurrentCalls: 3, callWindow: { start: '08:00', end: '21:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] }, timezone: 'America/New_York', retryAttempts: 1, retryDelayMinutes: 30, voicemailAction: 'hang-up', voicemailMessage: null, recordCalls: true, maxCallDurationMinutes: 20 } };

describe('Run', { timeout: 30_000 }, () => {
  it('confirms whom it calls, when and within which caps, then starts the run', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const rows = [...Array.from({ length: 20 }, (_, i) => contact(i, 'pending')), contact(20, 'completed'), contact(21, 'failed')];
    const calls = fakeServer({
      'GET /v1/workflow/csv/n-contacts': () => ok({ status: 'success', nodeFile: { fileName: 'c.csv', fileUrl: 'x' }, rows, error: null }, { meta: pageMeta(1, 22, 500) }),
      'GET /v1/campaigns/cmp1': () => ok(campaign),
      'GET /v1/team/subscription-credits': () => ok({ organizationId: 't1', balance: 12.5, subscriptionTier: 'free', subscriptionEndAt: null }),
      'POST /v1/workflow/run/w1': () => ok(job(), {}, 201),
      'POST /v1/workflow/progress/w1': () => ok(job()),
      'GET /v1/workflow/history/w1': () => ok([job()], { meta: pageMeta(1, 1, 10) }),
    });
    renderWith(<RunControls team={team} workflow={workflow()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Renewals?' });
    expect(await within(dialog).findByTestId('run-contact-count')).toHaveTextContent('20 contacts');
    expect(within(dialog).getByTestId('run-contacts')).toHaveTextContent('of 22 on the list');
    expect(await within(dialog).findByText(/08:00–21:00, Mon–Sat \(America\/New_York\)/)).toBeInTheDocument();
    expect(within(dialog).getByTestId('run-caps')).toHaveTextContent('At most 3 calls at once (campaign setting), and never more than the team\'s plan allows.');
    expect(within(dialog).getByTestId('run-caps')).toHaveTextContent('Each call ends after at most 20 minutes');
    expect(within(dialog).getByTestId('run-caps')).toHaveTextContent('1 retry, 30 minutes apart');
    expect(await within(dialog).findByText(/12.5 credits left/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Call 20 contacts' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Run Renewals?' })).not.toBeInTheDocument());
    const run = calls.find((c) => c.method === 'POST' && c.path === '/v1/workflow/run/w1')!;
    expect(run.body).toMatchObject({ organizationId: 't1' });
    // A node id is unique only within its workflow: the count asks with the workflow.
    expect(calls.find((c) => c.path === '/v1/workflow/csv/n-contacts')!.url.searchParams.get('workflowId')).toBe('w1');
  });

  it('keeps the dialog open with the server’s reason when the run is refused', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      'GET /v1/workflow/csv/n-contacts': () => ok({ status: 'success', nodeFile: { fileName: 'c.csv', fileUrl: 'x' }, rows: [contact(1, 'pending')], error: null }, { meta: pageMeta(1, 1, 500) }),
      'GET /v1/campaigns/cmp1': () => ok(campaign),
      'GET /v1/team/subscription-credits': () => ok({ organizationId: 't1', balance: 0, subscriptionTier: 'free', subscriptionEndAt: null }),
      'POST /v1/workflow/run/w1': () => problem(422, 'limit_reached', 'The team has no credits left.'),
    });
    renderWith(<RunControls team={team} workflow={workflow()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Renewals?' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Call 1 contact' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The team has no credits left.');
  });

  it('warns before starting when nothing can be dialled now, and says when it can', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const message = 'It is Saturday 14:02 in America/Chicago: calls wait for the calling window, Mon–Fri 09:00–17:00. The first call would be placed Mon 09:00 (in 1 d 18 h).';
    fakeServer({
      'GET /v1/workflow/csv/n-contacts': () => ok({ status: 'success', nodeFile: { fileName: 'c.csv', fileUrl: 'x' }, rows: [contact(1, 'pending')], error: null }, { meta: pageMeta(1, 1, 500) }),
      'GET /v1/campaigns/cmp1': () => ok(campaign),
      'GET /v1/team/subscription-credits': () => ok({ organizationId: 't1', balance: 12.5, subscriptionTier: 'free', subscriptionEndAt: null }),
      'GET /v1/workflow/run-preview/w1': () =>
        ok({ contacts: 1, dialableNow: 0, firstCallAt: '2026-12-07T15:00:00Z', message, waiting: [{ reason: 'calling-window', contacts: 1, until: '2026-12-07T15:00:00Z', timeZone: 'America/Chicago', message: '1 contact waits for their calling window; the next opens Mon 09:00 America/Chicago (in 1 d 18 h)' }] }),
    });
    renderWith(<RunControls team={team} workflow={workflow()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Renewals?' });
    const note = await within(dialog).findByTestId('run-waiting');
    expect(note).toHaveTextContent('Nothing can be dialled right now.');
    expect(note).toHaveTextContent(message);
    // Starting stays possible: the run waits by itself.
    expect(within(dialog).getByRole('button', { name: 'Call 1 contact' })).toBeEnabled();
  });

  it('says nothing of waiting when calls can start at once', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      'GET /v1/workflow/csv/n-contacts': () => ok({ status: 'success', nodeFile: { fileName: 'c.csv', fileUrl: 'x' }, rows: [contact(1, 'pending')], error: null }, { meta: pageMeta(1, 1, 500) }),
      'GET /v1/campaigns/cmp1': () => ok(campaign),
      'GET /v1/team/subscription-credits': () => ok({ organizationId: 't1', balance: 12.5, subscriptionTier: 'free', subscriptionEndAt: null }),
      'GET /v1/workflow/run-preview/w1': () => ok({ contacts: 1, dialableNow: 1, firstCallAt: '2026-12-07T15:00:00Z', message: null, waiting: [] }),
    });
    renderWith(<RunControls team={team} workflow={workflow()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Renewals?' });
    await within(dialog).findByRole('button', { name: 'Call 1 contact' });
    expect(within(dialog).queryByTestId('run-waiting')).not.toBeInTheDocument();
  });

  it('warns that unsaved canvas changes are not part of the run', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      'GET /v1/workflow/csv/n-contacts': () => ok({ status: 'success', nodeFile: { fileName: 'c.csv', fileUrl: 'x' }, rows: [contact(1, 'pending')], error: null }, { meta: pageMeta(1, 1, 500) }),
      'GET /v1/campaigns/cmp1': () => ok(campaign),
    });
    renderWith(<RunControls team={team} workflow={workflow()} unsaved />);
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Renewals?' });
    expect(within(dialog).getByRole('note')).toHaveTextContent('the run follows the last saved version');
  });

  it('offers only Test run on an inbound workflow, and nothing to read-only members', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({});
    const view = renderWith(<RunControls team={team} workflow={workflow({ workflowType: 'inbound' })} />);
    expect(screen.getByRole('button', { name: 'Test run' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run' })).not.toBeInTheDocument();
    view.unmount();
    renderWith(<RunControls team={{ ...team, myRole: 'readonly' }} workflow={workflow()} />);
    expect(screen.queryByRole('button', { name: 'Test run' })).not.toBeInTheDocument();
  });
});

describe('the job panel', { timeout: 30_000 }, () => {
  it('shows the run’s counters and ends it after a confirmation', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    let current = job({ progress: { total: 20, queued: 8, dialling: 2, inCall: 3, completed: 5, failed: 1, suppressed: 1, remaining: 13, pending: 13, percent: 35 } });
    const calls = fakeServer({
      'GET /v1/workflow/history/w1': () => ok([current], { meta: pageMeta(1, 1, 1) }),
      'POST /v1/workflow/progress/w1': () => ok(current),
      'POST /v1/workflow/end-job/w1': () => {
        current = { ...current, status: 'cancelled', finishedAt: '2026-03-30T10:05:00Z' as never };
        return ok(current);
      },
    });
    renderWith(<JobPanel team={team} workflowId="w1" />);
    const counters = await screen.findByTestId('job-counters');
    expect([...counters.querySelectorAll('[data-counter]')].map((el) => el.textContent)).toEqual(['Contacts20', 'Queued8', 'Dialling2', 'In call3', 'Completed5', 'Failed1', 'Suppressed1', 'Remaining13']);
    expect(screen.getByRole('progressbar', { name: 'Run progress' })).toHaveAttribute('aria-valuenow', '35');
    await userEvent.click(screen.getByRole('button', { name: 'End job' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'End this run?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'End job' }));
    await screen.findByText('Cancelled');
    expect(calls.filter((c) => c.path === '/v1/workflow/end-job/w1')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'End job' })).not.toBeInTheDocument();
  });

  it('says why queued contacts wait and until when', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const waiting = [
      { reason: 'calling-window', contacts: 12, until: '2026-12-07T15:00:00Z', timeZone: 'America/Chicago', message: '12 contacts wait for their calling window; the next opens Mon 09:00 America/Chicago (in 2 d 6 h)' },
      { reason: 'concurrency', contacts: 6, message: '6 contacts wait for a free line: the limit of 5 calls at once is reached' },
    ];
    fakeServer({ 'POST /v1/workflow/progress/w1': () => ok(job({ progress: { total: 18, queued: 18, dialling: 0, inCall: 0, completed: 0, failed: 0, pending: 18, percent: 0 }, waiting })) });
    renderWith(<JobPanel team={team} workflowId="w1" />);
    const list = await screen.findByTestId('job-waiting');
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '12 contacts wait for their calling window; the next opens Mon 09:00 America/Chicago (in 2 d 6 h).',
      '6 contacts wait for a free line: the limit of 5 calls at once is reached.',
    ]);
  });

  it('says nothing of waiting once the run ended', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ 'POST /v1/workflow/progress/w1': () => ok(job({ status: 'cancelled', finishedAt: '2026-03-30T10:05:00Z', waiting: [{ reason: 'calling-window', contacts: 1, message: 'stale' }] })) });
    renderWith(<JobPanel team={team} workflowId="w1" />);
    await screen.findByText('Cancelled');
    expect(screen.queryByTestId('job-waiting')).not.toBeInTheDocument();
  });

  it('says so when the workflow never ran', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      // "No job yet": the workflow is there and has not run.
      'POST /v1/workflow/progress/w1': () => ok(null),
    });
    renderWith(<JobPanel team={team} workflowId="w1" />);
    expect(await screen.findByTestId('no-run')).toHaveTextContent('has not run yet');
    // One request answers it: no detour through the history, no 404.
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v1/workflow/progress/w1']);
  });

  it('shows an error, not "never ran", when the workflow is gone', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ 'POST /v1/workflow/progress/w1': () => problem(404, 'not_found', 'Workflow not found.') });
    renderWith(<JobPanel team={team} workflowId="w1" />);
    expect(await screen.findByText(/Workflow not found/)).toBeInTheDocument();
    expect(screen.queryByTestId('no-run')).not.toBeInTheDocument();
  });
});

describe('the test run', { timeout: 30_000 }, () => {
  it('checks the form, starts the test and shows the call’s transcript as it grows', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const testJob = job({ id: 'tj', isTest: true, progress: { total: 1, completed: 0, failed: 0, pending: 1, percent: 0 }, createdAt: new Date().toISOString() });
    const theCall = { id: 'c9', callControlId: 'cc9', organizationId: 't1', direction: 'outbound', from: '+14155550100', to: '+14155550123', status: 'in-progress', startTime: new Date().toISOString(), endTime: null, durationSeconds: 3, cost: 0, campaignId: null, agentId: 'a1', workflowId: 'w1', jobId: null, hasRecording: false, hasTranscript: true, createdAt: 'x', updatedAt: 'x' };
    let turns = 1;
    const calls = fakeServer({
      'POST /v1/workflow/test-run/w1': () => ok(testJob, {}, 201),
      'GET /v2/jobs/status': () => ok([testJob]),
      'GET /v1/call/logs': () => ok([theCall], { meta: pageMeta(1, 1, 10) }),
      'GET /v1/call/log/c9': () => ok(theCall),
      'GET /v1/call/transcripts/cc9': () => {
        const entries = [
          { speaker: 'agent', text: 'Hello Ada, this is Betty.', offsetSeconds: 0.4 },
          { speaker: 'customer', text: 'My parcel arrived broken.', offsetSeconds: 3.1 },
        ].slice(0, turns++);
        return ok({ id: 't', callLogId: 'c9', callControlId: 'cc9', organizationId: 't1', entries, createdAt: 'x', updatedAt: 'x' });
      },
    });
    renderWith(<RunControls team={team} workflow={workflow()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test Renewals' });
    await userEvent.type(within(dialog).getByLabelText('Number to call'), '0415');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Call now' }));
    expect(within(dialog).getByText(/Write it in international format/)).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/v1/workflow/test-run/w1')).toBe(false);

    await userEvent.clear(within(dialog).getByLabelText('Number to call'));
    await userEvent.type(within(dialog).getByLabelText('Number to call'), '+14155550123');
    await userEvent.clear(within(dialog).getByLabelText('Name or e-mail'));
    await userEvent.type(within(dialog).getByLabelText('Name or e-mail'), 'Ada');
    await userEvent.type(within(dialog).getByLabelText('Persona'), 'A customer whose parcel arrived broken.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Call now' }));
    const live = await screen.findByTestId('test-run');
    expect(await within(live).findByText('Hello Ada, this is Betty.')).toBeInTheDocument();
    expect(await within(live).findByText('My parcel arrived broken.', {}, { timeout: 8_000 })).toBeInTheDocument();
    expect(within(live).getByTestId('test-call-status')).toHaveTextContent('In call');
    expect(within(live).getByRole('link', { name: 'Open in call logs' })).toHaveAttribute('href', '/dashboard/calls?callLogId=c9&teamId=t1');
    expect(calls.find((c) => c.path === '/v1/workflow/test-run/w1')!.body).toEqual({
      workflowId: 'w1',
      organizationId: 't1',
      destinationPhoneNumber: '+14155550123',
      customerDescription: 'A customer whose parcel arrived broken.',
      nameOrEmail: 'Ada',
      isTestWorkflow: true,
      triggeredBy: 'olivia@example.com',
    });
  });

  it('names the steps that will sound generic without a language model', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({});
    const wf = workflow({
      nodes: [
        { id: 'n-contacts', type: 'contacts', position: { x: 0, y: 0 }, data: { contactsSource: 'csv' } },
        { id: 'n-tell', type: 'agent', position: { x: 0, y: -400 }, data: { nodeLabel: 'Order status', instruction: 'Tell them the status.' } },
        { id: 'n-end', type: 'end-call', position: { x: 0, y: -800 }, data: {} },
      ],
      warnings: [
        { field: 'nodes[n-tell].say', message: 'No spoken line.' },
        { field: 'nodes[n-end].say', message: 'No spoken line.' },
      ],
    } as Partial<Workflow>);
    renderWith(<RunControls team={team} workflow={wf} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test Renewals' });
    const note = within(dialog).getByRole('note');
    expect(note).toHaveTextContent('2 steps have no spoken line. Without a language model');
    expect(within(note).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Order status', 'End Call']);
  });

  it('says nothing of generic steps when there are none', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({});
    renderWith(<RunControls team={team} workflow={workflow({ warnings: [] } as Partial<Workflow>)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Test run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test Renewals' });
    expect(within(dialog).queryByRole('note')).toBeNull();
  });
});
