// End-to-end: the storefront book-a-call widget, on a plain HTML page served by this test from
// another origin (as a merchant's Shopify theme would carry it) under a strict CSP, against a
// real `betty serve` with the simulated carrier. A shopper opens the widget, types a number,
// ticks consent and is told the call is coming; the call shows up in the team's call logs.
// A missing consent and a number on the do-not-call list are refused in plain words.
//
//   BETTY_BIN=../bin/betty node --test e2e/widget.test.mjs

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import AxeBuilder from '@axe-core/playwright';

import { ok, callingTeam } from './calling.mjs';
import { CHROMIUM, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Mia Merchant', email: 'mia@example.com' };
const TEAM = { name: 'Mugs and Co', company: 'Mugs and Co', industry: 'Retail', purpose: 'Calls for shoppers' };

/** Serves one storefront page with the snippet on a free port: another origin than Betty's. */
async function storefront(t, baseURL, key) {
  const betty = new URL(baseURL).origin;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mugs and Co</title>
<script src="${betty}/widget.js" data-betty-key="${key}" defer></script>
</head><body><h1>Big mug</h1><p>A very big mug.</p></body></html>`;
  const server = createServer((req, res) => {
    // A strict policy, stricter than Shopify's: scripts from the page and Betty only, no inline
    // styles or scripts, requests to Betty only.
    res.setHeader('Content-Security-Policy', `default-src 'self'; script-src 'self' ${betty}; style-src 'self'; connect-src ${betty}; img-src 'self'`);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(req.url === '/favicon.ico' ? '' : html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}/products/big-mug`;
}

test('a shopper books a call from the storefront widget', { skip, timeout: 300_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const stack = await startStack(t);
  const { baseURL, browser } = stack;
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  let setup;
  let key;
  const number = '+14155550142';
  const listed = '+14155550177';

  await t.test('the merchant attaches a workflow to the storefront', async () => {
    setup = await callingTeam(page, stack, OWNER, PASSWORD, TEAM);
    const wf = await ok(page, 'POST', '/v1/workflow/config/shopify', { workflowId: setup.workflowId, organizationId: setup.teamId });
    assert.equal(wf.shopifyEnabled, true);
    await ok(page, 'POST', '/v1/do-not-call', { organizationId: setup.teamId, phoneNumber: listed });
    const teams = await ok(page, 'GET', '/v1/team/list');
    key = teams.find((o) => o.id === setup.teamId)?.publicApiKey;
    assert.match(key ?? '', /^betty_pk_/);
  });

  const shop = await context.newPage();
  shop.setDefaultTimeout(20_000);
  const problems = watchForProblems(shop);

  await t.test('the widget on another origin books the call', async () => {
    await shop.goto(await storefront(t, baseURL, key));
    const open = shop.getByRole('button', { name: 'Request a call' });
    await open.click();
    assert.equal(await open.getAttribute('aria-expanded'), 'true');
    // Opening the form puts the cursor in the number field.
    const phone = shop.getByLabel('Your phone number');
    assert.equal(await phone.evaluate((el) => el.getRootNode().activeElement === el), true);
    await phone.fill('+1 415 555 0142');
    await shop.getByLabel('Your name (optional)').fill('Grace');

    // Without consent the widget says so and sends nothing.
    await shop.getByRole('button', { name: 'Call me' }).click();
    await shop.getByRole('status').getByText('Please tick the box to agree to the call.').waitFor();
    await screenshot(shop, 'widget-consent-missing');

    const { violations } = await new AxeBuilder({ page: shop }).include('[data-betty-widget]').withTags(['wcag2a', 'wcag2aa']).analyze();
    assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'accessibility problems in the widget');

    await shop.getByLabel(/I agree to receive a phone call/).check();
    await shop.getByRole('button', { name: 'Call me' }).click();
    await shop
      .getByRole('status')
      .getByText(`Thank you! We will call you at ${number} soon, within calling hours.`)
      .waitFor()
      .catch(async (e) => {
        throw new Error(`${e.message}\nthe widget says: ${await shop.getByRole('status').textContent()}\n${stack.log().slice(-2000)}`);
      });
    await screenshot(shop, 'widget-booked');
  });

  await t.test('the call is placed (simulator) and in the team’s call logs', async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const logs = await ok(page, 'GET', `/v1/call/logs?organizationId=${setup.teamId}`);
      const call = logs.find((l) => l.to === number);
      if (call && call.endTime) {
        assert.equal(call.workflowId, setup.workflowId);
        assert.ok(call.jobId, 'the booked call belongs to a job');
        const [job] = await ok(page, 'GET', `/v2/jobs/status?ids=${call.jobId}`);
        assert.equal(job.triggeredBy, 'Storefront widget');
        assert.equal(job.progress.total, 1);
        break;
      }
      assert.ok(Date.now() < deadline, `no finished call to ${number} in the call logs: ${JSON.stringify(logs).slice(0, 600)}`);
      await page.waitForTimeout(300);
    }
  });

  await t.test('the merchant sees the request, its consent and the call on the Shopify page', async () => {
    await page.goto(`${baseURL}/dashboard/shopify-setting-setup?teamId=${setup.teamId}`);
    const table = page.getByRole('table', { name: 'Calls shoppers asked for, newest first' });
    const row = table.getByRole('row').filter({ hasText: number });
    await row.getByText('Grace').waitFor();
    await row.getByText('/products/big-mug', { exact: false }).waitFor();
    const call = row.getByRole('link', { name: `Open the call of ${number}` });
    await call.waitFor();
    await screenshot(page, 'shopify-bookings');
    await call.click();
    await page.waitForURL(/\/dashboard\/calls\?.*callLogId=/);
  });

  await t.test('a number on the do-not-call list is refused in plain words', async () => {
    const phone = shop.getByLabel('Your phone number');
    await phone.fill(listed);
    await shop.getByLabel(/I agree to receive a phone call/).check();
    await shop.getByRole('button', { name: 'Call me' }).click();
    await shop.getByRole('status').getByText('We cannot call this number.').waitFor();
    // The number field is where to fix it.
    assert.equal(await phone.evaluate((el) => el.getRootNode().activeElement === el), true);
    await screenshot(shop, 'widget-do-not-call');
    const logs = await ok(page, 'GET', `/v1/call/logs?organizationId=${setup.teamId}`);
    assert.ok(!logs.some((l) => l.to === listed), 'a listed number was called');
  });

  await t.test('Escape closes the widget and gives the focus back to its button', async () => {
    await shop.keyboard.press('Escape');
    const open = shop.getByRole('button', { name: 'Request a call' });
    assert.equal(await open.getAttribute('aria-expanded'), 'false');
    assert.equal(await open.evaluate((el) => el.getRootNode().activeElement === el), true);
    // The 422 of the listed number is a console error of the browser's own; nothing else may be.
    const unexpected = problems.filter((p) => !p.includes('422'));
    assert.deepEqual(unexpected, [], 'the storefront page logged errors (a CSP violation would show here)');
  });
});
