// End-to-end: knowledge bases through the dashboard, against a real `betty serve`. A PDF (the
// phrase searched for is on page 2) and a DOCX are written by the test, dropped and chosen,
// uploaded over tus, parsed by the server, searched; a FAQ is added and edited; the knowledge
// base is activated on a campaign and searched as its agents would; a file is deleted.
//
//   BETTY_BIN=../bin/betty node --test e2e/knowledge.test.mjs

import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import AxeBuilder from '@axe-core/playwright';

import { docx, pdf } from './documents.mjs';
import { CHROMIUM, NARROW, haveChromium, newContext, screenshot, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Kim Knowledge', email: 'kim@example.com' };
const TEAM = 'Kim Support';
const CAMPAIGN = 'Warranty line';
const KB = 'Product manual';
const PHRASE = 'marmalade turbines';

const MANUAL = pdf([
  { heading: 'Delivery', lines: ['We deliver parcels on Saturdays between nine and one.', 'Orders above fifty euros ship free inside the union.'] },
  { heading: 'Warranty', lines: ['Our marmalade turbines carry an eleven year warranty on every blade.', 'Claims need the original receipt and the serial number.'] },
  { heading: 'Returns', lines: ['Any product may be returned within thirty days for a full refund.'] },
]);
// Claims to be a PDF and is not one: the upload takes it (the bytes start like a PDF), parsing fails.
const BROKEN = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nthis is not a pdf at all\n%%EOF\n', 'latin1');
const POLICY = docx([
  { text: 'Support hours', heading: true },
  { text: 'Our support team answers the phone on working days from nine to five.' },
  { text: 'Holidays', heading: true, pageBreak: true },
  { text: 'On public holidays the hotline is closed.' },
]);

async function get(baseURL, path, token) {
  const response = await fetch(`${baseURL}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  assert.ok(response.ok, `GET ${path}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

async function api(baseURL, path, body, token) {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

test('knowledge bases: upload, parse, search, FAQs, activation', { skip, timeout: 300_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser, dataDir } = await startStack(t);
  const signUp = await api(baseURL, '/v1/auth/sign-up', { email: OWNER.email, password: PASSWORD, name: OWNER.name });
  const token = signUp.session.accessToken;
  const team = await api(baseURL, '/v1/team/new', { name: TEAM, companyName: 'Kim Inc' }, token);
  const campaign = await api(baseURL, '/v1/campaigns/create', { organizationId: team.id, name: CAMPAIGN }, token);

  const context = await newContext(browser);
  await context.addInitScript((session) => {
    localStorage.setItem('betty.accessToken', session.accessToken);
    localStorage.setItem('betty.refreshToken', session.refreshToken);
  }, signUp.session);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = watchForProblems(page);
  const at = (path) => `${baseURL}${path}${path.includes('?') ? '&' : '?'}teamId=${team.id}`;
  const toastSays = (text) => page.getByTestId('toast').filter({ hasText: text }).waitFor();
  const files = () => page.getByRole('table', { name: `Files and FAQs of ${KB}` });
  /** The row of `name` once it says `status` (the badge, as shown at this width). */
  const rowSays = (name, status) => files().getByRole('row').filter({ hasText: name }).getByText(status, { exact: true }).filter({ visible: true }).waitFor({ timeout: 30_000 });

  await t.test('create a knowledge base from the empty page', async () => {
    await page.goto(at('/dashboard/knowledge-base'));
    await page.getByRole('heading', { level: 1, name: 'Knowledge bases' }).waitFor();
    await page.getByText('No knowledge bases yet').waitFor();
    await screenshot(page, 'knowledge-empty');
    await page.getByRole('button', { name: 'New knowledge base' }).click();
    const dialog = page.getByRole('dialog', { name: 'New knowledge base' });
    await dialog.getByLabel('Name').fill(KB);
    await dialog.getByRole('button', { name: 'Create knowledge base' }).click();
    await toastSays(`The knowledge base "${KB}" was created.`);
    await page.waitForURL(/knowledgeBaseId=/);
    await page.getByRole('heading', { level: 2, name: KB }).waitFor();
    await page.getByText('No files or FAQs yet').waitFor();
  });

  await t.test('drop a PDF and choose a DOCX: both upload over tus and parse to Ready', async () => {
    // Drag and drop: a real DataTransfer holding the PDF, dropped on the zone.
    const transfer = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'manual.pdf', { type: 'application/pdf' }));
      return data;
    }, MANUAL.toString('base64'));
    await page.getByTestId('knowledge-dropzone').dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByLabel('Choose files to add to the knowledge base').setInputFiles({ name: 'policy.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: POLICY });
    await rowSays('manual.pdf', 'Ready');
    await rowSays('policy.docx', 'Ready');
    await files().getByRole('row').filter({ hasText: 'manual.pdf' }).getByText('3 pages').waitFor();
    await files().getByRole('row').filter({ hasText: 'policy.docx' }).getByText('2 pages').waitFor();
    assert.equal(await page.getByRole('list', { name: 'Uploads' }).count(), 0, 'finished uploads leave the upload list');
    assert.match(page.url(), /knowledgeBaseId=/);
  });

  await t.test('an upload cut off by a reload resumes where it stopped when the same file is chosen again', async () => {
    // Two chunks of 6 MiB: the first reaches the server, the second is held until the reload.
    const big = path.join(dataDir, 'catalogue.txt');
    // One sentence padded with blank space: two chunks to send, little to parse.
    await writeFile(big, `Catalogue: the walnut bookshelf ships flat packed with every screw counted.\n${' '.repeat(6.2 * 1024 * 1024)}\n`);
    const seen = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/v1/uploads')) seen.push(`${r.method()} ${pathname}`);
    });
    let patches = 0;
    await page.route('**/v1/uploads/**', (route) => {
      if (route.request().method() === 'PATCH' && ++patches > 1) return; // held: never answered
      return route.continue();
    });
    await page.getByLabel('Choose files to add to the knowledge base').setInputFiles(big);
    await page.getByRole('progressbar', { name: 'Uploading catalogue.txt' }).waitFor();
    for (let i = 0; i < 100 && patches < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(patches, 2, 'the first chunk was sent and the second held');
    // Reload first: the held request dies with the page, unsent (unrouting first would send it).
    await page.reload();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await files().waitFor();
    seen.length = 0;
    await page.getByLabel('Choose files to add to the knowledge base').setInputFiles(big);
    try {
      await rowSays('catalogue.txt', 'Ready');
    } catch (error) {
      await screenshot(page, 'knowledge-resume-failed');
      throw new Error(`${error.message}\nrequests: ${seen.join(', ')}\npage: ${await page.locator('main').innerText()}`);
    }
    assert.ok(!seen.includes('POST /v1/uploads'), `no new upload was created: ${seen.join(', ')}`);
    assert.match(seen[0] ?? '', /^HEAD \/v1\/uploads\//, `the upload asked the server for its offset first: ${seen.join(', ')}`);
    assert.equal(seen.filter((r) => r.startsWith('PATCH')).length, 1, `only the missing chunk was sent: ${seen.join(', ')}`);
  });

  await t.test('a damaged PDF ends in Error with the server’s words on its row', async () => {
    await page.getByLabel('Choose files to add to the knowledge base').setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: BROKEN });
    await rowSays('broken.pdf', 'Error');
    const id = new URL(page.url()).searchParams.get('knowledgeBaseId');
    const listed = await get(baseURL, `/v1/campaigns/knowledge-base/files/${id}?organizationId=${team.id}`, token);
    const broken = listed.find((f) => f.name === 'broken.pdf');
    assert.equal(broken.status, 'error');
    assert.ok(broken.errorMessage, 'the server says why');
    await files().getByRole('row').filter({ hasText: 'broken.pdf' }).getByText(broken.errorMessage, { exact: true }).waitFor();
    await screenshot(page, 'knowledge-error-row');
  });

  await t.test('search a phrase from page 2 of the PDF and get page 2, highlighted', async () => {
    const search = page.getByRole('search', { name: 'Search this knowledge base' });
    await search.getByLabel('Search words').fill(PHRASE);
    await search.getByRole('button', { name: 'Search' }).click();
    const found = page.getByRole('list', { name: `Passages found for ${PHRASE}` });
    const first = found.getByRole('listitem').first();
    await first.waitFor();
    assert.match(await first.innerText(), /manual\.pdf/);
    await first.getByText('Page 2', { exact: true }).waitFor();
    const marked = await first.locator('mark').allInnerTexts();
    assert.ok(marked.some((m) => /marmalade/i.test(m)), `found words are marked: ${marked.join(', ')}`);
    assert.ok(!(await found.innerText()).includes('**'), 'the ** markers are not shown');
    await screenshot(page, 'knowledge-search');
  });

  await t.test('add a FAQ on the add-faq route, then edit it', async () => {
    await page.getByRole('link', { name: 'Add FAQ' }).click();
    await page.waitForURL(/\/dashboard\/knowledge-base\/add-faq\?.*knowledgeBaseId=/);
    await page.getByRole('heading', { name: 'Add FAQ' }).waitFor();
    await page.getByLabel('FAQ name').fill('Delivery questions');
    await page.getByLabel('Questions and answers').fill('Q: Do you deliver on Sundays?\nA: No, Monday to Saturday only.');
    await page.getByRole('button', { name: 'Add FAQ' }).click();
    await toastSays('The FAQ "Delivery questions" was added.');
    await page.waitForURL((url) => url.pathname === '/dashboard/knowledge-base');
    await rowSays('Delivery questions', 'Ready');

    await page.getByRole('link', { name: 'Edit FAQ Delivery questions' }).click();
    await page.waitForURL(/add-faq\?.*faq-id=/);
    await page.getByRole('heading', { name: 'Edit FAQ' }).waitFor();
    assert.equal(await page.getByLabel('FAQ name').inputValue(), 'Delivery questions');
    await page.getByLabel('FAQ name').fill('Delivery and pickup');
    await page.getByLabel('Questions and answers').fill('Q: Can I collect my parcel?\nA: Yes, pickup at the depot in Lindenfeld.');
    await page.getByRole('button', { name: 'Save FAQ' }).click();
    await toastSays('The FAQ "Delivery and pickup" was saved.');
    await rowSays('Delivery and pickup', 'Ready');

    const search = page.getByRole('search', { name: 'Search this knowledge base' });
    await search.getByLabel('Search words').fill('Lindenfeld');
    await search.getByRole('button', { name: 'Search' }).click();
    const hit = page.getByRole('list', { name: 'Passages found for Lindenfeld' }).getByRole('listitem').first();
    await hit.getByText('Delivery and pickup', { exact: true }).waitFor();
    await hit.getByText('FAQ', { exact: true }).waitFor();
  });

  await t.test('activate the knowledge base on a campaign and search as its agents would', async () => {
    await page.goto(at(`/dashboard/campaigns/${campaign.id}/knowledge-base`));
    await page.getByRole('tab', { name: 'Knowledge Base', selected: true }).waitFor();
    const active = page.getByTestId('active-knowledge-base');
    await active.getByText('None: this campaign’s agents answer from their own FAQ only.').waitFor();
    await page.getByRole('combobox', { name: 'Knowledge base to activate' }).click();
    await page.getByRole('option', { name: KB }).click();
    await page.getByRole('button', { name: 'Activate' }).click();
    await toastSays(`"${KB}" is now the knowledge base of ${CAMPAIGN}.`);
    await active.getByText(KB).waitFor();
    await active.getByText('Active', { exact: true }).waitFor();

    const search = page.getByRole('search', { name: 'What this campaign’s agents would find' });
    await search.getByLabel('Search words').fill(PHRASE);
    await search.getByRole('button', { name: 'Search' }).click();
    const first = page.getByRole('list', { name: `Passages found for ${PHRASE}` }).getByRole('listitem').first();
    await first.getByText('Page 2', { exact: true }).waitFor();

    // Deactivate, and activate again: one active knowledge base per campaign.
    await active.getByRole('button', { name: 'Deactivate' }).click();
    await toastSays(`${CAMPAIGN} no longer answers from "${KB}".`);
    await active.getByText('None: this campaign’s agents answer from their own FAQ only.').waitFor();
    await page.getByRole('navigation', { name: `Knowledge bases of ${CAMPAIGN}` }).getByText(KB).waitFor();
    await page.getByRole('combobox', { name: 'Knowledge base to activate' }).click();
    await page.getByRole('option', { name: KB }).click();
    await page.getByRole('button', { name: 'Activate' }).click();
    await active.getByText('Active', { exact: true }).waitFor();
  });

  await t.test('the campaign add-faq route adds a FAQ to the selected knowledge base', async () => {
    await page.getByRole('link', { name: 'Add FAQ' }).click();
    await page.waitForURL(new RegExp(`/dashboard/campaigns/${campaign.id}/knowledge-base/add-faq\\?`));
    await page.getByRole('tab', { name: 'Knowledge Base', selected: true }).waitFor();
    await page.getByLabel('FAQ name').fill('Opening hours');
    await page.getByLabel('Questions and answers').fill('Q: When are you open?\nA: Nine to five.');
    await page.getByRole('button', { name: 'Add FAQ' }).click();
    await toastSays('The FAQ "Opening hours" was added.');
    await page.waitForURL((url) => url.pathname === `/dashboard/campaigns/${campaign.id}/knowledge-base`);
    await rowSays('Opening hours', 'Ready');
  });

  await t.test('screenshots and axe, light and dark', async () => {
    const found = [];
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      for (const [name, path] of [
        ['knowledge', '/dashboard/knowledge-base'],
        ['campaign-knowledge', `/dashboard/campaigns/${campaign.id}/knowledge-base`],
      ]) {
        await page.goto(at(path));
        await files().getByRole('row').filter({ hasText: 'manual.pdf' }).waitFor();
        await page.waitForFunction(() => !document.querySelector('[data-testid="skeleton"]'));
        await page.evaluate(() => document.fonts.ready);
        assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), colorScheme === 'dark');
        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
          found.push(`${colorScheme} ${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
        }
        await screenshot(page, `${name}-${colorScheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(found, []);
  });

  await t.test('at 390 px nothing scrolls sideways', async () => {
    await page.setViewportSize(NARROW);
    for (const [name, path] of [
      ['knowledge-390', '/dashboard/knowledge-base'],
      ['campaign-knowledge-390', `/dashboard/campaigns/${campaign.id}/knowledge-base`],
    ]) {
      await page.goto(at(path));
      await files().getByRole('row').filter({ hasText: 'manual.pdf' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow} px at 390 px`);
      await screenshot(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await t.test('delete a file: it leaves the list and the search', async () => {
    await page.goto(at('/dashboard/knowledge-base'));
    await files().getByRole('row').filter({ hasText: 'manual.pdf' }).waitFor();
    await page.getByRole('button', { name: 'Delete manual.pdf' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete file' }).click();
    await toastSays('"manual.pdf" was deleted.');
    await files().getByRole('row').filter({ hasText: 'manual.pdf' }).waitFor({ state: 'detached' });
    const search = page.getByRole('search', { name: 'Search this knowledge base' });
    await search.getByLabel('Search words').fill(PHRASE);
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByText(`Nothing matches “${PHRASE}”.`, { exact: false }).waitFor();
  });

  await t.test('rename a knowledge base, and delete another with its files', async () => {
    await page.getByRole('button', { name: 'New knowledge base' }).click();
    const dialog = page.getByRole('dialog', { name: 'New knowledge base' });
    await dialog.getByLabel('Name').fill('Scratch');
    await dialog.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { level: 2, name: 'Scratch' }).waitFor();
    await page.getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the knowledge base' });
    assert.equal(await rename.getByLabel('Name').inputValue(), 'Scratch');
    await rename.getByLabel('Name').fill(KB);
    await rename.getByRole('button', { name: 'Rename' }).click();
    // Names are unique in a team: the server's refusal shows in the dialog.
    await rename.getByText(/already/i).first().waitFor();
    await rename.getByLabel('Name').fill('Scratch notes');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await toastSays('The knowledge base is now called "Scratch notes".');
    await page.getByRole('heading', { level: 2, name: 'Scratch notes' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete knowledge base' }).click();
    await toastSays('The knowledge base "Scratch notes" was deleted.');
    const list = page.getByRole('navigation', { name: 'Knowledge bases' });
    await list.getByText('Scratch notes').waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 2, name: KB }).waitFor();
  });

  // Chromium logs every non-2xx answer; this one is the refusal the rename step provokes on purpose.
  assert.deepEqual(problems, ['console error: Failed to load resource: the server responded with a status of 409 (Conflict)'], 'the page logged errors or failed requests');
});
