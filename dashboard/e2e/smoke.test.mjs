// End-to-end smoke test: a real `betty serve` (fresh SQLite data directory, free port) serving
// the embedded dashboard, driven by headless Chromium.
//
//   BETTY_BIN=../bin/betty npm run e2e
//
// Needs the betty binary (built with the dashboard embedded) and /usr/bin/chromium
// (`apt-get install -y chromium`). Without Chromium the test fails under CI and is skipped,
// loudly, elsewhere.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const DASHBOARD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT_DIR = path.join(DASHBOARD_DIR, 'test-output');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  // Without these Chromium stalls on connections it cannot make from this machine.
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
const READY_TIMEOUT_MS = 30_000;
const STATUS_TEXT = /^Server OK · version \S+ · database (sqlite|postgres)$/;

const bettyBin = process.env.BETTY_BIN
  ? path.resolve(process.cwd(), process.env.BETTY_BIN)
  : path.resolve(DASHBOARD_DIR, '..', 'bin', 'betty');
const inCI = Boolean(process.env.CI);
const haveChromium = existsSync(CHROMIUM);

if (!haveChromium && !inCI) {
  console.error(
    [
      '',
      '!'.repeat(78),
      `!! SKIPPING the dashboard end-to-end tests: ${CHROMIUM} is missing.`,
      '!! Install it with:  apt-get install -y chromium',
      '!'.repeat(78),
      '',
    ].join('\n'),
  );
}

const skip = !haveChromium && !inCI ? `${CHROMIUM} is missing (apt-get install -y chromium)` : false;

// One test owns the server and the browser; its subtests share them. A failed start-up fails
// this test (rather than cancelling hooks), so the summary counts it.
test('dashboard served by betty serve', { skip, timeout: 180_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  assert.ok(
    existsSync(bettyBin),
    `the betty binary is missing at ${bettyBin}; build it (go build -o bin/betty ./cmd/betty) or set BETTY_BIN`,
  );

  const dataDir = await mkdtemp(path.join(tmpdir(), 'betty-e2e-data-'));
  const profileDir = await mkdtemp(path.join(tmpdir(), 'betty-e2e-chromium-'));
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let server;
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let browser;
  t.after(async () => {
    await browser?.close().catch(() => {});
    if (server) {
      await stop(server);
    }
    await Promise.all([dataDir, profileDir].map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let serverLog = '';
  server = spawn(bettyBin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => (serverLog += chunk));
  server.stderr?.on('data', (chunk) => (serverLog += chunk));
  await waitUntilReady(server, `${baseURL}/readyz`, () => serverLog);

  browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const context = browser;

  await t.test('the landing page shows the live server status', async () => {
    const page = await context.newPage();
    const problems = watchForProblems(page);

    const response = await page.goto(`${baseURL}/`);
    assert.equal(response?.status(), 200, 'GET / should serve the dashboard');
    await page.getByRole('heading', { level: 1 }).waitFor();

    const status = page.getByTestId('server-status');
    await mkdir(OUTPUT_DIR, { recursive: true });
    await status
      .filter({ hasText: 'Server OK' })
      .waitFor({ timeout: 15_000 })
      .catch(async (error) => {
        await page.screenshot({ path: path.join(OUTPUT_DIR, 'landing-failure.png'), fullPage: true }).catch(() => {});
        throw new Error(`the status card never showed "Server OK"; it shows "${await status.textContent()}"`, {
          cause: error,
        });
      });
    const text = (await status.textContent())?.trim() ?? '';
    assert.match(text, STATUS_TEXT);

    await page.screenshot({ path: path.join(OUTPUT_DIR, 'landing.png'), fullPage: true });

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

/** Console errors, uncaught exceptions and failed requests seen by `page`. */
function watchForProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`),
  );
  return problems;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(child, url, log) {
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`betty serve exited (code ${exited.code}, signal ${exited.signal}) before it was ready:\n${log()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) {
        return;
      }
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`betty serve was not ready at ${url} within ${READY_TIMEOUT_MS / 1000} s (${lastError}):\n${log()}`);
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
