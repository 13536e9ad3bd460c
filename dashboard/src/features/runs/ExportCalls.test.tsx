import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Organization } from '../../api/gen/model';
import { setTokens } from '../../api/session';
import { fakeServer, fakeTeam, fakeUser, ok, pageMeta } from '../../test/fakeServer';
import { TeamContext } from '../team/TeamContext';
import { JobHistory } from './JobHistory';
import { JobPanel } from './JobPanel';

configure({ asyncUtilTimeout: 10_000 });

const team = fakeTeam('t1', 'Acme', 'readonly') as unknown as Organization;
const job = (o: Record<string, unknown> = {}) => ({
  id: 'j1', type: 'workflow-run', workflowId: 'w1', organizationId: 't1', status: 'success',
  progress: { total: 2, completed: 2, failed: 0, pending: 0, percent: 100 }, triggeredBy: 'olivia@example.com', isTest: false,
  startedAt: '2026-03-30T10:00:00Z', finishedAt: '2026-03-30T10:05:00Z', error: null, createdAt: '2026-03-30T10:00:00Z', updatedAt: '2026-03-30T10:05:00Z', ...o,
});

function renderPanel(element = <JobPanel team={team} workflowId="w1" />) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/dashboard/workflow-canvas?workflowId=w1&teamId=t1'] });
  return render(
    <QueryClientProvider client={queryClient}>
      <TeamContext.Provider value={{ user: fakeUser() as never, teams: [team], team, switchTeam: () => {} }}>
        <RouterProvider router={router} />
      </TeamContext.Provider>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('a run’s calls as CSV', { timeout: 30_000 }, () => {
  it('downloads the file the API streams, with the session token, for any role', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const csv = 'call_id,to,status,started_at,duration_seconds,outcome,summary,email\nc1,+14155550123,completed,2026-03-30T10:00:00Z,65,completed,Ann asked for a demo.,ann@example.com\n';
    const calls = fakeServer({
      'POST /v1/workflow/progress/w1': () => ok(job()),
      'GET /v1/workflow/job/j1/calls.csv': () => new Response(csv, { status: 200, headers: { 'Content-Type': 'text/csv' } }),
    });
    const saved: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      saved.push(b as Blob);
      return 'blob:calls';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Download calls (CSV)' }));
    await vi.waitFor(() => expect(clicked).toEqual(['calls-j1.csv']));
    expect(await saved[0]?.text()).toBe(csv);
    const req = calls.find((c) => c.path === '/v1/workflow/job/j1/calls.csv');
    expect(req?.headers.get('Authorization')).toBe('Bearer a');
  });

  it('offers no export for a test run', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ 'POST /v1/workflow/progress/w1': () => ok(job({ isTest: true })) });
    renderPanel();
    await screen.findByTestId('job-panel');
    expect(screen.queryByRole('button', { name: 'Download calls (CSV)' })).toBeNull();
  });

  it('offers each run of the history as CSV, test runs excepted', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      'GET /v1/workflow/history/w1': () => ok([job(), job({ id: 'j2', isTest: true })], { meta: pageMeta(1, 2, 10) }),
    });
    renderPanel(<JobHistory workflowId="w1" />);
    const buttons = await screen.findAllByRole('button', { name: /^Download the calls of the run started/ });
    expect(buttons).toHaveLength(1);
  });
});
