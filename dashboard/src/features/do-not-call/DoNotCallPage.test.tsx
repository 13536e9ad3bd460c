import { configure, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, pageMeta, problem } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

configure({ asyncUtilTimeout: 10_000 });

const entry = (o: Record<string, unknown> = {}) => ({ id: 'd1', organizationId: 't1', phoneNumber: '+14155550123', reason: 'Asked by e-mail', addedBy: 'ada@example.com', source: 'manual', createdAt: '2026-03-30T10:00:00Z', ...o });

function routes(role = 'owner') {
  return {
    ...dashboardRoutes([fakeTeam('t1', 'Acme', role)]),
    'GET /v1/do-not-call': () => ok([entry(), entry({ id: 'd2', phoneNumber: '+14155550999', reason: null, addedBy: 'conversation', source: 'conversation' })], { meta: pageMeta(1, 2, 10) }),
    'POST /v1/do-not-call': ({ body }: { body: unknown }) =>
      (body as { phoneNumber: string }).phoneNumber === '123' ? Response.json({ status: 400, code: 'validation_failed', title: 'Invalid', detail: 'Invalid', errors: [{ field: 'body.phoneNumber', message: 'Not a phone number.' }] }, { status: 400, headers: { 'Content-Type': 'application/problem+json' } }) : ok(entry({ id: 'd3', phoneNumber: '+14155550111' }), {}, 201),
    'DELETE /v1/do-not-call/d1': () => ok({ id: 'd1' }),
    'POST /v1/do-not-call/import': () => ok({ added: 2, alreadyListed: 1, rejected: [{ row: 4, value: 'call me', reason: 'Not a phone number' }] }),
  };
}

describe('the do-not-call page', { timeout: 30_000 }, () => {
  it('lists numbers with who added them, adds one, and shows the field error the server gives', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/do-not-call?teamId=t1');
    await screen.findByText('+14155550123');
    expect(screen.getByText('Asked on a call')).toBeInTheDocument();
    expect(screen.getByText('No reason given')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a number' });
    await userEvent.type(within(dialog).getByLabelText('Phone number'), '123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add number' }));
    expect(await within(dialog).findByText('Not a phone number.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Phone number'));
    await userEvent.type(within(dialog).getByLabelText('Phone number'), '+14155550111');
    await userEvent.type(within(dialog).getByLabelText('Reason (optional)'), 'Lawyer letter');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add number' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a number' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/v1/do-not-call').at(-1)!.body).toEqual({ organizationId: 't1', phoneNumber: '+14155550111', reason: 'Lawyer letter' });
  });

  it('imports a CSV as text/csv and lists the rows refused', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/do-not-call?teamId=t1');
    await screen.findByText('+14155550123');
    await userEvent.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import numbers' });
    const csv = 'phone,reason\n+14155550001,x\n+14155550002,\n+14155550001,\ncall me,\n';
    const file = new File([csv], 'dnc.csv', { type: 'text/csv' });
    fireEvent.change(within(dialog).getByLabelText('CSV file'), { target: { files: [file] } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    const result = await within(dialog).findByTestId('dnc-import-result');
    expect(result).toHaveTextContent('2 numbers were added; 1 was on the list already; 1 row was refused.');
    expect(within(result).getByRole('row', { name: /4 call me Not a phone number/ })).toBeInTheDocument();
    const sent = calls.find((c) => c.path === '/v1/do-not-call/import')!;
    expect(sent.headers.get('Content-Type')).toBe('text/csv');
    // The file's text as it is, not JSON-encoded.
    expect(sent.raw).toBe(csv);
    expect(sent.url.searchParams.get('organizationId')).toBe('t1');
  });

  it('lets admins remove a number, and members only read that they cannot', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes('admin'));
    const view = renderApp('/dashboard/do-not-call?teamId=t1');
    await screen.findByText('+14155550123');
    await userEvent.click(screen.getByRole('button', { name: 'Remove +14155550123' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/v1/do-not-call/d1')).toBe(true));
    view.unmount();

    fakeServer(routes('member'));
    renderApp('/dashboard/do-not-call?teamId=t1');
    await screen.findByText('+14155550123');
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Only admins and the owner can remove/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add number' })).toBeInTheDocument();
  });

  it('shows the server’s error when the list cannot be read', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...routes(), 'GET /v1/do-not-call': () => problem(403, 'forbidden', 'You are not a member of this team.') });
    renderApp('/dashboard/do-not-call?teamId=t1');
    expect(await screen.findByText('You are not a member of this team.')).toBeInTheDocument();
  });
});
