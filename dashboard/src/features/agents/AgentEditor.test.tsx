import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, emptyMeta, fakeServer, ok } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const AGENT = {
  id: 'a1',
  organizationId: 't1',
  name: 'Ava',
  status: 'inactive',
  greeting: 'Hello there.',
  instructions: '',
  voiceId: null,
  voicePresetId: 'linda',
  language: 'en-US',
  faq: { 'Where are you?': 'Main street', '[2] Hours?': '9 to 5', '[1] Delivery?': 'Yes' },
  knowledgeFiles: [],
  audioFiles: [],
  campaignId: null,
  knowledgeBaseId: null,
  createdAt: '2026-01-01T09:00:00Z',
  updatedAt: '2026-01-01T09:00:00Z',
};
const LINDA = { id: 'linda', name: 'Linda', gender: 'female', description: '', language: 'en-US', engine: 'espeak-ng', previewUrl: 'http://localhost/v1/voice/presets/linda/sample', kind: 'preset', status: 'approved', createdAt: '2026-01-01T09:00:00Z', updatedAt: '2026-01-01T09:00:00Z' };

function routes(extra: Parameters<typeof fakeServer>[0] = {}) {
  return {
    ...dashboardRoutes(),
    'GET /v1/agent/a1': () => ok(AGENT),
    'GET /v1/voice/presets/list': () => ok([LINDA], { meta: { ...emptyMeta, page: 1, totalSize: 1, totalPages: 1, start: 1, end: 1 } }),
    'GET /v1/voice/list/t1': () => ok([], { meta: emptyMeta }),
    'GET /v1/campaigns/knowledge-base/list/t1': () => ok([KB], { meta: { ...emptyMeta, page: 1, totalSize: 1, totalPages: 1, start: 1, end: 1 } }),
    ...extra,
  };
}

// The first test also loads the page's lazy chunks, slow on a busy machine.
// Each list refetches after a change; on a busy machine that takes longer than the default second (the first test also compiles the lazy page).
configure({ asyncUtilTimeout: 10_000 });

// Radix Select asks for pointer capture and scrolls its options into view; jsdom has neither.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});

const KB = { id: 'kb1', name: 'Deliveries', organizationId: 't1', campaignId: null, active: false, fileCount: 2, createdAt: '2026-01-01T09:00:00Z', updatedAt: '2026-01-01T09:00:00Z' };

describe('the agent editor', { timeout: 40_000 }, () => {
  it('opens the agent named by agentId and lists its FAQ in bracketed-number order', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes());
    renderApp('/dashboard/agents?teamId=t1&agentId=a1');
    expect(await screen.findByLabelText('Question 1', {}, { timeout: 30_000 })).toHaveValue('Delivery?');
    expect(screen.getByLabelText('Question 2')).toHaveValue('Hours?');
    expect(screen.getByLabelText('Question 3')).toHaveValue('Where are you?');
  });

  it('saves the FAQ as shown, renumbered, replacing the old one', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes({ 'POST /v1/agent/faq/a1': ({ body }) => ok({ ...AGENT, faq: (body as { faq: object }).faq }) }));
    renderApp('/dashboard/agents?teamId=t1&agentId=a1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move question 3 up' }));
    await user.click(screen.getByRole('button', { name: 'Save FAQ' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/v1/agent/faq/a1')).toBe(true));
    const sent = calls.find((c) => c.path === '/v1/agent/faq/a1')!.body;
    expect(sent).toEqual({ organizationId: 't1', clear: true, faq: { '[1] Delivery?': 'Yes', '[2] Where are you?': 'Main street', '[3] Hours?': '9 to 5' } });
  });

  it('says "Failed to play greeting" when no audio data comes back', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes({ 'GET /v1/agent/text-to-speech': () => ok({ audio: '', mimeType: 'audio/mpeg' }) }));
    renderApp('/dashboard/agents?teamId=t1&agentId=a1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Play greeting' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to play greeting.');
    expect(alert).toHaveTextContent('No audio data received');
    const asked = calls.find((c) => c.path === '/v1/agent/text-to-speech')!.url.searchParams;
    expect(asked.get('text')).toBe('Hello there.');
    expect(asked.get('voicePresetId')).toBe('linda');
    expect(within(document.body).queryByTestId('greeting-audio')).not.toBeInTheDocument();
  });

  it('opens an empty editor with createAgent=true', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes());
    renderApp('/dashboard/agents?teamId=t1&createAgent=true');
    expect(await screen.findByRole('heading', { name: 'New agent', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText('Agent name')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Create agent' })).toBeInTheDocument();
  });

  it('says which knowledge base the agent answers from (none at first) and lets it be chosen', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes({ 'PATCH /v1/agent/a1': ({ body }) => ok({ ...AGENT, knowledgeBaseId: (body as { knowledgeBaseId: string | null }).knowledgeBaseId }) }));
    renderApp('/dashboard/agents?teamId=t1&agentId=a1');
    const picker = await screen.findByRole('combobox', { name: 'Knowledge base' });
    expect(picker).toHaveTextContent('None');
    await userEvent.click(picker);
    await userEvent.click(await screen.findByRole('option', { name: 'Deliveries' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH' && c.path === '/v1/agent/a1')).toBe(true));
    expect(calls.find((c) => c.path === '/v1/agent/a1' && c.method === 'PATCH')!.body).toMatchObject({ organizationId: 't1', knowledgeBaseId: 'kb1' });
  });
});
