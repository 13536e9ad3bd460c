// End-to-end smoke test: a real `betty serve` (fresh SQLite data directory, free port) serving
// the embedded dashboard, driven by headless Chromium.
//
//   BETTY_BIN=../bin/betty npm run e2e
//
// Needs the betty binary (built with the dashboard embedded) and /usr/bin/chromium
// (`apt-get install -y chromium`). Without Chromium the test fails under CI and is skipped,
// loudly, elsewhere.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CHROMIUM, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const STATUS_TEXT = /^Server OK · version \S+ · database (sqlite|postgres)$/;

// One test owns the server and the browser; its subtests share them. A failed start-up fails
// this test (rather than cancelling hooks), so the summary counts it.
test('dashboard served by betty serve', { skip, timeout: 180_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser } = await startStack(t);
  const context = await newContext(browser);

  await t.test('the landing page shows the live server status', async () => {
    const page = await context.newPage();
    const problems = watchForProblems(page);

    const response = await page.goto(`${baseURL}/`);
    assert.equal(response?.status(), 200, 'GET / should serve the dashboard');
    await page.getByRole('heading', { level: 1 }).waitFor();

    const status = page.getByTestId('server-status');
    await status
      .filter({ hasText: 'Server OK' })
      .waitFor({ timeout: 15_000 })
      .catch(async (error) => {
        await screenshot(page, 'landing-failure').catch(() => {});
        throw new Error(`the status card never showed "Server OK"; it shows "${await status.textContent()}"`, {
          cause: error,
        });
      });
    const text = (await status.textContent())?.trim() ?? '';
    assert.match(text, STATUS_TEXT);

    await screenshot(page, 'landing');

    assert.deepEqual(problems, [], 'the page logged errors or failed requests');
    await page.close();
  });

  await t.test('a deep link is served through the SPA fallback to the not-found page', async () => {
    const page = await context.newPage();
    const problems = watchForProblems(page);

    const response = await page.goto(`${baseURL}/no/such/page`);
    assert.equal(response?.status(), 200, 'an unknown path outside the API should serve index.html');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ timeout: 15_000 });

    assert.deepEqual(problems, [], 'the page logged errors or failed requests');
    await page.close();
  });
});
