// End-to-end: a run you can watch on the canvas, against a real `betty serve` with the
// simulated carrier. While a run over contacts goes on, the steps show how many calls are on
// them now and have passed through (seeded from the run's activity, then the live stream); once
// it ended the counts go away. A test run highlights the path its call takes, steps and edges,
// and keeps it shown on the page once the call ended.
//
//   BETTY_BIN=../bin/betty node --test e2e/livecanvas.test.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { callingTeam, ok, phonesFor, uploadContacts } from './calling.mjs';
import { CHROMIUM, NARROW, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Lena Live', email: 'lena@example.com' };
const TEAM = { name: 'Contoso Live', company: 'Contoso', industry: 'Retail', purpose: 'Renewal calls' };

test('the canvas shows a run as it goes: calls per step, and a test run’s path', { skip, timeout: 600_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const stack = await startStack(t, { serveArgs: ['--dialer-cps-per-number', '50'] });
  const { baseURL, browser } = stack;
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = watchForProblems(page);
  let setup;
  const at = (p) => `${baseURL}${p}${p.includes('?') ? '&' : '?'}teamId=${setup.teamId}`;
  const phones = phonesFor(8);
  let steps;

  await t.test('a team ready to call, with 8 contacts', async () => {
    setup = await callingTeam(page, stack, OWNER, PASSWORD, TEAM);
    await uploadContacts(page, setup, phones);
    const wf = await ok(page, 'GET', `/v1/workflow/${setup.workflowId}`);
    const id = (prefix) => wf.nodes.find((n) => n.id.startsWith(prefix)).id;
    steps = { start: id('start-'), hello: id('hello-'), answer: id('answer-'), thanks: id('thanks-'), end: id('end-') };
  });

  await t.test('a run shows on the steps the calls that passed through them, and stays shown once it ended', async () => {
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${setup.workflowId}`));
    await page.getByTestId('workflow-canvas').waitFor();
    // The canvas opens on Start at a readable zoom; F fits the whole flow, so every step is drawn.
    await page.locator('[data-kind="start"]').waitFor();
    await page.keyboard.press('f');
    await page.waitForTimeout(400);
    assert.equal(await page.locator('[data-testid^="activity-"]').count(), 0, 'counts shown before any run');
    // The simulator ends its calls within a second or two, so the calls "on call now" are
    // checked by the unit tests (overlay.test.ts); here, the counts the run leaves.
    const job = await ok(page, 'POST', `/v1/workflow/run/${setup.workflowId}`, { organizationId: setup.teamId });
    for (;;) {
      const [j] = await ok(page, 'GET', `/v2/jobs/status?ids=${job.id}`);
      if (j.status !== 'in-progress') break;
      await page.waitForTimeout(300);
    }
    const activity = await ok(page, 'GET', `/v1/workflow/run-activity/${setup.workflowId}`);
    assert.equal(activity.jobId, job.id);
    assert.equal(activity.inProgress, false);
    const start = activity.steps.find((s) => s.nodeId === steps.start);
    assert.ok(start && start.passed > 0 && start.now === 0, JSON.stringify(activity.steps));
    // The canvas counts what the server counts, from the stream.
    for (const s of activity.steps) {
      await page.getByTestId(`activity-passed-${s.nodeId}`).filter({ hasText: new RegExp(`^${s.passed} passed$`) }).waitFor({ timeout: 30_000 });
    }
    assert.equal(await page.locator('[data-testid^="activity-now-"]').count(), 0, 'calls shown on a step after the run ended');
    await screenshot(page, 'live-canvas-run');
    // A canvas opened after the run ended shows nothing of it.
    await page.reload();
    await page.getByTestId('workflow-canvas').waitFor();
    await page.waitForTimeout(1000);
    assert.equal(await page.locator('[data-testid^="activity-"]').count(), 0, 'counts of a run that ended before the page opened');
  });

  await t.test('a test run highlights the path its call takes, and keeps it once the call ended', async () => {
    await page.locator('[data-kind="start"]').waitFor();
    await page.keyboard.press('f');
    await page.waitForTimeout(400);
    await page.getByRole('button', { name: 'Test run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test Renewal calls' });
    await dialog.getByLabel('Number to call').fill('+14157209999');
    await dialog.getByLabel('Name or e-mail').fill('Ada');
    await dialog.getByLabel('Persona').fill('A customer who wants to renew.');
    await dialog.getByRole('button', { name: 'Call now' }).click();
    // While the call goes on: the greeting step is on its path, with the call on it or past it.
    await page.locator(`[data-testid="node-${steps.hello}"][data-on-path="true"]`).waitFor({ timeout: 60_000 });
    await page.getByTestId(`activity-${steps.start}`).waitFor({ timeout: 60_000 });
    await screenshot(page, 'live-canvas-test-run');
    const live = page.getByTestId('test-run');
    await live.getByTestId('test-call-status').filter({ hasText: 'Completed' }).waitFor({ timeout: 120_000 });
    await page.keyboard.press('Escape');
    await live.waitFor({ state: 'detached' });
    // The test run's one call, counted on every step it passed.
    await page.getByTestId(`activity-passed-${steps.end}`).filter({ hasText: /^1 passed$/ }).waitFor();
    for (const id of Object.values(steps)) {
      await page.locator(`[data-testid="node-${id}"][data-on-path="true"]`).waitFor();
    }
    const onPath = await page.locator('.react-flow__edge path[data-on-path="true"]').count();
    assert.equal(onPath, 4, 'the four edges the call went along are highlighted');
    const stroke = await page.locator('.react-flow__edge path[data-on-path="true"]').first().evaluate((el) => getComputedStyle(el).stroke);
    assert.notEqual(stroke, 'none');
    await screenshot(page, 'live-canvas-test-path');
    // Closer, where a card's text reads: the badge and the path at the size people read them.
    await page.getByTestId(`node-${steps.hello}`).click();
    await page.keyboard.press('Escape');
    for (let i = 0; i < 3; i++) await page.locator('.react-flow__controls-zoomin').click();
    await page.waitForTimeout(400);
    await screenshot(page, 'live-canvas-test-path-near');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'live-canvas-test-path-near-dark');
    await page.setViewportSize(NARROW);
    await page.locator('.react-flow__controls-fitview').click();
    await page.waitForTimeout(400);
    await screenshot(page, 'live-canvas-test-path-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  assert.deepEqual(problems, [], 'the page logged errors or failed requests');
});
