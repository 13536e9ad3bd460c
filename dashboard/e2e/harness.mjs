// Shared by the end-to-end tests: a real `betty serve` on a fresh SQLite data directory and a
// free port, headless Chromium, and helpers to watch pages and read the server's log.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

export const DASHBOARD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT_DIR = path.join(DASHBOARD_DIR, 'test-output');
export const CHROMIUM = '/usr/bin/chromium';
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

export const bettyBin = process.env.BETTY_BIN
  ? path.resolve(process.cwd(), process.env.BETTY_BIN)
  : path.resolve(DASHBOARD_DIR, '..', 'bin', 'betty');
const inCI = Boolean(process.env.CI);
export const haveChromium = existsSync(CHROMIUM);

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

/** The `skip` option for a test that needs Chromium. */
export const skip = !haveChromium && !inCI ? `${CHROMIUM} is missing (apt-get install -y chromium)` : false;

/**
 * Starts `betty serve` and Chromium; registers their shutdown on `t`. Returns the base URL, the
 * browser, the server's data directory, and `log()`, everything the server wrote so far (stdout and stderr).
 * `serveArgs` are added to `betty serve` (the billing test points payments at stripe-mock).
 */
export async function startStack(t, { serveArgs = [] } = {}) {
  if (!existsSync(bettyBin)) {
    throw new Error(`the betty binary is missing at ${bettyBin}; build it (go build -o bin/betty ./cmd/betty) or set BETTY_BIN`);
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'betty-e2e-data-'));
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let server;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  t.after(async () => {
    await browser?.close().catch(() => {});
    if (server) {
      await stop(server);
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let serverLog = '';
  server = spawn(bettyBin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--base-url', baseURL, ...serveArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => (serverLog += chunk));
  server.stderr?.on('data', (chunk) => (serverLog += chunk));
  await waitUntilReady(server, `${baseURL}/readyz`, () => serverLog);

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  await mkdir(OUTPUT_DIR, { recursive: true });
  return { baseURL, browser, dataDir, log: () => serverLog };
}

/** A fresh browser profile (its own storage), as a second person on another machine. */
export function newContext(browser, options = {}) {
  return browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
}

/** Fills the sign-up form on `page` for `person` ({name, email}) and sends it. */
export async function fillSignUp(page, person, password) {
  await page.getByLabel('Your name').fill(person.name);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/**
 * Signs a new person up and creates their first team through the dashboard's forms; answers the
 * team's id from the URL the dashboard lands on.
 */
export async function signUpWithTeam(page, baseURL, person, password, team) {
  await page.goto(`${baseURL}/sign-up`);
  await fillSignUp(page, person, password);
  await page.getByRole('heading', { level: 1, name: 'Create your team' }).waitFor();
  await page.getByLabel('Team name').fill(team.name);
  await page.getByLabel('Company name').fill(team.company);
  await page.getByLabel('Industry').fill(team.industry);
  await page.getByLabel('What will your agents do?').fill(team.purpose);
  await page.getByRole('button', { name: 'Create team' }).click();
  await page.getByRole('heading', { level: 1, name: team.name }).waitFor();
  return new URL(page.url()).searchParams.get('teamId') ?? '';
}

/** A phone-sized viewport. */
export const NARROW = { width: 390, height: 844 };

/**
 * Opens `url` in a new 390 px wide page of `context`, runs `fn(page)`, and closes the page;
 * fails when the page logged errors or failed requests, as the wide pages do.
 */
export async function atNarrowWidth(context, url, fn) {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = watchForProblems(page);
  try {
    await page.setViewportSize(NARROW);
    await page.goto(url);
    await fn(page);
    if (problems.length > 0) throw new Error(`the 390 px page of ${url} logged errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
}

/** The newest e-mailed link to `email` whose path starts with `pathPrefix`, from the server log. */
export async function waitForLink(log, email, pathPrefix, { timeout = 10_000 } = {}) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const lines = log()
      .split('\n')
      .filter((line) => line.includes(`to=${email}`) && line.includes('link='));
    for (const line of lines.reverse()) {
      const match = /link="?([^"\s]+)"?/.exec(line);
      if (match && new URL(match[1]).pathname.startsWith(pathPrefix)) {
        return match[1];
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no e-mailed ${pathPrefix} link to ${email} in the server log:\n${log().slice(-3000)}`);
}

/**
 * Calls the API from `page` as its signed-in user (the session's access token), answering the
 * status and the parsed body (null when there is none).
 */
export function pageApi(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('betty.accessToken')}` },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { method, path, body },
  );
}

export function screenshot(page, name) {
  return page.screenshot({ path: path.join(OUTPUT_DIR, `${name}.png`), fullPage: true });
}

/** Console errors and warnings, uncaught exceptions and failed requests seen by `page`. */
export function watchForProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A navigation away cancels in-flight requests; that is not a failure of the page.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`);
  });
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
