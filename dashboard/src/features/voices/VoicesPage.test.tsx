import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, pageMeta } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

vi.mock('../../lib/upload', () => ({ uploadFile: vi.fn(async () => ({ id: 'u1', fileUrl: 'https://betty.test/v1/uploads/u1' })), percentOf: () => 100 }));

const NOTE = 'Without a voice-cloning engine, Betty speaks this voice with the preset Sarah (flite, en-US, female), the nearest to its language and gender. Its recordings are kept but not used.';

function routes() {
  return {
    ...dashboardRoutes([fakeTeam('t1', 'Acme', 'owner')]),
    'GET /v1/voice/presets/list': () => ok([], { meta: pageMeta(1, 0, 9) }),
    'GET /v1/voice/list/t1': () => ok([], { meta: pageMeta(1, 0, 10) }),
    'POST /v1/voice/create': ({ body }: { body: unknown }) =>
      ok(
        {
          id: 'v1',
          organizationId: 't1',
          name: (body as { name: string }).name,
          gender: 'female',
          description: '',
          language: 'en-US',
          audioUrls: ['https://betty.test/v1/uploads/u1'],
          kind: 'custom',
          status: 'approved',
          engine: 'flite',
          engineVoice: 'flite-en-us-slt',
          note: NOTE,
          rejectionReason: null,
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
        },
        {},
        201,
      ),
  };
}

describe('creating a custom voice', () => {
  it('says before and after that the voice is not cloned, naming the preset it speaks with', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes());
    renderApp('/dashboard/voices?teamId=t1');
    const user = userEvent.setup();
    // The page is loaded lazily: its first render may take a while on a busy machine.
    await user.click(await screen.findByRole('button', { name: 'Create voice' }, { timeout: 12_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Betty cannot clone a voice from recordings on this server');
    await user.type(within(dialog).getByLabelText('Voice name'), 'Front desk');
    const file = new File(['ID3'], 'ceo.mp3', { type: 'audio/mpeg' });
    await user.upload(dialog.querySelector('input[type="file"]')!, file);
    await user.click(within(dialog).getByRole('button', { name: 'Create voice' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(NOTE);
    expect(dialog).toHaveTextContent('The voice "Front desk" was created');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
