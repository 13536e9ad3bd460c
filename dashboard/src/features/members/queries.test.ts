import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { getListTeamMembersQueryKey } from '../../api/gen/team/team';
import { fakeServer, ok, problem } from '../../test/fakeServer';
import { changeRoleMutationOptions } from './queries';

function member(email: string, role: string) {
  return { id: email, organizationId: 't1', userId: null, email, name: null, role, status: 'active', invitedAt: null, joinedAt: null, removedAt: null, createdAt: '', updatedAt: '' };
}

const key = getListTeamMembersQueryKey({ organizationId: 't1', page: 1, sizePerPage: 10 });
const meta = { page: 1, totalSize: 1, start: 1, end: 1, hasNext: false, hasPrevious: false, totalPages: 1 };

async function runChange(answer: () => Response) {
  fakeServer({ 'PATCH /v1/team/member/role': answer, 'GET /v1/team/members/list': () => ok([member('ivan@example.com', 'developer')], { meta }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(key, { status: 200, data: [member('ivan@example.com', 'member')], meta });
  const options = changeRoleMutationOptions(client);
  const change = { organizationId: 't1', email: 'ivan@example.com', role: 'developer' as const };
  const context = await options.onMutate(change);
  const optimistic = client.getQueryData<{ data: { role: string }[] }>(key)?.data[0]?.role;
  let error: unknown;
  try {
    await options.mutationFn(change);
  } catch (e) {
    error = e;
    options.onError(e, change, context);
  }
  return { client, optimistic, error };
}

describe('changing a role', () => {
  it('shows the new role before the server answers', async () => {
    const { optimistic, error } = await runChange(() => ok(member('ivan@example.com', 'developer')));
    expect(optimistic).toBe('developer');
    expect(error).toBeUndefined();
  });

  it('puts the old role back when the server refuses', async () => {
    const { client, optimistic, error } = await runChange(() => problem(403, 'forbidden', 'You need the admin role.'));
    expect(optimistic).toBe('developer');
    expect(error).toBeInstanceOf(Error);
    expect(client.getQueryData<{ data: { role: string }[] }>(key)?.data[0]?.role).toBe('member');
  });
});
