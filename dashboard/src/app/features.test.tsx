import { screen, within } from '@testing-library/react';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';

import { routes } from './App';
import { setTokens } from '../api/session';
import { GUIDES, guideBySlug, guidePreview } from '../features/help/guides';
import { dashboardRoutes, fakeServer, ok, onboarding } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { AVAILABLE_AREAS, COMING_SOON_AREAS, PRODUCT_AREAS, availableWhen } from '../lib/features';
import { isNavItemAvailable, navGroups } from '../lib/nav';

/** True when `href` opens a real screen: a route other than the not-found catch-all, or an existing guide. */
function resolves(href: string): boolean {
  const { pathname } = new URL(href, 'http://localhost');
  const matches = matchRoutes(routes, pathname) ?? [];
  const leaf = matches.at(-1)?.route;
  if (!leaf || leaf.path === '*') return false;
  if (leaf.path === 'docs/*') return guideBySlug(pathname.replace(/^\/docs\//, '')) !== undefined;
  return true;
}

function deadLinks(container: HTMLElement): string[] {
  return within(container)
    .queryAllByRole('link')
    .map((a) => a.getAttribute('href') ?? '')
    .filter((href) => href.startsWith('/') && !resolves(href));
}

describe('the list of product areas', () => {
  it('has a screen for every area it calls available', () => {
    for (const area of AVAILABLE_AREAS) expect(resolves(area.path), `${area.label} at ${area.path}`).toBe(true);
  });

  it('has no screen for an area it calls coming soon (flip the flag when the screen exists)', () => {
    for (const area of COMING_SOON_AREAS) expect(resolves(area.path), `${area.label} at ${area.path}`).toBe(false);
  });

  it('names the missing parts in plain words (none is missing now)', () => {
    expect(availableWhen(['connectedApps'])).toBe('');
    expect(availableWhen(['workflows', 'connectedApps', 'calls'])).toBe('');
    expect(availableWhen(['workflows', 'knowledgeBases'])).toBe('');
    expect(availableWhen(['agents', 'calls'])).toBe('');
    expect(availableWhen(['inbox', 'doNotCall'])).toBe('');
    expect(availableWhen(['members'])).toBe('');
  });

  it('lists each area once', () => {
    expect(new Set(PRODUCT_AREAS.map((a) => a.id)).size).toBe(PRODUCT_AREAS.length);
  });
});

describe('help guides', () => {
  it('link only to screens that exist', () => {
    for (const guide of GUIDES) if (guide.action) expect(resolves(guide.action.to), `${guide.slug} → ${guide.action.to}`).toBe(true);
  });

  it('show the integration guides as built, linking to their screens', async () => {
    fakeServer({});
    renderApp('/docs/zapier');
    await screen.findByRole('heading', { level: 1, name: 'Zapier' });
    expect(screen.queryByRole('note', { name: 'Coming soon' })).not.toBeInTheDocument();
    expect(deadLinks(screen.getByRole('main'))).toEqual([]);
  });

  // Every docs page: each link opens a real screen or guide (an anchor, an element of the page),
  // and none promises a "Coming soon" label while no guide carries one.
  it('have no dead link and promise no label that does not exist, on every docs page', { timeout: 120_000 }, async () => {
    const previews = GUIDES.filter((g) => guidePreview(g));
    for (const path of ['/docs', '/getting-started', ...GUIDES.map((g) => `/docs/${g.slug}`)]) {
      fakeServer({});
      const { unmount } = renderApp(path);
      const main = await screen.findByRole('main');
      await within(main).findByRole('heading', { level: 1 });
      expect(deadLinks(main), path).toEqual([]);
      for (const a of within(main).queryAllByRole('link')) {
        const href = a.getAttribute('href') ?? '';
        expect(href.startsWith('/') || href.startsWith('#') || href.startsWith('http'), `${path}: ${href}`).toBe(true);
        if (href.startsWith('#')) expect(document.getElementById(href.slice(1)), `${path}: ${href}`).not.toBeNull();
      }
      if (previews.length === 0) expect(main.textContent, path).not.toMatch(/coming soon/i);
      unmount();
    }
  });

  it('show no preview note on a guide about a part that works', async () => {
    fakeServer({});
    renderApp('/docs/api-keys');
    await screen.findByRole('heading', { level: 1, name: 'API keys' });
    expect(screen.queryByRole('note', { name: 'Coming soon' })).not.toBeInTheDocument();
  });
});

describe('the start page', () => {
  it('shows what works, and no coming-soon list once every area is built, with no link to a missing screen', async () => {
    fakeServer({ 'GET /healthz': () => ok({ ok: true, version: '0.1.0', database: 'sqlite' }) });
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 2, name: 'What works today' })).toBeInTheDocument();
    expect(COMING_SOON_AREAS).toEqual([]);
    expect(screen.queryByTestId('coming-soon')).not.toBeInTheDocument();
    expect(deadLinks(document.body)).toEqual([]);
  });
});

describe('the dashboard', () => {
  it('marks the parts not built yet as Soon, without links, in the sidebar', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...dashboardRoutes(), 'GET /v1/team/onboarding/t1': () => ok(onboarding('t1')) });
    renderApp('/dashboard?teamId=t1');
    await screen.findByRole('heading', { level: 1, name: 'Acme' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard' });
    const items = navGroups({ isSiteAdmin: false }).flatMap((g) => g.items);
    for (const item of items.filter(isNavItemAvailable)) expect(within(nav).getByRole('link', { name: item.label })).toBeInTheDocument();
    const soon = within(nav).queryAllByTestId('nav-coming-soon');
    expect(soon.map((el) => el.textContent)).toEqual(items.filter((i) => !isNavItemAvailable(i)).map((i) => `${i.label}Soon (coming soon: not built yet)`));
    for (const el of soon) expect(el.closest('a')).toBeNull();
    expect(deadLinks(document.body)).toEqual([]);
  });

  it('links every onboarding step to its guide now that calls are built', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const checklist = onboarding('t1');
    checklist.items[0]!.done = false;
    checklist.items.forEach((item, i) => (item.label = ['Create your team', 'Create an agent', 'Buy a phone number', 'Pair them', 'Make a test call'][i]!));
    fakeServer({ ...dashboardRoutes(), 'GET /v1/team/onboarding/t1': () => ok(checklist) });
    renderApp('/onboarding?teamId=t1');
    const callStep = (await screen.findByText('Make a test call')).closest('li')!;
    expect(callStep).not.toHaveTextContent('Available when');
    expect(within(callStep).getByRole('link', { name: 'How to' })).toHaveAttribute('href', '/docs/test-your-agent-profile/test-call-the-phone-number');
    const teamStep = screen.getByText('Create your team').closest('li')!;
    expect(within(teamStep).getByRole('link', { name: 'How to' })).toHaveAttribute('href', '/docs/teams');
    // Agents, phone numbers and calls are built: no step waits.
    expect(screen.queryAllByTestId('step-unavailable')).toHaveLength(0);
    expect(deadLinks(screen.getByRole('main'))).toEqual([]);
  });
});
