import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import type { ApiKey } from '../../api/gen/model';
import { getListTeamApiKeysQueryKey } from '../../api/gen/team/team';
import { deleteApiKeyMutationOptions } from './queries';

const key = (id: string) => ({ id, name: id }) as unknown as ApiKey;

describe('deleting an API key', () => {
  it('leaves the list at once and comes back when the server refuses', async () => {
    const client = new QueryClient();
    const queryKey = getListTeamApiKeysQueryKey({ organizationId: 'org' });
    client.setQueryData(queryKey, [key('a'), key('b')]);
    const options = deleteApiKeyMutationOptions(client);
    const context = await options.onMutate({ id: 'a', organizationId: 'org' });
    expect(client.getQueryData<ApiKey[]>(queryKey)?.map((k) => k.id)).toEqual(['b']);
    options.onError(new Error('no'), { id: 'a', organizationId: 'org' }, context);
    expect(client.getQueryData<ApiKey[]>(queryKey)?.map((k) => k.id)).toEqual(['a', 'b']);
  });
});
