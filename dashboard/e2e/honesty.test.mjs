// End-to-end: the dashboard is honest about this server. Every part of Betty is built now, so
// nothing shows as "Coming soon" (a part not built would, with no link to a missing screen);
// onboarding steps can all be done; and on a server with no SMTP relay (the test server has none) the dashboard says where
// a link went, instead of "we sent you a link", and a site admin finds it under Outgoing mail.
//
//   BETTY_BIN=../bin/betty npm run e2e

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { CHROMIUM, NARROW, OUTPUT_DIR, atNarrowWidth, bettyBin, fillSignUp, haveChromium, newContext, screenshot, skip, startStack, waitForLink, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const ADMIN = { name: 'Nora Admin', email: 'nora@example.com' };
const NEWCOMER = { name: 'Sam Newcomer', email: 'sam@example.com' };
const TEAM = 'Nora Support';
const SENT = /we (have )?sent|we e-mail/i;

test('what works, what is coming, and where e-mail goes', { skip, timeout: 240_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser, dataDir, log } = await startStack(t);
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = watchForProblems(page);
  let teamId = '';

  await t.test('the start page shows what works, and nothing is left as Coming soon', async () => {
    await page.goto(`${baseURL}/`);
    await page.getByRole('heading', { level: 2, name: 'What works today' }).waitFor();
    // Connected apps (issue 13) was the last part still coming: every part is built now.
    const works = page.getByRole('region', { name: 'What works today' });
    for (const label of ['Connected apps', 'Knowledge bases', 'Billing', 'Inbox', 'Call logs', 'Do-not-call list']) {
      await works.getByRole('heading', { name: label, exact: true }).waitFor();
    }
    assert.equal(await page.getByTestId('coming-soon').count(), 0, 'a Coming soon area is still shown');
    assert.equal(await page.getByText('Coming soon', { exact: true }).count(), 0);
    await screenshot(page, 'landing');
    await atNarrowWidth(context, `${baseURL}/`, async (narrow) => {
      await narrow.getByRole('heading', { level: 2, name: 'What works today' }).waitFor();
      await screenshot(narrow, 'landing-390');
    });
  });

  await t.test('a newcomer signs up: no reminder to confirm an address nothing requires', async () => {
    await page.goto(`${baseURL}/sign-up`);
    await fillSignUp(page, ADMIN, PASSWORD);
    await page.waitForURL(/\/dashboard/);
    await page.getByRole('heading', { level: 1, name: 'Create your team' }).waitFor();
    // Without an e-mail relay confirmation is not required (issue 21): no banner says otherwise.
    assert.equal(await page.getByText(`Please confirm ${ADMIN.email}`).count(), 0);

    await page.getByLabel('Team name').fill(TEAM);
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { level: 1, name: TEAM }).waitFor();
    teamId = new URL(page.url()).searchParams.get('teamId') ?? '';
    assert.ok(teamId);
    await page.getByText(/steps done/).waitFor();
    await screenshot(page, 'dashboard-home-sidebar');
  });

  await t.test('the sidebar links every part it lists: none is left as Soon', async () => {
    const nav = page.getByRole('navigation', { name: 'Dashboard' }).first();
    const soon = nav.getByTestId('nav-coming-soon');
    for (const label of ['Campaigns', 'Agents', 'Workflows', 'Knowledge', 'Phone numbers', 'Voices', 'Calls', 'Inbox', 'Do-not-call', 'Members', 'API keys', 'Team settings', 'Billing']) await nav.getByRole('link', { name: label, exact: true }).waitFor();
    // Calls and the inbox are built (issue 11): nothing in the sidebar is marked Soon any more.
    assert.equal(await soon.count(), 0, 'a built part is still marked Soon');

    await atNarrowWidth(context, `${baseURL}/dashboard?teamId=${teamId}`, async (narrow) => {
      await narrow.getByRole('heading', { level: 1, name: TEAM }).waitFor();
      await screenshot(narrow, 'dashboard-home-390');
      await narrow.getByRole('button', { name: 'Open navigation' }).click();
      await narrow.getByRole('dialog', { name: 'Navigation' }).getByRole('link', { name: 'Inbox', exact: true }).waitFor();
      await narrow.screenshot({ path: `${OUTPUT_DIR}/sidebar-390.png` });
    });
  });

  await t.test('onboarding: every step can be done now, the test call included', async () => {
    await page.goto(`${baseURL}/onboarding?teamId=${teamId}`);
    await page.getByRole('heading', { level: 1, name: 'Onboarding' }).waitFor();
    await page.locator('a[href="/docs/test-your-agent-profile/test-call-the-phone-number"]').first().waitFor();
    assert.equal(await page.getByText('Available when call logs are built').count(), 0);
    assert.equal(await page.getByTestId('step-unavailable').count(), 0);
    await screenshot(page, 'onboarding');
    await atNarrowWidth(context, `${baseURL}/onboarding?teamId=${teamId}`, async (narrow) => {
      await narrow.getByRole('heading', { level: 1, name: 'Onboarding' }).waitFor();
      await screenshot(narrow, 'onboarding-390');
    });
  });

  await t.test('guides are about parts that work: none is a preview', async () => {
    await page.goto(`${baseURL}/docs/zapier`);
    await page.getByRole('heading', { level: 1, name: /Zapier/ }).waitFor();
    assert.equal(await page.getByRole('note', { name: 'Coming soon' }).count(), 0, 'the Zapier guide is still a preview');
    assert.equal(await page.getByText(/Available when .* built/).count(), 0);
    await screenshot(page, 'docs-zapier');
    await page.goto(`${baseURL}/getting-started`);
    await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();
    // Every getting-started step can be followed now that calls are built: none is a preview.
    assert.equal(await page.getByText('Calls are still being built').count(), 0);
    assert.equal(await page.getByText('Coming soon', { exact: true }).count(), 0);
    await screenshot(page, 'getting-started');
  });

  await t.test('a site admin finds the confirmation link of someone who just signed up', async () => {
    await promisify(execFile)(bettyBin, ['admin', 'grant', ADMIN.email, '--data-dir', dataDir]);

    const other = await newContext(browser);
    const sam = await other.newPage();
    sam.setDefaultTimeout(15_000);
    const samProblems = watchForProblems(sam);
    await sam.goto(`${baseURL}/sign-up`);
    await fillSignUp(sam, NEWCOMER, PASSWORD);
    await sam.waitForURL(/\/dashboard/);
    assert.deepEqual(samProblems, [], 'the newcomer page logged errors or failed requests');
    await other.close();
    const link = await waitForLink(log, NEWCOMER.email, '/confirm-email');

    await page.goto(`${baseURL}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Site admin' }).waitFor();
    const mail = page.getByRole('region', { name: 'Outgoing mail' });
    await mail.getByText("This server has no e-mail relay configured").waitFor();
    const row = mail.getByRole('row').filter({ hasText: NEWCOMER.email });
    await row.first().waitFor();
    await row.first().getByText('E-mail confirmation', { exact: true }).filter({ visible: true }).waitFor();
    await row.first().getByText('Kept', { exact: true }).filter({ visible: true }).waitFor();
    assert.equal(await row.first().getByTestId('mail-link').innerText(), link, 'the outbox shows the link the log has');
    await row.first().getByRole('button', { name: `Copy the e-mail confirmation link for ${NEWCOMER.email}` }).waitFor();
    await screenshot(page, 'admin-outgoing-mail');

    await mail.getByLabel('Recipient').fill(NEWCOMER.email);
    await mail.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/recipient=/);
    await mail.getByRole('table', { name: `Outgoing mail to ${NEWCOMER.email}` }).waitFor();
    // The filtered page replaces the whole list once it arrives: only the recipient's mail is left.
    await mail.getByRole('row').filter({ hasText: ADMIN.email }).first().waitFor({ state: 'detached' });
    await row.first().waitFor();

    await atNarrowWidth(context, `${baseURL}/admin?recipient=${encodeURIComponent(NEWCOMER.email)}#outgoing-mail`, async (narrow) => {
      await narrow.getByRole('region', { name: 'Outgoing mail' }).getByRole('row').filter({ hasText: NEWCOMER.email }).first().waitFor();
      await screenshot(narrow, 'admin-outgoing-mail-390');
    });
  });

  await t.test('forgot password says the link went to the server log, at 390 px too', async () => {
    const other = await newContext(browser, { viewport: NARROW });
    const narrow = await other.newPage();
    narrow.setDefaultTimeout(15_000);
    const narrowProblems = watchForProblems(narrow);
    await narrow.goto(`${baseURL}/forgot-password`);
    await narrow.getByText("written to the server's log").waitFor();
    await narrow.getByLabel('E-mail').fill(NEWCOMER.email);
    await narrow.getByRole('button', { name: 'Create a reset link' }).click();
    const done = narrow.getByRole('status').filter({ hasText: 'If an account uses this e-mail' });
    await done.waitFor();
    assert.doesNotMatch(await done.innerText(), SENT);
    await screenshot(narrow, 'forgot-password-done-390');
    await waitForLink(log, NEWCOMER.email, '/reset-password');
    assert.deepEqual(narrowProblems, [], 'the page logged errors or failed requests');
    await other.close();
  });

  assert.deepEqual(problems, [], 'the page logged errors or failed requests');
});
