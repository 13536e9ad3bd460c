// End-to-end: billing through the dashboard, against a real `betty serve` whose payments go to
// stripe-mock (Stripe's official API mock). The owner buys credits up to the redirect to Stripe's
// hosted Checkout (the navigation is intercepted and checked: Betty never shows a card field),
// comes back, and the balance rises once the signed webhook arrives, delivered as Stripe would.
// A member does not see billing. A server without Stripe says so instead of pretending.
//
//   BETTY_TEST_STRIPE_URL=http://127.0.0.1:12111 BETTY_BIN=../bin/betty node --test e2e/billing.test.mjs

import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { test } from 'node:test';

import AxeBuilder from '@axe-core/playwright';

import { CHROMIUM, NARROW, haveChromium, newContext, screenshot, skip as chromiumSkip, startStack, waitForLink, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Bea Billing', email: 'bea@example.com' };
const MEMBER = { name: 'Max Member', email: 'max@example.com' };
const TEAM = 'Bea Calls';
const WEBHOOK_SECRET = 'whsec_betty_e2e';
const STRIPE_KEY = 'sk_test_betty';
const STRIPE_URL = process.env.BETTY_TEST_STRIPE_URL ?? '';
const inCI = Boolean(process.env.CI);

if (!STRIPE_URL && !inCI) {
  console.error(
    [
      '',
      '!'.repeat(78),
      '!! SKIPPING the dashboard billing test with Stripe: BETTY_TEST_STRIPE_URL is not set.',
      '!! Start stripe-mock (make stripe-mock) and run with',
      '!!   BETTY_TEST_STRIPE_URL=http://127.0.0.1:12111',
      '!'.repeat(78),
      '',
    ].join('\n'),
  );
}
const stripeSkip = chromiumSkip || (!STRIPE_URL && !inCI ? 'BETTY_TEST_STRIPE_URL is not set (start stripe-mock: make stripe-mock)' : false);

async function call(baseURL, method, path, body, token) {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

/** The Stripe-Signature header Stripe sends: t=<unix seconds>,v1=HMAC-SHA256(secret, "t.payload"). */
function stripeSignature(payload, secret, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** Delivers `event` to the server's webhook endpoint, signed as Stripe signs it. */
async function deliver(baseURL, event) {
  const payload = JSON.stringify(event);
  const response = await fetch(`${baseURL}/v1/webhooks/stripe`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripeSignature(payload, WEBHOOK_SECRET) },
    body: payload,
  });
  return response;
}

async function signedIn(browser, session, options = {}) {
  const context = await newContext(browser, options);
  await context.addInitScript(
    ({ session, theme }) => {
      localStorage.setItem('betty.accessToken', session.accessToken);
      localStorage.setItem('betty.refreshToken', session.refreshToken);
      if (theme) localStorage.setItem('betty.theme', theme);
    },
    { session, theme: options.theme },
  );
  return context;
}

async function seriousViolations(page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('billing with Stripe: buy credits through Checkout, the webhook raises the balance; members see no billing', { skip: stripeSkip, timeout: 300_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  assert.ok(STRIPE_URL, 'BETTY_TEST_STRIPE_URL is not set: CI must run the billing test against stripe-mock');
  const { baseURL, browser, log } = await startStack(t, {
    serveArgs: ['--stripe-api-url', STRIPE_URL, '--stripe-secret-key', STRIPE_KEY, '--stripe-webhook-secret', WEBHOOK_SECRET],
  });
  const owner = await call(baseURL, 'POST', '/v1/auth/sign-up', { email: OWNER.email, password: PASSWORD, name: OWNER.name });
  const team = await call(baseURL, 'POST', '/v1/team/new', { name: TEAM, companyName: 'Bea Inc' }, owner.session.accessToken);

  const context = await signedIn(browser, owner.session);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = watchForProblems(page);
  const billing = (extra = '') => `${baseURL}/dashboard/billing?teamId=${team.id}${extra}`;
  const balance = () => page.getByTestId('credit-balance');
  let tierIntent = '';

  await t.test('the billing screen: balance, plan, and the next upgrade highlighted', async () => {
    await page.goto(`${baseURL}/dashboard?teamId=${team.id}`);
    await page.getByTestId('stat-credits').getByText('0', { exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).first().getByRole('link', { name: 'Billing', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await balance().getByText('0 credits').waitFor();
    await page.getByTestId('current-tier').getByText('Free').waitFor();
    assert.equal(await page.getByTestId('tier-tier1').getAttribute('data-highlighted'), 'true', 'free teams are shown the Starter Plan next');
    assert.equal(await page.locator('[data-highlighted]').count(), 1);
    await page.getByTestId('usage-summary').waitFor();
    await page.getByTestId('usage-chart').waitFor();
    await page.getByText('No number subscriptions').waitFor();

    await page.goto(billing('&selectedTier=tier3'));
    await page.getByTestId('tier-tier3').getByText('Selected').waitFor();
    assert.equal(await page.getByTestId('tier-tier3').getAttribute('data-highlighted'), 'true', 'selectedTier in the URL wins');
    assert.equal(await page.getByTestId('tier-tier1').getAttribute('data-highlighted'), null);
  });

  await t.test('Custom is arranged with sales: the contact, no checkout', async () => {
    await page.getByTestId('tier-tier4').getByRole('button', { name: 'Contact sales' }).click();
    await page.getByTestId('sales-contact').getByText(/arranged with our sales team: write to \S+@\S+/).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/dashboard\/billing$/);
    assert.equal(new URL(page.url()).searchParams.get('selectedTier'), 'tier4');
    // The server answers Custom with a 422 carrying the contact; Chromium logs that status.
    assert.deepEqual(problems.filter((p) => !p.includes('status of 422')), []);
    problems.length = 0;
  });

  await t.test('buying credits goes to Stripe’s hosted Checkout, never a card field of ours', async () => {
    await page.goto(billing());
    await balance().waitFor();
    assert.equal(await page.locator('input[autocomplete^="cc-"], input[name*="card" i]').count(), 0, 'a card field on our page');
    // Stripe's page is not reachable from here: the navigation to it is caught and answered.
    let stripeNavigation = '';
    await page.route(
      (url) => url.origin !== baseURL,
      async (route) => {
        if (route.request().isNavigationRequest()) stripeNavigation = route.request().url();
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe Checkout</title><h1>Stripe Checkout (stand-in)</h1>' });
      },
    );
    await page.getByRole('button', { name: '100', exact: true }).click();
    // The server's answer is read on its way to the page (the page leaves at once).
    let session;
    let request;
    await page.route('**/v1/payment/intent/credits', async (route) => {
      request = route.request();
      const response = await route.fetch();
      const text = await response.text();
      assert.ok(response.ok(), `POST /v1/payment/intent/credits: ${response.status()} ${text}`);
      session = JSON.parse(text).data;
      await route.fulfill({ response, body: text });
    });
    await page.getByRole('button', { name: /^Buy 100 credits for \$100\.00$/ }).click();
    await page.getByRole('heading', { name: 'Stripe Checkout (stand-in)' }).waitFor();
    assert.ok(session?.checkoutUrl, 'the server answered no checkout URL');
    assert.equal(stripeNavigation, session.checkoutUrl, 'the browser did not go to the checkout URL the server returned');
    assert.equal(page.url(), session.checkoutUrl);
    const sent = JSON.parse(request.postData() ?? '{}');
    assert.equal(sent.credits, 100);
    assert.equal(new URL(sent.originUrl).pathname, '/dashboard/billing');
    await page.unrouteAll();
    t.diagnostic(`checkout ${session.checkoutUrl}, intent ${session.dbPaymentIntentId}`);

    // Stripe sends the buyer back to the success URL; the balance waits for Stripe's word.
    await page.goto(billing(`&paymentStatus=success&dbPaymentIntentId=${session.dbPaymentIntentId}`));
    await page.getByTestId('payment-outcome').getByText('Stripe took your payment').waitFor();
    await balance().getByText('0 credits').waitFor();

    // Stripe's event, signed with the endpoint's secret: the server settles the intent.
    const event = {
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      api_version: '2023-10-16',
      created: Math.floor(Date.now() / 1000),
      type: 'checkout.session.completed',
      livemode: false,
      pending_webhooks: 1,
      data: {
        object: {
          id: session.id,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          amount_total: 10000,
          currency: 'usd',
          metadata: { betty_organization_id: team.id, betty_payment_intent_id: session.dbPaymentIntentId },
        },
      },
    };
    const bad = await fetch(`${baseURL}/v1/webhooks/stripe`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripeSignature(JSON.stringify(event), 'whsec_wrong') }, body: JSON.stringify(event) });
    assert.equal(bad.status, 401, 'an event signed with another secret is refused');
    const delivered = await deliver(baseURL, event);
    assert.ok(delivered.ok, `webhook: ${delivered.status} ${await delivered.text()}`);
    // The page reads the balance again by itself while it waits for Stripe's confirmation.
    await balance().getByText('100 credits').waitFor({ timeout: 20_000 });
    const again = await deliver(baseURL, event);
    assert.ok(again.ok, 'a redelivered event is acknowledged');
    const credits = await call(baseURL, 'GET', `/v1/team/subscription-credits?organizationId=${team.id}`, undefined, owner.session.accessToken);
    assert.equal(credits.balance, 100, 'a redelivered event added credits twice');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('payment-outcome').waitFor({ state: 'detached' });
    assert.deepEqual(problems, [], 'the billing page logged errors or failed requests');
  });

  await t.test('choosing a plan and managing the subscription also go to Stripe’s own pages', async () => {
    const away = [];
    await page.route(
      (url) => url.origin !== baseURL,
      (route) => {
        if (route.request().isNavigationRequest()) away.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe</title><h1>Stripe (stand-in)</h1>' });
      },
    );
    let tierBody;
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/payment/intent/tier-subscription')) tierBody = JSON.parse(r.postData() ?? '{}');
    });
    // The answer is read on its way to the page: the page leaves for Stripe right after it.
    await page.route('**/v1/payment/intent/tier-subscription', async (route) => {
      const response = await route.fetch();
      tierIntent = (await response.json()).data?.dbPaymentIntentId ?? '';
      await route.fulfill({ response });
    });
    await page.goto(billing());
    await page.getByTestId('tier-tier1').getByRole('button', { name: 'Choose Starter Plan' }).click();
    await page.getByRole('heading', { name: 'Stripe (stand-in)' }).waitFor();
    assert.deepEqual({ tier: tierBody?.targetTierType, interval: tierBody?.intervalType }, { tier: 'tier1', interval: 'monthly' });
    assert.match(away.at(-1) ?? '', /^https:\/\//, 'the plan checkout did not leave for Stripe');

    await page.goto(billing());
    await page.getByRole('button', { name: 'Manage subscription' }).click();
    await page.getByRole('heading', { name: 'Stripe (stand-in)' }).waitFor();
    assert.equal(away.length, 2, `the portal did not open: ${away.join(', ')}`);
    await page.unrouteAll();
    await page.goto(billing());
    await balance().getByText('100 credits').waitFor();
  });

  await t.test('a failed renewal (Stripe’s invoice.payment_failed) raises the past-due banners; the paid retry clears them', async () => {
    assert.ok(tierIntent, 'the plan checkout gave no payment intent');
    const metadata = { betty_organization_id: team.id, betty_payment_intent_id: tierIntent, betty_kind: 'tier-subscription', betty_tier: 'tier1' };
    const now = Math.floor(Date.now() / 1000);
    const firstEnd = now + 30 * 86400;
    const secondEnd = firstEnd + 30 * 86400;
    const invoiceEvent = (type, id, end) => ({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      api_version: '2023-10-16',
      created: now,
      type,
      livemode: false,
      pending_webhooks: 1,
      data: {
        object: {
          id,
          object: 'invoice',
          subscription: 'sub_e2e_plan',
          subscription_details: { metadata },
          lines: { object: 'list', data: [{ id: `il_${id}`, object: 'line_item', period: { start: now, end } }] },
        },
      },
    });
    for (const event of [invoiceEvent('invoice.paid', 'in_e2e_1', firstEnd), invoiceEvent('invoice.payment_failed', 'in_e2e_2', secondEnd)]) {
      const res = await deliver(baseURL, event);
      assert.ok(res.ok, `${event.type}: ${res.status} ${await res.text()}`);
    }
    await page.goto(billing());
    await page.getByTestId('billing-past-due').getByText(/The last payment of your plan failed/).waitFor();
    await page.getByTestId('past-due-banner').waitFor();
    await page.getByTestId('current-tier').getByText('Starter Plan').waitFor();
    await screenshot(page, 'billing-past-due');

    const retried = await deliver(baseURL, invoiceEvent('invoice.paid', 'in_e2e_2', secondEnd));
    assert.ok(retried.ok, `retry: ${retried.status}`);
    await page.goto(billing());
    await page.getByTestId('current-tier').getByText('Starter Plan').waitFor();
    assert.equal(await page.getByTestId('billing-past-due').count(), 0, 'the past-due notice stayed after the retry was paid');
    assert.equal(await page.getByTestId('past-due-banner').count(), 0, 'the shell banner stayed after the retry was paid');
  });

  await t.test('the billing address is saved', async () => {
    await page.getByLabel('Street and number').fill('1 Market Street');
    await page.getByLabel('City').fill('San Francisco');
    await page.getByLabel('State or region').fill('CA');
    await page.getByLabel('Postal code').fill('94105');
    await page.getByLabel('Country').fill('us');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByTestId('toast').filter({ hasText: 'The billing address was saved' }).waitFor();
    const saved = await call(baseURL, 'GET', `/v1/team/subscription-credits/billing-address?organizationId=${team.id}`, undefined, owner.session.accessToken);
    assert.equal(saved.billingAddress.country, 'US');
    assert.equal(saved.billingAddress.city, 'San Francisco');
  });

  await t.test('light and dark, 1280 and 390 px: screenshots and axe', async () => {
    for (const theme of ['light', 'dark']) {
      for (const viewport of [{ width: 1280, height: 900 }, NARROW]) {
        const themed = await signedIn(browser, owner.session, { theme, viewport });
        const p = await themed.newPage();
        p.setDefaultTimeout(15_000);
        await p.goto(billing('&selectedTier=tier2'));
        await p.getByTestId('credit-balance').getByText('100 credits').waitFor();
        await p.getByTestId('usage-summary').waitFor();
        await p.getByTestId('skeleton').first().waitFor({ state: 'detached' });
        await p.evaluate(() => document.fonts.ready);
        await screenshot(p, `billing-paid-${theme}-${viewport.width}`);
        assert.deepEqual(await seriousViolations(p), [], `billing ${theme} ${viewport.width}: axe`);
        await themed.close();
      }
    }
  });

  await t.test('a member sees no Billing link and an honest refusal on the screen', async () => {
    await call(baseURL, 'POST', '/v1/team/invite', { organizationId: team.id, email: MEMBER.email, role: 'member' }, owner.session.accessToken);
    const link = new URL(await waitForLink(log, MEMBER.email, '/invite'));
    const token = link.searchParams.get('inviteToken') ?? link.searchParams.get('t');
    const member = await call(baseURL, 'POST', '/v1/auth/sign-up', { email: MEMBER.email, password: PASSWORD, name: MEMBER.name });
    await call(baseURL, 'POST', '/v1/team/accept-invite', { token }, member.session.accessToken);

    const memberContext = await signedIn(browser, member.session);
    const mp = await memberContext.newPage();
    mp.setDefaultTimeout(15_000);
    const memberProblems = watchForProblems(mp);
    await mp.goto(`${baseURL}/dashboard?teamId=${team.id}`);
    await mp.getByRole('heading', { level: 1, name: TEAM }).waitFor();
    const nav = mp.getByRole('navigation', { name: 'Dashboard' }).first();
    await nav.getByRole('link', { name: 'Members', exact: true }).waitFor();
    assert.equal(await nav.getByText('Billing', { exact: true }).count(), 0, 'a member is shown the Billing link');
    assert.equal(await mp.getByTestId('stat-credits').count(), 0, 'a member is shown the credit balance');
    await mp.goto(billing());
    await mp.getByText('Billing is shown to developers, admins and the owner of the team.').waitFor();
    assert.equal(await mp.getByTestId('credit-balance').count(), 0);
    await screenshot(mp, 'billing-member-refused');
    assert.deepEqual(memberProblems, [], 'the member pages logged errors or failed requests');
    await memberContext.close();
  });
});

test('billing without Stripe: the screen says payments are not set up, and pretends nothing', { skip: chromiumSkip, timeout: 180_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser } = await startStack(t);
  const owner = await call(baseURL, 'POST', '/v1/auth/sign-up', { email: OWNER.email, password: PASSWORD, name: OWNER.name });
  const team = await call(baseURL, 'POST', '/v1/team/new', { name: TEAM }, owner.session.accessToken);
  const context = await signedIn(browser, owner.session);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  let leftUs = '';
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && new URL(frame.url()).origin !== baseURL) leftUs = frame.url();
  });

  await page.goto(`${baseURL}/dashboard/billing?teamId=${team.id}`);
  await page.getByTestId('credit-balance').getByText('0 credits').waitFor();
  // The server's catalogue says it takes no payments: the screen says so before anyone tries.
  const notice = page.getByTestId('payments-not-configured');
  await notice.getByText('Payments are not set up on this server.').waitFor();
  await notice.getByText(/--stripe-secret-key/).first().waitFor();
  await notice.getByText(/a site admin can grant credits/i).first().waitFor();
  await notice.getByText('betty admin credits grant').waitFor();
  assert.ok(await page.getByRole('button', { name: /^Buy 50 credits/ }).isDisabled(), 'Buy is offered without a payment provider');
  assert.ok(await page.getByTestId('tier-tier1').getByRole('button', { name: 'Choose Starter Plan' }).isDisabled(), 'a plan is offered without a payment provider');
  assert.equal(leftUs, '', 'the page went to a checkout without a payment provider');
  await page.getByTestId('credit-balance').getByText('0 credits').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'billing-not-configured');
});
