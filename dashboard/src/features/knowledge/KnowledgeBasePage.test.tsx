import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, pageMeta } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const KB = { id: 'kb1', name: 'Manual', organizationId: 't1', campaignId: null, active: false, fileCount: 2, createdAt: '2026-01-01T09:00:00Z', updatedAt: '2026-01-01T09:00:00Z' };
const entry = (overrides: Record<string, unknown>) => ({
  id: 'f1',
  knowledgeBaseId: 'kb1',
  organizationId: 't1',
  type: 'pdf',
  status: 'success',
  name: 'manual.pdf',
  url: 'http://localhost/v1/files/x',
  fileName: 'manual.pdf',
  size: 2048,
  pages: 3,
  faq: null,
  faqName: null,
  errorMessage: null,
  createdAt: '2026-01-01T09:00:00Z',
  updatedAt: '2026-01-01T09:00:00Z',
  ...overrides,
});

function routes(role: string) {
  return {
    ...dashboardRoutes([fakeTeam('t1', 'Acme', role)]),
    'GET /v1/campaigns/knowledge-base/list/t1': () => ok([KB], { meta: pageMeta(1, 1, 20) }),
    'GET /v1/campaigns/knowledge-base/files/kb1': () =>
      ok([entry({ id: 'f2', name: 'scan.pdf', status: 'error', pages: null, errorMessage: 'This PDF has no text layer (it looks scanned); upload a PDF with selectable text, or a DOCX.' }), entry({})], { meta: pageMeta(1, 2, 10) }),
  };
}

// The first render loads the page's lazy chunks.
configure({ asyncUtilTimeout: 10_000 });

describe('the knowledge-base page', { timeout: 20_000 }, () => {
  it('opens the first knowledge base, with each file’s status and the server’s error words', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes('member'));
    renderApp('/dashboard/knowledge-base?teamId=t1');
    const table = await screen.findByRole('table', { name: 'Files and FAQs of Manual' });
    expect(within(table).getByText('This PDF has no text layer (it looks scanned); upload a PDF with selectable text, or a DOCX.')).toBeInTheDocument();
    expect(within(table).getAllByText('Error').length).toBeGreaterThan(0);
    expect(within(table).getByText(/3 pages/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New knowledge base' })).toBeInTheDocument();
    expect(screen.getByLabelText('Choose files to add to the knowledge base')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete manual.pdf' })).toBeInTheDocument();
    const list = calls.find((c) => c.path === '/v1/campaigns/knowledge-base/list/t1')!;
    expect(list.url.searchParams.get('limit')).toBe('20');
    const files = calls.find((c) => c.path === '/v1/campaigns/knowledge-base/files/kb1')!;
    expect(files.url.searchParams.get('limit')).toBe('10');
  });

  it('offers no write action to a read-only member, and says why', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes('readonly'));
    renderApp('/dashboard/knowledge-base?teamId=t1&knowledgeBaseId=kb1');
    await screen.findByRole('table', { name: 'Files and FAQs of Manual' });
    expect(screen.getByText(/Read-only members can look at campaigns, agents, knowledge bases/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New knowledge base' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Choose files to add to the knowledge base')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add FAQ' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument();
    // Searching is reading: it stays.
    expect(screen.getByRole('search', { name: 'Search this knowledge base' })).toBeInTheDocument();
  });
});
