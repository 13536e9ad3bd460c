// End-to-end, the browser's door (issue 21): a newcomer on a fresh `betty serve` started with
// default flags, with nothing done by hand on the server: sign up (the first account is the
// site administrator), an agent, a number from the simulator, a campaign that uses both, a
// workflow from a template, a CSV of 20 contacts of which 3 cannot be called, Run, and what
// the run leaves: calls with transcripts, a recording that plays, and the inbox.
//
//   BETTY_BIN=../bin/betty node --test e2e/firstrun.test.mjs

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { ok } from './calling.mjs';
import { CHROMIUM, haveChromium, newContext, screenshot, signUpWithTeam, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Nia Newcomer', email: 'nia@example.com' };
const TEAM = 'Nia’s Bakery';
const CAMPAIGN = 'Order updates';
const AGENT = 'Sam';
const WORKFLOW = 'Order calls';

test('the first run, in the browser: from sign-up to heard calls', { skip, timeout: 480_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const stack = await startStack(t);
  const { baseURL, browser, dataDir } = stack;
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = watchForProblems(page);
  let teamId = '';
  const at = (p) => `${baseURL}${p}${p.includes('?') ? '&' : '?'}teamId=${teamId}`;
  const toastSays = (text) => page.getByTestId('toast').filter({ hasText: text }).waitFor();

  await t.test('sign up and create a team: the first account runs this server', async () => {
    teamId = await signUpWithTeam(page, baseURL, OWNER, PASSWORD, { name: TEAM, company: 'Nia’s Bakery', industry: 'Food', purpose: 'Tell customers their order is ready' });
    assert.ok(teamId);
    await page.getByRole('navigation').getByRole('link', { name: 'Admin' }).waitFor();
    await screenshot(page, 'firstrun-home');
  });

  await t.test('an agent on the Agents page', async () => {
    await page.goto(at('/dashboard/agents'));
    await page.getByRole('button', { name: 'New agent' }).first().click();
    await page.getByLabel('Agent name').fill(AGENT);
    await page.getByLabel('Greeting').fill('Hello, this is Sam from Nia’s Bakery.');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/agentId=/);
  });

  let number = '';
  await t.test('a number from the simulator', async () => {
    await page.goto(at('/dashboard/phone-numbers'));
    await page.getByRole('search', { name: 'Search numbers on sale' }).getByRole('button', { name: 'Search' }).click();
    const buy = page.getByRole('button', { name: /^Buy \+/ }).first();
    await buy.waitFor();
    number = ((await buy.getAttribute('aria-label')) ?? '').replace('Buy ', '');
    await buy.click();
    await toastSays(`${number} is now one of your numbers.`);
  });

  let campaignId = '';
  await t.test('a campaign with the agent, the number, a calling window open now and no retries', async () => {
    await page.goto(at('/dashboard/campaigns'));
    await page.getByRole('button', { name: 'New campaign' }).first().click();
    await page.getByLabel('Name', { exact: true }).fill(CAMPAIGN);
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { level: 1, name: CAMPAIGN }).waitFor();
    campaignId = new URL(page.url()).pathname.split('/')[3];
    // The agent made on the Agents page joins the campaign and speaks in its calls.
    await page.getByRole('button', { name: 'Add an existing agent' }).click();
    await page.getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: AGENT }).click();
    await page.getByRole('button', { name: 'Add to campaign' }).click();
    await page.getByRole('button', { name: `Activate ${AGENT}` }).click();
    await page.getByRole('button', { name: `Deactivate ${AGENT}` }).waitFor();
    await page.getByRole('tab', { name: 'Phone Numbers' }).click();
    await page.getByRole('combobox', { name: 'Number' }).click();
    await page.getByRole('option', { name: number }).click();
    await page.getByRole('button', { name: 'Assign number' }).click();
    // Whenever this test runs, the run must be able to call now: every day, all day.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('From').fill('00:00');
    await page.getByLabel('Until').fill('23:59');
    // Not reached is not retried in an hour (the default): the test ends with the run.
    await page.getByLabel('Retries per contact').fill('0');
    const days = page.getByRole('group', { name: 'Days' });
    for (const day of ['Sat', 'Sun']) await days.getByRole('checkbox', { name: day, exact: true }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toastSays('saved');
  });

  let workflowId = '';
  await t.test('a workflow from the Order update template', async () => {
    await page.getByRole('tab', { name: 'Workflow' }).click();
    await page.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name').fill(WORKFLOW);
    await dialog.getByRole('button', { name: /Order update/ }).click();
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await page.waitForURL(/workflowId=/);
    workflowId = new URL(page.url()).searchParams.get('workflowId') ?? '';
    await page.getByTestId('workflow-canvas').waitFor();
    await page.waitForTimeout(1000);
    await screenshot(page, 'firstrun-canvas');
  });

  await t.test('20 contacts from a CSV, 3 of which cannot be called', async () => {
    const rows = ['phone,firstName,lastName,email'];
    for (let i = 0; i < 17; i++) rows.push(`+1415720${String(i).padStart(4, '0')},Ann${i},Lee${i},ann${i}@example.com`);
    rows.push(',Nora,Nonumber,nora@example.com', 'call me maybe,Will,Words,will@example.com', '+1-41A-555-ZZZZ,Vic,Vanity,vic@example.com');
    const csv = path.join(dataDir, 'contacts.csv');
    await writeFile(csv, rows.join('\n') + '\n');
    const contacts = page.locator('[data-kind="contacts"]');
    const add = contacts.getByRole('button', { name: 'Add Contact' });
    // At the opening zoom a card shows its title alone: a click zooms onto it.
    for (let i = 0; i < 5 && !(await add.isVisible()); i++) {
      await contacts.click();
      await page.waitForTimeout(700);
    }
    await add.click();
    const panel = page.getByRole('complementary', { name: 'Edit Contacts' });
    await panel.getByRole('combobox', { name: 'Contact source' }).click();
    await page.getByRole('option', { name: 'CSV file' }).click();
    await panel.getByLabel('CSV file').setInputFiles(csv);
    await toastSays('Contacts uploaded');
    await panel.getByRole('button', { name: 'Apply' }).click();
    await contacts.getByText('of 20').waitFor({ timeout: 60_000 });
    await screenshot(page, 'firstrun-contacts');
  });

  let jobId = '';
  await t.test('Run calls the 17 that can be called, and the run panel follows it to the end', async () => {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Run ${WORKFLOW}?` });
    await dialog.getByTestId('run-contact-count').filter({ hasText: '17 contacts' }).waitFor();
    await screenshot(page, 'firstrun-run-confirm');
    await dialog.getByRole('button', { name: 'Call 17 contacts' }).click();
    const runs = page.getByRole('complementary', { name: 'Runs' });
    const panel = runs.getByTestId('job-panel');
    await panel.waitFor();
    jobId = (await panel.getAttribute('data-job-id')) ?? '';
    await runs.locator('[data-testid="job-panel"]:not([data-status="in-progress"])').waitFor({ timeout: 300_000 }).catch(() => {});
    await screenshot(page, 'firstrun-run-ended');
    const [job] = await ok(page, 'GET', `/v2/jobs/status?type=workflow-run&ids=${jobId}`);
    assert.equal(job.status, 'success', JSON.stringify(job));
    assert.equal(await panel.getAttribute('data-status'), 'success');
    await screenshot(page, 'firstrun-run-finished');
  });

  await t.test('Call logs: a simulated call, free, with its transcript and a recording that plays', async () => {
    const calls = await ok(page, 'GET', `/v1/call/logs?organizationId=${teamId}&sizePerPage=100`);
    const mine = calls.filter((c) => c.jobId === jobId);
    assert.equal(mine.length, 17, 'every contact that can be called was called once');
    const answered = mine.find((c) => c.hasRecording && c.hasTranscript);
    assert.ok(answered, 'no call of the run has a recording and a transcript');
    await page.goto(at(`/dashboard/calls?callLogId=${answered.id}`));
    const detail = page.getByTestId('call-detail');
    await detail.getByTestId('transcript').locator('[data-speaker="agent"]').first().waitFor();
    await detail.getByText('Simulated').first().waitFor();
    const audio = detail.getByTestId('call-recording');
    await audio.waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="call-recording"]')?.readyState ?? 0) >= 1, null, { timeout: 20_000 });
    await audio.evaluate((el) => el.play());
    await page.waitForFunction(() => (document.querySelector('[data-testid="call-recording"]')?.currentTime ?? 0) > 0, null, { timeout: 20_000 });
    await screenshot(page, 'firstrun-call');
  });

  await t.test('the Inbox has the answered calls, and the campaign is active on Home', async () => {
    await page.goto(at('/dashboard/inbox'));
    await page.getByRole('list', { name: 'Inbox items' }).getByRole('listitem').first().waitFor();
    await screenshot(page, 'firstrun-inbox');
    const campaign = await ok(page, 'GET', `/v1/campaigns/${campaignId}`);
    assert.notEqual(campaign.status, 'draft', 'a campaign that called 17 people is no draft');
  });

  assert.deepEqual(problems, [], 'the page logged errors or failed requests');
});
