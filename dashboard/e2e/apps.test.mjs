// End-to-end: integrations, against a real `betty serve` pointed at the fake HubSpot process
// (server/internal/cmd/fakehubspot, the vendor's OAuth and CRM v3 wire format). The owner
// connects HubSpot through the fake's authorisation page, picks a HubSpot contact in the
// Contacts node of a workflow by searching, runs the workflow with the simulated carrier, and
// finds the call in Call logs. Then the Zapier and Shopify pages, light and dark.
//
//   make build && go build -o bin/fakehubspot ./server/internal/cmd/fakehubspot
//   BETTY_BIN=../bin/betty node --test e2e/apps.test.mjs

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { callingTeam, ok } from './calling.mjs';
import { CHROMIUM, DASHBOARD_DIR, NARROW, bettyBin, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Hana Hub', email: 'hana@example.com' };
const TEAM = { name: 'Contoso CRM', company: 'Contoso', industry: 'Retail', purpose: 'Renewal calls' };

/** The fake HubSpot: a binary beside betty's (built from the hubspot branch's command), or `go run`. */
async function startFakeHubspot(t) {
  const bin = process.env.FAKEHUBSPOT_BIN ?? path.join(path.dirname(bettyBin), 'fakehubspot');
  // Its own process group, stopped whole: `go run` leaves the built program running (holding
  // the pipes, so this file never ends) when only `go` is signalled.
  const opts = { stdio: ['ignore', 'pipe', 'pipe'], detached: true };
  const child = existsSync(bin)
    ? spawn(bin, ['--contacts', '5'], opts)
    : spawn('go', ['run', './server/internal/cmd/fakehubspot', '--contacts', '5'], { ...opts, cwd: path.resolve(DASHBOARD_DIR, '..') });
  t.after(() => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
  });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`fakehubspot did not start: ${err}`)), 120_000);
    timer.unref();
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.once('exit', (code) => reject(new Error(`fakehubspot exited (${code}): ${err}`)));
  });
}

test('connect HubSpot, call a HubSpot contact, and the Zapier and Shopify pages', { skip, timeout: 600_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const fake = await startFakeHubspot(t);
  const stack = await startStack(t, {
    serveArgs: ['--dialer-cps-per-number', '50', '--hubspot-client-id', fake.clientId, '--hubspot-client-secret', fake.clientSecret, '--hubspot-api-url', fake.url, '--hubspot-auth-url', `${fake.url}/oauth/authorize`],
  });
  const { baseURL, browser } = stack;
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = watchForProblems(page);
  const refused = [];
  page.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
  // The fake HubSpot's page has no icon; Chromium asking for one is not the dashboard's failure.
  await page.route(`${fake.url}/favicon.ico`, (r) => r.fulfill({ status: 204 }));
  let setup;
  const at = (p) => `${baseURL}${p}${p.includes('?') ? '&' : '?'}teamId=${setup.teamId}`;

  await t.test('a team ready to call', async () => {
    setup = await callingTeam(page, stack, OWNER, PASSWORD, TEAM);
  });

  let appId = '';
  await t.test('Connect HubSpot goes through HubSpot’s authorisation page and comes back connected', async () => {
    await page.goto(at('/dashboard/connected-apps'));
    await page.getByText('No app is connected').waitFor();
    await screenshot(page, 'apps-empty');
    await page.getByRole('button', { name: 'Connect HubSpot' }).click();
    await page.waitForURL((u) => u.href.startsWith(fake.url));
    await screenshot(page, 'apps-hubspot-authorise');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/connected-apps');
    await page.getByRole('status', { name: 'HubSpot connected' }).waitFor();
    const row = page.getByRole('listitem', { name: `HubSpot ${fake.domain}` });
    await row.getByText('Connected', { exact: true }).waitFor();
    assert.ok(!new URL(page.url()).searchParams.has('result'), 'the outcome stays in the address');
    await screenshot(page, 'apps-connected');
    const apps = await ok(page, 'GET', `/v1/apps/connected?organizationId=${setup.teamId}`);
    assert.equal(apps.length, 1);
    appId = apps[0].id;
  });

  let picked;
  await t.test('the Contacts node takes HubSpot as its source and a search picks a contact', async () => {
    const all = await ok(page, 'GET', `/v1/apps/hubspot/contacts?organizationId=${setup.teamId}&connectedAppId=${appId}`);
    picked = all[0];
    assert.ok(picked?.email, JSON.stringify(all).slice(0, 300));
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${setup.workflowId}`));
    await page.getByTestId('workflow-canvas').waitFor();
    const contacts = page.locator('[data-kind="contacts"]');
    // Fitted on screen the cards are drawn far (title only); a click zooms onto one.
    if (!(await contacts.getByRole('button', { name: 'Add Contact' }).isVisible())) await contacts.click();
    await contacts.getByRole('button', { name: 'Add Contact' }).click();
    const panel = page.getByRole('complementary', { name: 'Edit Contacts' });
    await panel.getByRole('combobox', { name: 'Contact source' }).click();
    await page.getByRole('option', { name: 'HubSpot' }).click();
    await panel.getByRole('button', { name: 'Call contacts from this portal' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Contact source set' }).waitFor();
    await panel.getByLabel('Search HubSpot').fill(picked.email);
    await panel.getByRole('list', { name: 'HubSpot matches' }).getByText(picked.phone).waitFor();
    await panel.getByRole('button', { name: 'Add this contact' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Contacts picked' }).waitFor();
    await contacts.getByTestId('hubspot-contacts').getByText(picked.phone).waitFor({ timeout: 30_000 });
    await contacts.getByRole('columnheader', { name: 'Lead/Life Cycle Stage' }).waitFor();
    await screenshot(page, 'apps-contacts-node-hubspot');
    const panelClose = panel.getByRole('button', { name: 'Apply' });
    if (await panelClose.isVisible()) await panelClose.click();
  });

  await t.test('a zap subscribes to runs finishing (with an API key), at an address that never answers', async () => {
    const key = await ok(page, 'POST', '/v1/team/api-keys', { organizationId: setup.teamId, name: 'Zapier', role: 'developer' });
    // 4000::/3 is global unicast space IANA has not allocated: public to the address guard (which
    // refuses documentation ranges), and nothing answers there, whatever the machine's network.
    const res = await page.request.post(`${baseURL}/v1/apps/zapier/hooks`, { headers: { 'X-API-Key': key.key }, data: { hookUrl: 'https://[4000::7]/hooks/betty', event: 'job.finished' } });
    assert.equal(res.status(), 201, await res.text());
  });

  await t.test('a run calls the HubSpot contact with the simulated carrier, and the call is in Call logs', async () => {
    await page.reload();
    await page.getByTestId('workflow-canvas').waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Run Renewal calls?' });
    await dialog.getByText('Every contact HubSpot provides that was not called yet.').waitFor();
    await screenshot(page, 'apps-run-confirm');
    await dialog.getByRole('button', { name: 'Start the run' }).click();
    const runs = page.getByRole('complementary', { name: 'Runs' });
    await runs.locator('[data-testid="job-panel"][data-status="success"]').waitFor({ timeout: 240_000 });
    const calls = await ok(page, 'GET', `/v1/call/logs?organizationId=${setup.teamId}&sizePerPage=100`);
    const call = calls.find((c) => c.to === picked.phone);
    assert.ok(call, `no call to ${picked.phone} among ${JSON.stringify(calls.map((c) => c.to))}`);
    await page.goto(at(`/dashboard/calls?callLogId=${call.id}`));
    await page.getByTestId('call-detail').waitFor();
    await screenshot(page, 'apps-hubspot-call');
  });

  await t.test('the Contacts node calls a HubSpot list instead: its members, read in the background', async () => {
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${setup.workflowId}`));
    await page.getByTestId('workflow-canvas').waitFor();
    const contacts = page.locator('[data-kind="contacts"]');
    const actions = contacts.getByRole('button', { name: /^Actions for/ });
    // Fitted on screen the cards are drawn far (title only); a click zooms onto one.
    if (!(await actions.isVisible())) await contacts.click();
    // The minimap may lie over the card's corner: the menu opens from the keyboard.
    await actions.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const panel = page.getByRole('complementary', { name: 'Edit Contacts' });
    await panel.getByLabel('HubSpot list (optional)').fill(fake.listId);
    await panel.getByRole('button', { name: 'Call this list' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Contact source set' }).waitFor();
    await panel.getByText(`This node calls the members of HubSpot list ${fake.listId}`).waitFor();
    await panel.getByLabel('Search HubSpot').waitFor({ state: 'detached' });
    const table = contacts.getByTestId('hubspot-contacts');
    await table.getByText(`HubSpot list ${fake.listId}`).waitFor();
    // The fake's list holds every other of its 5 contacts.
    await table.locator('tbody tr').nth(2).waitFor({ timeout: 30_000 });
    assert.equal(await table.locator('tbody tr').count(), 3);
    await screenshot(page, 'apps-contacts-node-hubspot-list');
  });

  await t.test('the Zapier page says the trigger’s last event could not be delivered, and why', async () => {
    await page.goto(at('/dashboard/zapier'));
    const row = page.getByRole('row').filter({ hasText: 'A workflow run finished' });
    // The first try waits out the delivery timeout (10 s); the page shows it on its next read.
    for (let i = 0; i < 12 && !(await row.getByText('Retrying').isVisible()); i++) {
      await page.waitForTimeout(2_500);
      await page.reload();
    }
    await row.getByText('Retrying').waitFor();
    // Timed out, or refused at once where the machine has no route out.
    await row.getByText(/^the hook (did not answer within 10 seconds|could not be reached)$/).waitFor();
    await screenshot(page, 'apps-zapier-hook-retrying');
  });

  await t.test('the Zapier, Shopify and connected apps pages, light and dark, wide and narrow', async () => {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, p, heading] of [
        ['zapier', '/dashboard/zapier', 'Zapier'],
        ['shopify', '/dashboard/shopify-setting-setup', 'Shopify setup'],
        ['connected-apps', '/dashboard/connected-apps', 'Connected apps'],
      ]) {
        for (const [size, viewport] of [
          ['', { width: 1280, height: 900 }],
          ['-390', NARROW],
        ]) {
          await page.setViewportSize(viewport);
          await page.goto(at(p));
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          // Without Zapier credentials the server refuses the templates (after the client's retries); the card says so.
          if (name === 'zapier') await page.getByText(/Zaps that use an API key work all the same/).waitFor({ timeout: 30_000 });
          await page.waitForTimeout(400);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(overflow <= 1, `${name}${size} scrolls sideways by ${overflow}px`);
          await screenshot(page, `apps-${name}${size}-${scheme}`);
        }
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    const snippet = await page.goto(at('/dashboard/shopify-setting-setup')).then(() => page.getByTestId('widget-snippet').textContent());
    assert.match(snippet ?? '', new RegExp(`^<script src="${baseURL}/widget.js" data-betty-key="betty_pk_[^"]+" defer></script>$`));
  });

  // A server without Zapier credentials refuses the templates (the page says so in words); nothing else fails.
  const unexpected = refused.filter((r) => !/^50[13] GET \/v1\/apps\/zapier\/templates$/.test(r));
  assert.deepEqual(unexpected, [], 'requests the server refused');
  assert.deepEqual(
    problems.filter((p) => !/Failed to load resource: the server responded with a status of 50[13]/.test(p)),
    [],
    'the page logged errors or failed requests',
  );
});
