// Lighthouse performance and accessibility scores of the landing page and of Home (signed in),
// as `make bench` reports them. Not part of `make test`.
//
//   node scripts/lighthouse.mjs                 # starts ../bin/betty (or $BETTY_BIN) on a fresh data dir
//   node scripts/lighthouse.mjs --url URL       # measures a running betty; signs up a throwaway user there
//   node scripts/lighthouse.mjs --json          # one JSON line for benchreport instead of text
//
// Chromium is /usr/bin/chromium (or $CHROME_PATH). Lighthouse runs its default mobile profile
// (simulated slow 4G and a 4x slower CPU), so scores compare across machines better than times.
// Full reports go to test-output/lighthouse-<page>.json.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const DASHBOARD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT_DIR = path.join(DASHBOARD_DIR, 'test-output');
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const PASSWORD = 'correct horse battery';

const { values: args } = parseArgs({ options: { url: { type: 'string' }, json: { type: 'boolean', default: false } } });

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitReady(url) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`betty was not ready at ${url}`);
}

async function post(url, body, token) {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()).data;
}

const cleanups = [];
try {
  let baseURL = args.url?.replace(/\/$/, '');
  if (!baseURL) {
    const bin = path.resolve(process.env.BETTY_BIN ?? path.join(DASHBOARD_DIR, '..', 'bin', 'betty'));
    if (!existsSync(bin)) throw new Error(`no betty binary at ${bin}: run make build, set BETTY_BIN, or pass --url`);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'betty-lighthouse-'));
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    const server = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--base-url', baseURL, '--log-level', 'warn'], { stdio: 'ignore' });
    cleanups.push(async () => {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    });
    await waitReady(baseURL);
  }

  // A throwaway user with a team, so Home has something to show.
  const email = `lighthouse-${Date.now()}@example.com`;
  const signUp = await post(`${baseURL}/v1/auth/sign-up`, { email, password: PASSWORD, name: 'Lighthouse' });
  const team = await post(`${baseURL}/v1/team/new`, { name: 'Lighthouse team' }, signUp.session.accessToken);

  // A persistent profile is Chromium's default context, the one Lighthouse's tab opens in, so the
  // session put into its localStorage here signs that tab in.
  const profile = await mkdtemp(path.join(tmpdir(), 'betty-lighthouse-profile-'));
  const debugPort = await freePort();
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROME, headless: true, args: [...CHROME_ARGS, `--remote-debugging-port=${debugPort}`] });
  cleanups.push(async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${baseURL}/`);
  await page.evaluate((session) => {
    localStorage.setItem('betty.accessToken', session.accessToken);
    localStorage.setItem('betty.refreshToken', session.refreshToken);
  }, signUp.session);

  const pages = [
    { name: 'landing page', file: 'landing', url: `${baseURL}/` },
    { name: 'Home (signed in)', file: 'home', url: `${baseURL}/dashboard?teamId=${team.id}` },
  ];
  await mkdir(OUTPUT_DIR, { recursive: true });
  const results = [];
  for (const p of pages) {
    const run = await lighthouse(p.url, { port: debugPort, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true });
    if (!run) throw new Error(`lighthouse gave no result for ${p.url}`);
    const { categories, audits } = run.lhr;
    if (run.lhr.runtimeError) throw new Error(`${p.name}: ${run.lhr.runtimeError.message}`);
    await writeFile(path.join(OUTPUT_DIR, `lighthouse-${p.file}.json`), run.report);
    results.push({
      page: p.name,
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcp: audits['largest-contentful-paint']?.displayValue ?? '',
      tbt: audits['total-blocking-time']?.displayValue ?? '',
      finalUrl: run.lhr.finalDisplayedUrl,
    });
  }
  for (const r of results) {
    if (r.page.startsWith('Home') && !new URL(r.finalUrl).pathname.startsWith('/dashboard')) throw new Error(`Home was not measured signed in: it ended at ${r.finalUrl}`);
  }
  if (args.json) console.log(JSON.stringify(results));
  else for (const r of results) console.log(`lighthouse ${r.page}: performance ${r.performance}, accessibility ${r.accessibility} (LCP ${r.lcp}, TBT ${r.tbt}; mobile profile)`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
