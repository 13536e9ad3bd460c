// End-to-end: a run that waits says why. With the campaign's calling window closed until the
// day after tomorrow (read in each contact's zone: San Francisco numbers), the Run dialog warns that nothing can be dialled now and when the first call
// would be placed; the started run's panel says the contacts wait for their window and until
// when; opening the window in the campaign's settings lets the waiting run call them.
//
//   BETTY_BIN=../bin/betty node --test e2e/waiting.test.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ALWAYS_OPEN, callingTeam, ok, phonesFor, uploadContacts } from './calling.mjs';
import { CHROMIUM, haveChromium, newContext, screenshot, skip, startStack } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Wanda Waits', email: 'wanda@example.com' };
const TEAM = { name: 'Contoso Weekend', company: 'Contoso', industry: 'Retail', purpose: 'Renewal calls' };

/** The three-letter name of the day after tomorrow in San Francisco: a window that is closed now. */
function closedDay() {
  const day = new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('en-US', { weekday: 'short', timeZone: 'America/Los_Angeles' });
  return day.slice(0, 3).toLowerCase();
}

test('a run that waits for its calling window says why and until when', { skip, timeout: 300_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const stack = await startStack(t);
  const context = await newContext(stack.browser);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const setup = await callingTeam(page, stack, OWNER, PASSWORD, TEAM);
  const closed = { ...ALWAYS_OPEN, timezone: 'America/Chicago', callWindow: { start: '09:00', end: '17:00', days: [closedDay()] } };
  await ok(page, 'PUT', `/v1/campaigns/${setup.campaignId}`, { settings: closed });
  await uploadContacts(page, setup, phonesFor(3));
  const at = (p) => `${stack.baseURL}${p}${p.includes('?') ? '&' : '?'}teamId=${setup.teamId}`;

  await page.goto(at(`/dashboard/workflow-canvas?workflowId=${setup.workflowId}`));
  await page.getByTestId('workflow-canvas').waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Run Renewal calls?' });
  const note = dialog.getByTestId('run-waiting');
  await note.waitFor();
  const text = await note.textContent();
  assert.match(text, /Nothing can be dialled right now\. It is \w+day \d\d:\d\d in America\/Los_Angeles: calls wait for the calling window, \w{3} 09:00–17:00\. The first call would be placed \w{3} 09:00 \(in \d+ d \d+ h\)\./);
  await screenshot(page, 'run-dialog-waiting');

  await dialog.getByRole('button', { name: 'Call 3 contacts' }).click();
  const runs = page.getByRole('complementary', { name: 'Runs' });
  const waiting = runs.getByTestId('job-waiting');
  await waiting.waitFor();
  assert.match(await waiting.textContent(), /3 contacts wait for their calling window; the next opens \w{3} 09:00 America\/Los_Angeles \(in \d+ d \d+ h\)\./);
  await screenshot(page, 'run-panel-waiting');

  // The campaign's window opens: the running job follows its new settings and calls them.
  await ok(page, 'PUT', `/v1/campaigns/${setup.campaignId}`, { settings: ALWAYS_OPEN });
  await runs.locator('[data-testid="job-panel"][data-status="success"]').waitFor({ timeout: 120_000 });
  assert.equal(await runs.getByTestId('job-waiting').count(), 0);
});
