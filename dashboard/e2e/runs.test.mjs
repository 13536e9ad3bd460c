// End-to-end: calling, against a real `betty serve` with the simulated carrier. A run of 20
// contacts from the Run button (its confirmation says whom, when and within which caps) to the
// end of the job, with one contact on the do-not-call list suppressed, the calls in Call logs
// with a recording that plays, and every answered call's outcome in the Inbox; then a test run
// whose transcript is shown while the call goes on.
//
//   BETTY_BIN=../bin/betty node --test e2e/runs.test.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';

import AxeBuilder from '@axe-core/playwright';

import { ok, callingTeam, phonesFor, uploadContacts } from './calling.mjs';
import { CHROMIUM, NARROW, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Rita Runner', email: 'rita@example.com' };
const TEAM = { name: 'Contoso Renewals', company: 'Contoso', industry: 'Retail', purpose: 'Renewal calls' };

async function axe(page, label) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `${label}: serious or critical accessibility problems`);
}

test('a run of 20 contacts from Run to the inbox, recordings and a test run', { skip, timeout: 600_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const stack = await startStack(t, { serveArgs: ['--dialer-cps-per-number', '50'] });
  const { baseURL, browser, dataDir } = stack;
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = watchForProblems(page);
  // The dashboard reads the team's event stream with fetch, so its Authorization header is sent.
  const streams = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/events') streams.push(r.headers()['authorization'] ?? '');
  });
  let setup;
  const at = (p) => `${baseURL}${p}${p.includes('?') ? '&' : '?'}teamId=${setup.teamId}`;
  const phones = phonesFor(20);

  await t.test('a team with an agent, a number, credits and a campaign workflow of 20 contacts', async () => {
    setup = await callingTeam(page, stack, OWNER, PASSWORD, TEAM);
    await uploadContacts(page, setup, phones);
  });

  await t.test('the do-not-call page: a number added there is never dialled', async () => {
    await page.goto(at('/dashboard/do-not-call'));
    await page.getByText('Nobody is on the list').waitFor();
    await page.getByRole('button', { name: 'Add number' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a number' });
    await dialog.getByLabel('Phone number').fill(phones[4]);
    await dialog.getByLabel('Reason (optional)').fill('Asked by letter');
    await dialog.getByRole('button', { name: 'Add number' }).click();
    await page.getByRole('table').getByText(phones[4]).waitFor();
    await screenshot(page, 'do-not-call');
  });

  let jobId = '';
  await t.test('Run asks first, saying how many contacts, the window and the caps; the job panel follows it to the end', async () => {
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${setup.workflowId}`));
    await page.getByTestId('workflow-canvas').waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Run Renewal calls?' });
    await dialog.getByTestId('run-contact-count').filter({ hasText: '20 contacts' }).waitFor();
    await dialog.getByText('00:00–23:59, Every day (UTC)').waitFor();
    await dialog.getByTestId('run-caps').filter({ hasText: 'At most 20 calls at once (campaign setting)' }).waitFor();
    await dialog.getByText(/100 credits left/).waitFor();
    await screenshot(page, 'run-confirm');
    await axe(page, 'run confirmation');
    await dialog.getByRole('button', { name: 'Call 20 contacts' }).click();
    const runs = page.getByRole('complementary', { name: 'Runs' });
    const panel = runs.getByTestId('job-panel');
    await panel.waitFor();
    jobId = (await panel.getAttribute('data-job-id')) ?? '';
    assert.ok(jobId);
    await screenshot(page, 'run-live');
    await runs.locator('[data-testid="job-panel"][data-status="success"]').waitFor({ timeout: 240_000 });
    assert.ok(streams.length > 0 && streams.every((h) => h.startsWith('Bearer ')), `event stream requests: ${JSON.stringify(streams)}`);
    const counters = Object.fromEntries(
      await runs.locator('[data-counter]').evaluateAll((els) => els.map((el) => [el.getAttribute('data-counter'), Number(el.querySelector('dd').textContent.replace(/,/g, ''))])),
    );
    assert.equal(counters.total, 20);
    assert.equal(counters.suppressed, 1, 'the number on the do-not-call list was suppressed');
    assert.equal(counters.completed + counters.failed, 20, JSON.stringify(counters));
    assert.equal(counters.pending, 0);
    await runs.getByRole('table', { name: 'Runs of this workflow' }).getByText('Completed').waitFor();
    await screenshot(page, 'run-finished');
    const calls = await ok(page, 'GET', `/v1/call/logs?organizationId=${setup.teamId}&sizePerPage=100`);
    const dialled = calls.filter((c) => c.jobId === jobId).map((c) => c.to);
    assert.ok(!dialled.includes(phones[4]), 'the suppressed number was dialled');
    assert.equal(new Set(dialled).size, dialled.length, 'a contact was dialled twice');
    assert.equal(dialled.length, 19);
  });

  await t.test('the campaign’s Workflow tab shows the same run and its history', async () => {
    await page.goto(at(`/dashboard/campaigns/${setup.campaignId}/workflow`));
    // Made the campaign's active workflow here, its runs show above the list.
    await page.getByRole('switch', { name: "Renewal calls is the campaign's active workflow" }).check();
    const card = page.getByRole('region', { name: 'Runs of Renewal calls' });
    await card.locator(`[data-testid="job-panel"][data-job-id="${jobId}"]`).waitFor();
    await screenshot(page, 'campaign-workflow-runs');
  });

  let answered;
  await t.test('Call logs: the calls, one opened with its cost, transcript and a recording that plays', async () => {
    const calls = await ok(page, 'GET', `/v1/call/logs?organizationId=${setup.teamId}&sizePerPage=100`);
    answered = calls.find((c) => c.jobId === jobId && c.hasRecording);
    assert.ok(answered, 'no call of the run has a recording');
    await page.goto(at('/dashboard/calls'));
    await page.getByTestId('daily-calls-chart').waitFor();
    await page.getByRole('table', { name: 'Calls, newest first' }).waitFor();
    await page.goto(at(`/dashboard/calls?callLogId=${answered.id}`));
    const detail = page.getByTestId('call-detail');
    await detail.getByTestId('call-cost').filter({ hasText: '$' }).waitFor();
    await detail.getByTestId('transcript').waitFor();
    const audio = detail.getByTestId('call-recording');
    await audio.waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="call-recording"]')?.readyState ?? 0) >= 1, null, { timeout: 20_000 });
    const duration = await audio.evaluate((el) => el.duration);
    assert.ok(duration > 0, `the recording has no duration (${duration})`);
    await audio.evaluate((el) => el.play());
    await page.waitForFunction(() => (document.querySelector('[data-testid="call-recording"]')?.currentTime ?? 0) > 0, null, { timeout: 20_000 });
    await screenshot(page, 'call-detail');
    await axe(page, 'call logs');
  });

  await t.test('the Inbox has an item for every answered call of the run', async () => {
    const calls = await ok(page, 'GET', `/v1/call/logs?organizationId=${setup.teamId}&sizePerPage=100`);
    const ended = calls.filter((c) => c.jobId === jobId && c.hasTranscript).length;
    await page.goto(at('/dashboard/inbox'));
    await page.getByRole('list', { name: 'Inbox items' }).waitFor();
    const items = await ok(page, 'GET', `/v1/inbox?organizationId=${setup.teamId}&sizePerPage=100`);
    assert.ok(items.length >= ended && ended > 0, `${items.length} inbox items for ${ended} answered calls`);
    await screenshot(page, 'inbox');
  });

  await t.test('a test run shows the conversation while it happens', async () => {
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${setup.workflowId}`));
    await page.getByTestId('workflow-canvas').waitFor();
    await page.getByRole('button', { name: 'Test run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test Renewal calls' });
    await dialog.getByLabel('Number to call').fill('+14157209999');
    await dialog.getByLabel('Name or e-mail').fill('Ada');
    await dialog.getByLabel('Persona').fill('A customer who wants to renew but asks about the price first.');
    await dialog.getByRole('button', { name: 'Call now' }).click();
    const live = page.getByTestId('test-run');
    await live.getByTestId('transcript').locator('[data-speaker="agent"]').first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'test-run-live');
    await live.getByTestId('transcript').locator('[data-speaker="customer"]').first().waitFor({ timeout: 60_000 });
    await live.getByTestId('test-call-status').filter({ hasText: 'Completed' }).waitFor({ timeout: 120_000 });
    await screenshot(page, 'test-run-done');
    await live.getByRole('link', { name: 'Open in call logs' }).click();
    await page.getByTestId('call-detail').waitFor();
  });

  await t.test('the new screens at 390 px and in dark mode', async () => {
    // The theme follows the system until the person picks one: dark here.
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [name, p] of [
      ['calls-390', `/dashboard/calls?callLogId=${answered.id}`],
      ['inbox-390', '/dashboard/inbox'],
      ['do-not-call-390', '/dashboard/do-not-call'],
    ]) {
      await page.setViewportSize(NARROW);
      await page.goto(at(p));
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForTimeout(500);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `${name} scrolls sideways by ${overflow}px`);
      await screenshot(page, name);
      await axe(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  assert.deepEqual(problems, [], 'the page logged errors or failed requests');
});
