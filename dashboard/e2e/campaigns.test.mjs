// End-to-end: campaigns, agents, voices and phone numbers through the dashboard, against a real
// `betty serve` (espeak-ng speaks offline; numbers come from the offline telephony simulator).
// One server and one browser for the whole story, to keep `make test` short.
//
//   BETTY_BIN=../bin/betty node --test e2e/campaigns.test.mjs

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import AxeBuilder from '@axe-core/playwright';

import { CHROMIUM, NARROW, haveChromium, newContext, pageApi, screenshot, signUpWithTeam, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Cora Campaigner', email: 'cora@example.com' };
const TEAM = 'Northwind Calls';
const CAMPAIGN = 'Spring renewals';
const AGENT = 'Ava';
const GREETING = 'Hello, this is Ava from Northwind. How can I help you today?';

test('campaigns, agents, voices and phone numbers', { skip, timeout: 240_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser, dataDir, log } = await startStack(t);
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = watchForProblems(page);
  let teamId = '';
  const at = (path) => `${baseURL}${path}${path.includes('?') ? '&' : '?'}teamId=${teamId}`;
  /** Waits for the toast that says `text`. */
  const toastSays = (text) => page.getByTestId('toast').filter({ hasText: text }).waitFor();
  /** Calls the API as the signed-in user, from the page. */
  const api = (method, path, body) => pageApi(page, method, path, body);

  await t.test('sign up and create a team', async () => {
    teamId = await signUpWithTeam(page, baseURL, OWNER, PASSWORD, { name: TEAM, company: 'Northwind', industry: 'Utilities', purpose: 'Renewal reminders' });
    assert.ok(teamId);
  });

  let campaignPath = '';
  let agentQuery = '';
  await t.test('create a campaign from the empty list', async () => {
    await page.goto(at('/dashboard/campaigns'));
    await page.getByText('No campaigns yet').waitFor();
    await screenshot(page, 'campaigns-empty');
    await page.getByRole('button', { name: 'New campaign' }).click();
    await page.getByRole('heading', { level: 1, name: 'New campaign' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(CAMPAIGN);
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { level: 1, name: CAMPAIGN }).waitFor();
    assert.match(page.url(), /\/dashboard\/campaigns\/[^/]+\/agent-profile/);
    await page.getByText('No agent in this campaign yet').waitFor();
    campaignPath = new URL(page.url()).pathname;
  });

  await t.test('add an agent, set its FAQ in order and hear its greeting', async () => {
    await page.getByRole('button', { name: 'Create agent' }).click();
    assert.match(page.url(), /createAgent=true/);
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    await page.getByLabel('Agent name').fill(AGENT);
    await page.getByLabel('Greeting').fill(GREETING);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/agentId=/);
    agentQuery = `agentId=${new URL(page.url()).searchParams.get('agentId')}`;
    await page.getByRole('heading', { name: 'FAQ' }).waitFor();

    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByLabel('Question 1', { exact: true }).fill('When are you open?');
    await page.getByLabel('Answer 1', { exact: true }).fill('Nine to five, Monday to Friday.');
    await page.getByLabel('Question 2', { exact: true }).fill('Can I renew by phone?');
    await page.getByLabel('Answer 2', { exact: true }).fill('Yes, right now.');
    await page.getByRole('button', { name: 'Move question 2 up' }).click();
    await page.getByRole('button', { name: 'Save FAQ' }).click();
    await toastSays('The FAQ was saved.');
    await page.reload();
    await page.getByLabel('Question 1', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Question 1', { exact: true }).inputValue(), 'Can I renew by phone?');
    assert.equal(await page.getByLabel('Question 2', { exact: true }).inputValue(), 'When are you open?');

    await page.getByRole('button', { name: 'Play greeting' }).click();
    const audio = page.getByTestId('greeting-audio');
    await audio.waitFor();
    const played = await audio.evaluate(
      (el) =>
        new Promise((resolve) => {
          const report = () => resolve({ src: el.src, duration: el.duration });
          if (el.readyState >= 1) report();
          else el.addEventListener('loadedmetadata', report, { once: true });
          setTimeout(report, 10_000);
        }),
    );
    assert.match(played.src, /^blob:/);
    assert.ok(played.duration > 0, `the greeting plays for ${played.duration} s`);
    await screenshot(page, 'agent-editor');
  });

  let mp3 = '';
  await t.test('teaching audio uploads over tus and is transcribed offline (PocketSphinx) and summarised', async () => {
    const presets = await api('GET', '/v1/voice/presets/list?sizePerPage=1');
    const sample = await fetch(presets.body.data[0].previewUrl);
    assert.equal(sample.headers.get('content-type'), 'audio/mpeg');
    mp3 = path.join(dataDir, 'good-call.mp3');
    await writeFile(mp3, Buffer.from(await sample.arrayBuffer()));
    await page.getByLabel('Choose a teaching audio file').setInputFiles(mp3);
    // This test server runs without --stt-url: PocketSphinx transcribes on the server itself.
    await toastSays('good-call.mp3 was added; its summary is being made.');
    const row = page.getByRole('listitem').filter({ hasText: 'good-call.mp3' });
    await row.getByText('Summarised').waitFor({ timeout: 90_000 });
  });

  let boughtNumber = '';
  await t.test('buy a simulator number and pair it with the agent', async () => {
    await page.goto(at('/dashboard/phone-numbers'));
    await page.getByText('No numbers yet').waitFor();
    await page.getByRole('search', { name: 'Search numbers on sale' }).getByRole('button', { name: 'Search' }).click();
    const buy = page.getByRole('button', { name: /^Buy \+/ }).first();
    await buy.waitFor();
    boughtNumber = ((await buy.getAttribute('aria-label')) ?? '').replace('Buy ', '');
    await buy.click();
    await toastSays(`${boughtNumber} is now one of your numbers.`);
    const numbers = page.getByRole('table', { name: `Phone numbers of ${TEAM}` });
    await numbers.getByText(boughtNumber).waitFor();
    await numbers.getByRole('combobox', { name: `Agent that answers ${boughtNumber}` }).click();
    await page.getByRole('option', { name: AGENT }).click();
    await toastSays(`${boughtNumber} is now answered by ${AGENT}.`);
    // The pairing made the inbound workflow the calls follow, and the page links to it.
    const made = page.getByRole('status').filter({ hasText: `Calls to ${boughtNumber} reach ${AGENT}` });
    await made.getByRole('link', { name: 'Open the workflow' }).waitFor();
    assert.match((await made.getByRole('link', { name: 'Open the workflow' }).getAttribute('href')) ?? '', /workflow-canvas\?workflowId=/);
    await screenshot(page, 'phone-numbers');
  });

  await t.test('verify a number the team owns with the code from the server log', async () => {
    const own = '+442079460123';
    await page.getByLabel('Your number', { exact: true }).fill(own);
    await page.getByRole('button', { name: 'Send code' }).click();
    await toastSays(`The code for ${own} is in the server’s log.`);
    const match = [...log().matchAll(new RegExp(`phone_number=\\${own} code=([0-9]{6})`, 'g'))].at(-1);
    assert.ok(match, `no verification code for ${own} in the server log`);
    await page.getByLabel(`Code for ${own}`).fill(match[1]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await toastSays(`${own} is verified and is now one of your numbers.`);
    const numbers = page.getByRole('table', { name: `Phone numbers of ${TEAM}` });
    await numbers.getByText(own).waitFor();

    // Release it again, after a confirmation.
    await page.getByRole('button', { name: `Release ${own}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Release number' }).click();
    await toastSays(`${own} was released.`);
    await numbers.getByText(own).waitFor({ state: 'detached' });
  });

  await t.test('assign the number to the campaign', async () => {
    await page.goto(at('/dashboard/campaigns'));
    await page.getByRole('link', { name: CAMPAIGN }).click();
    await page.getByRole('tab', { name: 'Phone Numbers' }).click();
    await page.waitForURL(/\/phone-numbers/);
    await page.getByRole('combobox', { name: 'Number' }).click();
    await page.getByRole('option', { name: boughtNumber }).click();
    await page.getByRole('button', { name: 'Assign number' }).click();
    await toastSays(`${boughtNumber} is now this campaign’s number.`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Retries per contact').fill('3');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toastSays('The settings were saved.');
    await screenshot(page, 'campaign-settings');
  });

  await t.test('duplicating the last campaign of a full page moves forward; deleting the last of a page moves back', async () => {
    for (const name of ['Winter check-ins', 'Feedback calls', 'Order updates', 'Late payers']) {
      const created = await api('POST', '/v1/campaigns/create', { organizationId: teamId, name });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    await page.goto(at('/dashboard/campaigns'));
    const table = page.getByRole('table', { name: `Campaigns of ${TEAM}` });
    await table.getByRole('link', { name: CAMPAIGN }).waitFor();
    assert.equal(await table.getByRole('row').count(), 6, 'a full page of 5 and the header row');
    await screenshot(page, 'campaigns-list');
    // Newest first: the first campaign is the last row of page 1.
    await page.getByRole('button', { name: `Actions for ${CAMPAIGN}` }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    await toastSays(`"Copy of ${CAMPAIGN}" was created as a draft.`);
    await page.waitForURL(/[?&]page=2/);
    await table.getByRole('link', { name: CAMPAIGN, exact: true }).waitFor();
    assert.equal(await table.getByRole('row').count(), 2, 'page 2 holds the original alone');

    await page.getByRole('button', { name: `Actions for ${CAMPAIGN}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete campaign' }).click();
    await toastSays(`The campaign "${CAMPAIGN}" was deleted.`);
    await page.waitForURL((url) => !url.searchParams.has('page'));
    await table.getByRole('link', { name: `Copy of ${CAMPAIGN}` }).waitFor();

    // The filters live in the URL.
    await page.getByLabel('Filter by name').fill('copy');
    await page.waitForURL(/[?&]name=copy/);
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
  });

  await t.test('voices: presets with samples to play', async () => {
    await page.goto(at('/dashboard/voices'));
    const presets = page.getByRole('list', { name: 'Preset voices' });
    await presets.getByRole('listitem').first().waitFor();
    assert.ok((await presets.getByRole('listitem').count()) <= 9);
    await page.getByRole('button', { name: /^Play the sample of / }).first().click();
    await page.getByRole('button', { name: /^Stop the sample of / }).first().waitFor();
    await screenshot(page, 'voices');
  });

  await t.test('custom voices: create one from a sample, and the plan limit is said as the server says it', async () => {
    const create = async (name) => {
      await page.getByRole('button', { name: 'Create voice' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Voice name').fill(name);
      await dialog.getByLabel('Recordings').setInputFiles(mp3);
      await dialog.getByRole('button', { name: 'Create voice' }).click();
      return dialog;
    };
    const made = await create('Warm Ava');
    // The dialog stays open to say which preset speaks the voice (nothing clones it locally).
    await made.getByRole('heading', { name: 'The voice "Warm Ava" was created' }).waitFor();
    await made.getByRole('status').filter({ hasText: 'Without a voice-cloning engine, Betty speaks this voice with the preset' }).waitFor();
    await made.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: `Custom voices of ${TEAM}` }).getByText('Warm Ava').waitFor();
    const dialog = await create('Second voice');
    await dialog.getByRole('alert').filter({ hasText: 'Your plan (Free) allows 1' }).waitFor();
    await screenshot(page, 'voices-limit');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  await t.test('no serious accessibility violations (axe, WCAG 2 A and AA), light and dark', async () => {
    const found = [];
    // The first campaign was deleted above; its copy has the same tabs.
    const copy = (await api('GET', `/v1/campaigns/list?organizationId=${teamId}&name=Copy`)).body.data[0];
    for (const colorScheme of ['light', 'dark']) {
      // The theme follows the system until the person picks one.
      await page.emulateMedia({ colorScheme });
      for (const path of ['/dashboard/campaigns', `/dashboard/campaigns/${copy.id}/settings`, `/dashboard/agents?${agentQuery}`, '/dashboard/phone-numbers', '/dashboard/voices']) {
        await page.goto(at(path));
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForFunction(() => !document.querySelector('[data-testid="skeleton"]'));
        assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), colorScheme === 'dark');
        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
        for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
          found.push(`${colorScheme} ${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
        }
      }
      if (colorScheme === 'dark') await screenshot(page, 'voices-dark');
    }
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(found, []);
  });

  await t.test('every screen at 390 px', async () => {
    await page.setViewportSize(NARROW);
    for (const [name, path] of [
      ['campaigns-390', '/dashboard/campaigns'],
      ['phone-numbers-390', '/dashboard/phone-numbers'],
      ['voices-390', '/dashboard/voices'],
      ['agents-390', '/dashboard/agents'],
      ['agent-editor-390', `/dashboard/agents?${agentQuery}`],
    ]) {
      await page.goto(at(path));
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(() => !document.querySelector('[data-testid="skeleton"]'));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow} px at 390 px`);
      await screenshot(page, name);
    }
    // The campaign was deleted above; its copy keeps the agent copy and the tabs.
    await page.goto(at('/dashboard/campaigns'));
    await page.getByRole('link', { name: `Copy of ${CAMPAIGN}` }).click();
    await page.getByRole('tab', { name: 'Agent Profile' }).waitFor();
    await page.getByRole('table', { name: `Agents of Copy of ${CAMPAIGN}` }).waitFor();
    await screenshot(page, 'campaign-390');
    assert.ok(campaignPath);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  // Chromium logs every non-2xx answer; this is the refusal the steps above provoke on purpose
  // (a second custom voice on the free plan).
  assert.deepEqual(
    problems,
    [
      'console error: Failed to load resource: the server responded with a status of 403 (Forbidden)',
    ],
    'the page logged errors or failed requests',
  );
});
