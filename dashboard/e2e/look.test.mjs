// End-to-end: every screen, in the light and the dark theme, at 1280 and 390 px, checked with
// axe (no serious or critical violation) and photographed into test-output/ as
// `<screen>-<theme>-<width>.png`. Also the command palette (⌘K / Ctrl-K) and the theme choice.
//
//   BETTY_BIN=../bin/betty npm run e2e

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

import AxeBuilder from '@axe-core/playwright';

import { CHROMIUM, NARROW, OUTPUT_DIR, bettyBin, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Dana Designer', email: 'dana@example.com' };
const TEAM = 'Dana Support';
const THEMES = ['light', 'dark'];
const WIDTHS = [{ width: 1280, height: 900 }, NARROW];
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Screens and the heading that says each is ready; `signedIn` ones get the session first. */
function screens(teamId) {
  const q = `?teamId=${teamId}`;
  return [
    { name: 'landing', path: '/', heading: /AI voice agents/ },
    { name: 'sign-in', path: '/sign-in', heading: 'Sign in', signedOut: true },
    { name: 'sign-up', path: '/sign-up', heading: 'Create your account', signedOut: true },
    { name: 'forgot-password', path: '/forgot-password', heading: /password/i, signedOut: true },
    { name: 'docs', path: '/docs', heading: 'Docs' },
    { name: 'getting-started', path: '/getting-started', heading: 'Getting started' },
    { name: 'not-found', path: '/no/such/page', heading: 'Page not found' },
    { name: 'home', path: `/dashboard${q}`, heading: TEAM, signedIn: true, ready: 'activity' },
    { name: 'members', path: `/dashboard/members${q}`, heading: 'Members', signedIn: true },
    { name: 'api-keys', path: `/dashboard/api-keys${q}`, heading: 'API keys', signedIn: true },
    { name: 'team-settings', path: `/dashboard/team${q}`, heading: 'Team settings', signedIn: true },
    { name: 'billing', path: `/dashboard/billing${q}`, heading: 'Billing', signedIn: true, ready: 'usage-summary' },
    { name: 'knowledge-base', path: `/dashboard/knowledge-base${q}`, heading: 'Knowledge bases', signedIn: true },
    { name: 'connected-apps', path: `/dashboard/connected-apps${q}`, heading: 'Connected apps', signedIn: true },
    { name: 'shopify-setup', path: `/dashboard/shopify-setting-setup${q}`, heading: 'Shopify setup', signedIn: true },
    { name: 'profile', path: `/dashboard/profile${q}`, heading: 'Profile', signedIn: true },
    { name: 'onboarding', path: `/onboarding${q}`, heading: 'Onboarding', signedIn: true },
    { name: 'admin', path: '/admin', heading: 'Site admin', signedIn: true },
  ];
}

async function api(baseURL, path, body, token) {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

/** Serious and critical axe violations on the page as it is now, as readable lines. */
async function violations(page, label) {
  const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// The dashboard keeps its live event stream (/v1/events) open, so Playwright's 'networkidle'
// never comes on a signed-in screen: a screen is quiet when no other request has been in
// flight for half a second.
const traffic = new WeakMap();
function trackRequests(page) {
  const state = { inFlight: 0, last: Date.now() };
  const counts = (r) => new URL(r.url()).pathname !== '/v1/events';
  const done = (r) => {
    if (!counts(r)) return;
    state.inFlight = Math.max(0, state.inFlight - 1);
    state.last = Date.now();
  };
  page.on('request', (r) => {
    if (!counts(r)) return;
    state.inFlight++;
    state.last = Date.now();
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  traffic.set(page, state);
}

async function networkQuiet(page, quietMs = 500, timeoutMs = 15_000) {
  const state = traffic.get(page);
  const deadline = Date.now() + timeoutMs;
  while (state.inFlight > 0 || Date.now() - state.last < quietMs) {
    if (Date.now() > deadline) throw new Error(`the network did not settle: ${state.inFlight} requests in flight`);
    await page.waitForTimeout(50);
  }
}

async function settle(page, screen) {
  await page.getByRole('heading', { level: 1, name: screen.heading }).first().waitFor();
  if (screen.ready) await page.getByTestId(screen.ready).waitFor();
  await page.getByTestId('skeleton').first().waitFor({ state: 'detached' });
  // Fonts and the last query settle before the picture and the contrast check.
  await page.evaluate(() => document.fonts.ready);
  await networkQuiet(page);
}

test('every screen in both themes at 1280 and 390 px: axe and screenshots', { skip, timeout: 420_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser, dataDir } = await startStack(t);

  const signUp = await api(baseURL, '/v1/auth/sign-up', { email: OWNER.email, password: PASSWORD, name: OWNER.name });
  const token = signUp.session.accessToken;
  const team = await api(baseURL, '/v1/team/new', { name: TEAM, companyName: 'Dana Inc' }, token);
  await api(baseURL, '/v1/team/api-keys', { organizationId: team.id, name: 'CRM sync', role: 'developer' }, token);
  await api(baseURL, '/v1/team/invite', { organizationId: team.id, email: 'sam@example.com', role: 'member' }, token);
  await promisify(execFile)(bettyBin, ['admin', 'grant', OWNER.email, '--data-dir', dataDir]);
  const session = { accessToken: token, refreshToken: signUp.session.refreshToken };

  const found = [];
  for (const theme of THEMES) {
    for (const viewport of WIDTHS) {
      await t.test(`${theme} theme at ${viewport.width} px`, async () => {
        for (const signedIn of [false, true]) {
          const context = await newContext(browser, { viewport });
          await context.addInitScript(
            ({ theme, session, signedIn }) => {
              localStorage.setItem('betty.theme', theme);
              if (signedIn) {
                localStorage.setItem('betty.accessToken', session.accessToken);
                localStorage.setItem('betty.refreshToken', session.refreshToken);
              }
            },
            { theme, session, signedIn },
          );
          const page = await context.newPage();
          trackRequests(page);
          page.setDefaultTimeout(15_000);
          const problems = watchForProblems(page);
          for (const screen of screens(team.id).filter((s) => (signedIn ? s.signedIn : !s.signedIn))) {
            const label = `${screen.name} ${theme} ${viewport.width}`;
            await page.goto(`${baseURL}${screen.path}`);
            await settle(page, screen);
            assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), theme === 'dark', `${label}: theme`);
            found.push(...(await violations(page, label)));
            await screenshot(page, `${screen.name}-${theme}-${viewport.width}`);
          }
          if (signedIn) {
            // The shell's menus and the palette are screens of their own.
            await page.goto(`${baseURL}/dashboard?teamId=${team.id}`);
            await settle(page, screens(team.id)[7]);
            if (viewport.width < 1024) {
              await page.getByRole('button', { name: 'Open navigation' }).click();
              await page.getByRole('dialog', { name: 'Navigation' }).getByRole('link', { name: 'Members' }).waitFor();
              found.push(...(await violations(page, `navigation ${theme} ${viewport.width}`)));
              await page.screenshot({ path: `${OUTPUT_DIR}/navigation-${theme}-${viewport.width}.png` });
              await page.keyboard.press('Escape');
            }
            await page.getByRole('button', { name: /Account menu/ }).click();
            await page.getByRole('menu', { name: 'Account' }).waitFor();
            found.push(...(await violations(page, `account menu ${theme} ${viewport.width}`)));
            await page.screenshot({ path: `${OUTPUT_DIR}/account-menu-${theme}-${viewport.width}.png` });
            await page.keyboard.press('Escape');
            await page.keyboard.press('Control+k');
            const palette = page.getByRole('dialog', { name: 'Command palette' });
            await palette.getByRole('option', { name: 'Members' }).waitFor();
            found.push(...(await violations(page, `palette ${theme} ${viewport.width}`)));
            await page.screenshot({ path: `${OUTPUT_DIR}/palette-${theme}-${viewport.width}.png` });
            await page.keyboard.press('Escape');
          }
          assert.deepEqual(problems, [], 'the pages logged errors or failed requests');
          await context.close();
        }
      });
    }
  }

  await t.test('the palette jumps by keyboard and runs actions; the theme is remembered per user', async () => {
    const context = await newContext(browser);
    await context.addInitScript((session) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('betty.accessToken', session.accessToken);
        localStorage.setItem('betty.refreshToken', session.refreshToken);
        localStorage.removeItem('betty.theme');
        sessionStorage.setItem('seeded', '1');
      }
    }, session);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = watchForProblems(page);
    await page.goto(`${baseURL}/dashboard?teamId=${team.id}`);
    await page.getByRole('heading', { level: 1, name: TEAM }).waitFor();

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('api keys');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('teamId'), team.id);

    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox').fill('invite');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Invite a member' }).waitFor();
    await page.keyboard.press('Escape');
    assert.equal(new URL(page.url()).searchParams.get('action'), null, 'the action leaves the URL');

    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox').fill('dark theme');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    const stored = await page.evaluate((id) => localStorage.getItem(`betty.theme.${id}`), signUp.user.id);
    assert.equal(stored, 'dark', 'the theme is stored for this user');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true, 'the theme survives a reload');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitemradio', { name: 'Light' }).click();
    await page.waitForFunction(() => !document.documentElement.classList.contains('dark'));
    await page.keyboard.press('Escape');
    assert.deepEqual(problems, [], 'the page logged errors or failed requests');
    await context.close();
  });

  assert.deepEqual(found, [], `axe found serious or critical violations:\n${found.join('\n')}`);
});
