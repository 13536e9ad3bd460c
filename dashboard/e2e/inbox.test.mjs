// End-to-end: the inbox and the do-not-call list, against a real `betty serve` with the
// simulated carrier. A short run files an outcome per answered call; the inbox lists them,
// searches them (the URL keeps the search), changes an item's priority and makes it public;
// the public page shows it to someone not signed in, and stops showing it once it is private
// again. The do-not-call page imports a CSV and lists the rows it refused, and an admin removes
// a number.
//
//   BETTY_BIN=../bin/betty node --test e2e/inbox.test.mjs

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import AxeBuilder from '@axe-core/playwright';

import { callingTeam, ok, phonesFor, uploadContacts } from './calling.mjs';
import { CHROMIUM, NARROW, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Ines Inbox', email: 'ines@example.com' };
const TEAM = { name: 'Fabrikam Care', company: 'Fabrikam', industry: 'Insurance', purpose: 'Follow-up calls' };

async function axe(page, label) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `${label}: serious or critical accessibility problems`);
}

test('the inbox, its public page and the do-not-call list', { skip, timeout: 600_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const stack = await startStack(t, { serveArgs: ['--dialer-cps-per-number', '50'] });
  const { baseURL, browser, dataDir } = stack;
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = watchForProblems(page);
  let setup;
  const at = (p) => `${baseURL}${p}${p.includes('?') ? '&' : '?'}teamId=${setup.teamId}`;

  await t.test('a short run files its outcomes in the inbox', async () => {
    setup = await callingTeam(page, stack, OWNER, PASSWORD, TEAM);
    await uploadContacts(page, setup, phonesFor(5, 500));
    const job = await ok(page, 'POST', `/v1/workflow/run/${setup.workflowId}`, { organizationId: setup.teamId });
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [now] = await ok(page, 'GET', `/v2/jobs/status?ids=${job.id}`);
      if (now.status !== 'in-progress') {
        assert.equal(now.status, 'success', JSON.stringify(now));
        break;
      }
      assert.ok(Date.now() < deadline, `the run did not finish: ${JSON.stringify(now.progress)}`);
      await page.waitForTimeout(1_000);
    }
  });

  let item;
  await t.test('the inbox lists the outcomes and searches them 500 ms after typing stops', async () => {
    const items = await ok(page, 'GET', `/v1/inbox?organizationId=${setup.teamId}&sizePerPage=100`);
    assert.ok(items.length > 0, 'no inbox item was filed');
    item = items[0];
    await page.goto(at('/dashboard/inbox'));
    const list = page.getByRole('list', { name: 'Inbox items' });
    await list.getByTestId(`inbox-row-${item.id}`).waitFor();
    await screenshot(page, 'inbox-list');
    const word = item.title.split(/\s+/).find((w) => w.length > 3) ?? item.title;
    await page.getByRole('searchbox', { name: 'Search the inbox' }).fill(word);
    await page.waitForURL(/searchQuery=/);
    assert.equal(new URL(page.url()).searchParams.get('searchQuery'), word);
    await list.getByTestId(`inbox-row-${item.id}`).waitFor();
    await page.getByRole('searchbox', { name: 'Search the inbox' }).fill('zzzz-nothing-like-this');
    await page.getByText('Nothing matches').waitFor();
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await list.getByTestId(`inbox-row-${item.id}`).waitFor();
  });

  let link = '';
  await t.test('an item: its call, a new priority, made public with a link', async () => {
    await page.getByTestId(`inbox-row-${item.id}`).click();
    await page.waitForURL(/inboxId=/);
    const view = page.getByRole('article', { name: item.title });
    await view.getByTestId('inbox-summary').waitFor();
    await view.getByRole('combobox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Priority changed.' }).waitFor();
    await view.getByRole('button', { name: 'Public' }).click();
    link = (await view.getByTestId('inbox-public-link').textContent()) ?? '';
    assert.ok(link.includes(`/inbox?inboxId=${item.id}&organizationId=${setup.teamId}`), link);
    const stored = await ok(page, 'GET', `/v1/inbox/private/${item.id}?organizationId=${setup.teamId}`);
    assert.equal(stored.visibility, 'public');
    assert.ok(stored.priority >= 75, `priority ${stored.priority}`);
    await screenshot(page, 'inbox-item');
    await axe(page, 'inbox item');
  });

  await t.test('the public page shows a public item to someone not signed in, and not once it is private', async () => {
    const stranger = await newContext(browser);
    const anon = await stranger.newPage();
    anon.setDefaultTimeout(20_000);
    const anonProblems = watchForProblems(anon);
    await anon.goto(link);
    await anon.getByRole('heading', { name: item.title }).waitFor();
    assert.equal(await anon.getByTestId('public-inbox-summary').textContent(), item.summary || 'No summary was written for this call.');
    assert.equal(await anon.evaluate(() => localStorage.getItem('betty.accessToken')), null, 'the visitor is signed out');
    await screenshot(anon, 'inbox-public');
    await axe(anon, 'public inbox item');
    await anon.setViewportSize(NARROW);
    await screenshot(anon, 'inbox-public-390');
    assert.deepEqual(anonProblems, [], 'the public page logged errors or failed requests');

    await page.getByRole('article', { name: item.title }).getByRole('button', { name: 'Private' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Only your team can read this item now.' }).waitFor();
    await anon.reload();
    await anon.getByText('Nothing to show here').waitFor();
    await stranger.close();
  });

  await t.test('the do-not-call page imports a CSV, lists the rows it refused, and an admin removes a number', async () => {
    await page.goto(at('/dashboard/do-not-call'));
    await page.getByRole('heading', { level: 1, name: 'Do-not-call list' }).waitFor();
    const csv = path.join(dataDir, 'dnc.csv');
    await writeFile(csv, 'phone,reason\n+14157205101,Asked by phone\n+14157205102,\nnot a number,\n+14157205101,again\n');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import numbers' });
    await dialog.getByLabel('CSV file').setInputFiles(csv);
    await dialog.getByLabel('Reason for rows without one (optional)').fill('Imported from the old CRM');
    await dialog.getByRole('button', { name: 'Import' }).click();
    const result = dialog.getByTestId('dnc-import-result');
    await result.waitFor();
    const text = await result.innerText();
    assert.match(text, /2 numbers were added/);
    await result.getByRole('row').filter({ hasText: 'not a number' }).waitFor();
    await screenshot(page, 'do-not-call-import');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const table = page.getByRole('table', { name: 'Numbers never called, newest first' });
    await table.getByText('+14157205102').waitFor();
    await table.getByText('Imported from the old CRM').waitFor();

    await page.getByRole('searchbox', { name: 'Search numbers and reasons' }).fill('5101');
    await page.waitForURL(/search=5101/);
    await table.getByText('+14157205102').waitFor({ state: 'detached' });
    await table.getByText('+14157205101').waitFor();

    await page.getByRole('button', { name: 'Remove +14157205101' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('toast').filter({ hasText: '+14157205101 can be called again.' }).waitFor();
    // Contacts of the run above who asked not to be called again are on the list too: only the
    // imported numbers are looked at.
    const left = await ok(page, 'GET', `/v1/do-not-call?organizationId=${setup.teamId}`);
    assert.deepEqual(
      left.map((e) => e.phoneNumber).filter((p) => p.startsWith('+141572051')),
      ['+14157205102'],
    );
    await axe(page, 'do-not-call');
  });

  assert.deepEqual(problems, [], 'the page logged errors or failed requests');
});
