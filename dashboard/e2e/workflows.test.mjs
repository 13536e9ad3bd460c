// End-to-end: workflows on the canvas against a real `betty serve`. Builds a flow from the
// customer-support template (a conditional path with two branches, a webhook and a forward call),
// saves, reloads and sees the same graph; a second tab saving first produces the conflict choice;
// a 300-node workflow opens and pans fast enough (the figures are printed for `make bench`).
//
//   BETTY_BIN=../bin/betty node --test e2e/workflows.test.mjs

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import AxeBuilder from '@axe-core/playwright';

import { CHROMIUM, NARROW, haveChromium, newContext, pageApi, screenshot, signUpWithTeam, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Wren Workflow', email: 'wren@example.com' };
const TEAM = 'Contoso Support';

test('workflows on the canvas', { skip, timeout: 300_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser, dataDir } = await startStack(t);
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = watchForProblems(page);
  let teamId = '';
  const at = (path) => `${baseURL}${path}${path.includes('?') ? '&' : '?'}teamId=${teamId}`;
  const api = pageApi;
  const saved = (p) => p.locator('[data-testid="save-status"][data-status="saved"]').waitFor();
  /** The kinds of the cards drawn, by node id. */
  const drawn = (p) =>
    p.$$eval('[data-testid^="node-"][data-kind]', (els) => Object.fromEntries(els.map((el) => [el.getAttribute('data-testid').slice(5), el.getAttribute('data-kind')])));

  const panFps = async (p) => {
    const { frames, ms, moved } = await p.evaluate(
      () =>
        new Promise((resolve) => {
          const pane = document.querySelector('.react-flow__pane');
          const viewport = document.querySelector('.react-flow__viewport');
          const start = viewport.style.transform;
          const r = pane.getBoundingClientRect();
          const x0 = r.left + 40;
          const y0 = r.top + r.height / 2;
          const at = (type, x, y) => new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0, buttons: 1, view: window });
          pane.dispatchEvent(at('mousedown', x0, y0));
          let frames = 0;
          let t0 = 0;
          const step = (now) => {
            if (!t0) t0 = now;
            frames++;
            const t = now - t0;
            const x = x0 + Math.sin(t / 250) * 250;
            const y = y0 + (t / 2000) * 1500;
            window.dispatchEvent(at('mousemove', x, y));
            if (t < 2000) requestAnimationFrame(step);
            else {
              window.dispatchEvent(at('mouseup', x, y));
              resolve({ frames, ms: t, moved: viewport.style.transform !== start });
            }
          };
          requestAnimationFrame(step);
        }),
    );
    assert.ok(moved, 'the scripted drag panned the canvas');
    return Math.round(((frames - 1) / ms) * 1000);
  };

  /**
   * The whole flow on screen ("Fit view"): a flow opens on Start at a readable zoom when it cannot
   * be read whole, and only what is in view is drawn.
   */
  const showAll = async (p) => {
    await p.getByRole('button', { name: 'Fit view', exact: true }).click();
    await p.waitForTimeout(300);
  };

  /** Clicks a far-out card until the canvas has zoomed onto it and `shown` is drawn (the canvas's own first fit may land after a click). */
  const zoomOnto = async (card, shown) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      await card.click();
      if (await shown.waitFor({ timeout: 2_000 }).then(() => true, () => false)) return;
    }
    throw new Error('clicking the card did not zoom onto it');
  };

  await t.test('sign up, create a team and an agent', async () => {
    teamId = await signUpWithTeam(page, baseURL, OWNER, PASSWORD, { name: TEAM, company: 'Contoso', industry: 'Retail', purpose: 'Support calls' });
    const agent = await api(page, 'POST', '/v1/agent/create', { organizationId: teamId, name: 'Sam' });
    assert.equal(agent.status, 201, JSON.stringify(agent.body));
  });

  let workflowId = '';
  await t.test('create a workflow from the customer-support template, filling its placeholders', async () => {
    await page.goto(at('/dashboard/workflow-canvas'));
    await page.getByText('No workflows yet').waitFor();
    await page.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name').fill('Support line');
    await dialog.getByRole('combobox', { name: 'Direction' }).click();
    await page.getByRole('option', { name: /^Inbound/ }).click();
    await dialog.getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: 'Sam' }).click();
    await dialog.getByRole('button', { name: /Customer support/ }).click();
    await dialog.getByLabel('Company name').fill('Contoso');
    await dialog.getByLabel('Support e-mail').fill('help@contoso.example');
    await dialog.getByLabel('Operating hours').fill('9 to 5');
    await dialog.getByLabel('Business address').fill('1 Main St');
    await dialog.getByLabel('Common issue 1').fill('Billing');
    await dialog.getByLabel('Common issue 2').fill('Delivery');
    await dialog.getByLabel('Common issue 3').fill('Returns');
    await screenshot(page, 'workflow-create');
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await page.waitForURL(/workflowId=/);
    workflowId = new URL(page.url()).searchParams.get('workflowId') ?? '';
    await page.getByTestId('workflow-canvas').waitFor();
    await page.getByText('Greet the caller').waitFor();
    const greet = (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data.nodes.find((n) => n.data.nodeLabel === 'Greet the caller');
    assert.match(greet.data.instruction, /Thank the caller for calling Contoso support/, 'the placeholders were filled');
  });

  let before = {};
  await t.test('add a conditional path with two branches, a webhook and a forward call; save; reload shows the same graph', async () => {
    const wf = (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data;
    const kind = Object.fromEntries(wf.nodes.map((n) => [n.id, n.type]));
    const helpToEnd = wf.edges.find((e) => kind[e.source] === 'agent' && kind[e.target] === 'end-call' && wf.nodes.find((n) => n.id === e.source).data.instruction.includes('Billing'));
    assert.ok(helpToEnd, 'the template has a Help → End edge for issue 1');
    await showAll(page);
    await page.getByTestId(`edge-plus-${helpToEnd.id}`).click();
    await page.getByRole('dialog', { name: 'Add a step' }).getByRole('button', { name: /^Conditional Path/ }).click();
    await page.getByRole('button', { name: 'Add a step after Path 2' }).click();
    await page.getByRole('dialog', { name: 'Add a step' }).getByRole('button', { name: /^Webhook/ }).click();
    const hook = page.getByRole('complementary', { name: 'Edit Webhook' });
    await hook.getByLabel('URL').fill('https://hooks.example.com/support');
    await hook.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'Add a step after Webhook' }).click();
    await page.getByRole('dialog', { name: 'Add a step' }).getByRole('button', { name: /^Forward Call/ }).click();
    const fwd = page.getByRole('complementary', { name: 'Edit Forward Call' });
    await fwd.getByLabel('Destination number').fill('+14155550123');
    await fwd.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('+14155550123').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved(page);
    await screenshot(page, 'workflow-canvas-built');

    const stored = (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data;
    const kinds = stored.nodes.map((n) => n.type);
    assert.equal(kinds.filter((k) => k === 'conditional-path').length, 2, 'the template path and the new one');
    assert.ok(kinds.includes('webhook') && kinds.includes('forward-call'));
    const cps = stored.nodes.filter((n) => n.type === 'conditional-path');
    for (const cp of cps) assert.ok(stored.edges.filter((e) => e.source === cp.id).length >= 2, 'each conditional path keeps two branches or more');
    await showAll(page);
    before = await drawn(page);
    assert.equal(Object.keys(before).length, stored.nodes.filter((n) => n.type !== 'invisible').length);

    await page.reload();
    await page.getByTestId('workflow-canvas').waitFor();
    await page.locator('[data-kind="start"]').waitFor();
    await showAll(page);
    await page.locator('[data-kind="forward-call"]').waitFor();
    assert.deepEqual(await drawn(page), before, 'the same graph after a reload');
    const again = (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data;
    assert.deepEqual(
      again.nodes.map((n) => [n.id, n.type, n.position]),
      stored.nodes.map((n) => [n.id, n.type, n.position]),
    );
  });

  await t.test('keyboard: Delete removes the selected step, Ctrl+Z brings it back, F fits the view', async () => {
    const fwd = page.locator('[data-kind="forward-call"]');
    await fwd.click(); // selects it (and zooms onto it)
    await page.keyboard.press('Delete');
    await fwd.waitFor({ state: 'detached' });
    await page.keyboard.press('Control+z');
    await fwd.waitFor();
    await page.keyboard.press('f');
    await saved(page);
    const stored = (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data;
    assert.ok(stored.nodes.some((n) => n.type === 'forward-call' && n.data.destinationPhoneNumber === '+14155550123'));
  });

  await t.test('a second tab saving first: the stale tab is offered reload or keep mine', async () => {
    const second = await context.newPage();
    second.setDefaultTimeout(15_000);
    // A tab in the background gets no animation frames; each tab is brought to the front to act.
    await second.bringToFront();
    await second.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
    await second.getByTestId('workflow-canvas').waitFor();
    await second.locator('[data-kind="start"]').waitFor();
    await showAll(second);
    // The second tab describes Path 1 and saves (a click on a far-out card zooms onto it).
    const path1 = second.getByTestId(/^node-customer-response-/).filter({ hasText: 'Path 1' });
    await zoomOnto(path1, path1.getByRole('button', { name: 'Add Customer Response' }));
    await path1.getByRole('button', { name: 'Add Customer Response' }).click();
    await second.getByRole('complementary', { name: 'Edit Customer Response' }).getByLabel('What the customer says on this path').fill('Wants a refund');
    await second.getByRole('button', { name: 'Apply' }).click();
    await saved(second);

    // The first tab, still on the old version, describes Path 2: its save is refused as stale.
    await page.bringToFront();
    const path2 = page.getByTestId(/^node-customer-response-/).filter({ hasText: 'Path 2' });
    await zoomOnto(path2, path2.getByRole('button', { name: 'Add Customer Response' }));
    await path2.getByRole('button', { name: 'Add Customer Response' }).click();
    await page.getByRole('complementary', { name: 'Edit Customer Response' }).getByLabel('What the customer says on this path').fill('Wants to talk to someone');
    await page.getByRole('button', { name: 'Apply' }).click();
    const conflict = page.getByRole('dialog', { name: 'This workflow changed elsewhere' });
    await conflict.waitFor();
    await page.locator('[data-testid="save-status"][data-status="conflict"]').waitFor();
    await screenshot(page, 'workflow-conflict');
    const between = (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data;
    assert.ok(JSON.stringify(between.nodes).includes('Wants a refund'), 'the second tab’s save stands');
    assert.ok(!JSON.stringify(between.nodes).includes('Wants to talk to someone'), 'nothing was overwritten silently');
    // The choice names the version the server holds now (the 409's currentVersion).
    await conflict.getByText(`saved version ${between.version} of this workflow`).waitFor();

    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await saved(page);
    const after = (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data;
    assert.ok(JSON.stringify(after.nodes).includes('Wants to talk to someone'));
    assert.ok(after.version > between.version);

    // The second tab is stale now: it chooses to reload and sees the first tab's graph.
    await second.bringToFront();
    await second.getByTestId(/^node-customer-response-/).filter({ hasText: 'Wants a refund' }).getByRole('button', { name: /^Actions for/ }).click();
    await second.getByRole('menuitem', { name: 'Edit' }).click();
    await second.getByRole('complementary', { name: 'Edit Customer Response' }).getByLabel('Title').fill('Refund');
    await second.getByRole('button', { name: 'Apply' }).click();
    const conflict2 = second.getByRole('dialog', { name: 'This workflow changed elsewhere' });
    await conflict2.getByRole('button', { name: 'Reload their version' }).click();
    // (on the card: the branch's edge carries the same words)
    await second.getByTestId(/^node-customer-response-/).filter({ hasText: 'Wants to talk to someone' }).waitFor();
    await second.close();
    await page.bringToFront();
  });

  await t.test('the readable prompt panel shows the compiled script', async () => {
    await page.getByRole('button', { name: 'Prompt', exact: true }).click();
    await page.getByTestId('readable-prompt').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Prompt', exact: true }).click();
  });

  await t.test('the step panel opens beside the canvas; the context menu, Ctrl+D, Escape and undo', async () => {
    const kinds = async () => (await api(page, 'GET', `/v1/workflow/${workflowId}`)).body.data.nodes.filter((n) => n.type === 'forward-call').length;
    const fwd = page.locator('[data-kind="forward-call"]');
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
    await page.locator('[data-kind="start"]').waitFor();
    await showAll(page);
    await fwd.click({ button: 'right' });
    await page.getByRole('menu', { name: 'Step' }).getByRole('menuitem', { name: 'Edit' }).click();
    const panel = page.getByRole('complementary', { name: 'Edit Forward Call' });
    const [canvasBox, panelBox] = [await page.getByTestId('workflow-canvas').boundingBox(), await panel.boundingBox()];
    assert.ok(canvasBox.x + canvasBox.width <= panelBox.x, 'the panel sits beside the canvas, not over it');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    await fwd.first().click();
    await page.keyboard.press('Control+d');
    await page.waitForFunction(() => document.querySelectorAll('[data-kind="forward-call"]').length === 2);
    await page.locator('[data-testid="save-status"]:not([data-status="saved"])').waitFor({ timeout: 2_000 }).catch(() => {});
    await saved(page);
    assert.equal(await kinds(), 2, 'Ctrl+D saved a copy of the step');
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => document.querySelectorAll('[data-kind="forward-call"]').length === 1);
    await page.locator('[data-testid="save-status"]:not([data-status="saved"])').waitFor({ timeout: 2_000 }).catch(() => {});
    await saved(page);
    assert.equal(await kinds(), 1, 'undo removed the copy');

    // The menu from the keyboard: Shift+F10 on a focused card; Escape gives the focus back to it.
    const card = page.locator('.react-flow__node').filter({ has: fwd });
    await card.focus();
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menu', { name: 'Step' }).getByRole('menuitem', { name: 'Duplicate' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu', { name: 'Step' }).waitFor({ state: 'detached' });
    assert.ok(await card.evaluate((el) => el === document.activeElement), 'the card has the focus again');

    // On a phone the header leaves the canvas on screen and the panel is a bottom sheet below it.
    await page.setViewportSize(NARROW);
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
    // It opens on Start; F fits the whole flow (the header's tools are one menu at this width).
    await page.locator('[data-kind="start"]').waitFor();
    await page.keyboard.press('f');
    await fwd.waitFor();
    const narrowCanvas = await page.getByTestId('workflow-canvas').boundingBox();
    assert.ok(narrowCanvas.y + 200 < NARROW.height, `the canvas starts at ${narrowCanvas.y} px, on screen`);
    await fwd.click({ button: 'right' });
    await page.getByRole('menu', { name: 'Step' }).getByRole('menuitem', { name: 'Edit' }).click();
    const sheet = await panel.boundingBox();
    const pageWidth = await page.evaluate(() => document.body.clientWidth); // the scrollbar's gutter is kept (index.css)
    assert.ok(Math.abs(sheet.y + sheet.height - NARROW.height) < 2 && sheet.width >= pageWidth - 1, `the panel is a sheet along the bottom: ${JSON.stringify(sheet)} in a page ${pageWidth} px wide`);
    assert.ok(narrowCanvas.y + 100 < sheet.y, 'the canvas stays visible above the sheet');
    await page.getByRole('button', { name: 'Close Edit Forward Call' }).click();
    await panel.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await t.test('screenshots: light and dark, 1280 and 390', async () => {
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
      // It opens on Start at a readable zoom (the flow is too big to read whole)…
      await page.locator('[data-kind="start"]').waitFor();
      await page.getByText('Greet the caller').waitFor();
      await screenshot(page, `workflow-canvas-${colorScheme}-1280`);
      // …and "Fit view" shows all of it: zoomed far out the cards are plain boxes; a click zooms onto one.
      await showAll(page);
      await screenshot(page, `workflow-canvas-${colorScheme}-1280-fitted`);
      // A branch's condition is written on the edge that leads to it.
      // (this tab kept its own version: Path 2 is described, Path 1 is not)
      const path2 = page.getByTestId(/^node-customer-response-/).filter({ hasText: 'Path 2' });
      await zoomOnto(path2, page.locator('[data-testid^="edge-label-"]', { hasText: 'Wants to talk to someone' }));
      await screenshot(page, `workflow-canvas-${colorScheme}-1280-branch`);
      await showAll(page);
      await zoomOnto(page.locator('[data-kind="forward-call"]'), page.getByText('+14155550123'));
      await screenshot(page, `workflow-canvas-${colorScheme}-1280-zoomed`);
      await page.setViewportSize(NARROW);
      await page.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
      await page.getByTestId('workflow-canvas').waitFor();
      await page.locator('[data-kind="start"]').waitFor();
      await page.waitForTimeout(500);
      await screenshot(page, `workflow-canvas-${colorScheme}-390`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await t.test('a Contacts node imports a CSV of 1,000 rows: 990 callable, 10 rejected with reasons', async () => {
    await page.goto(at('/dashboard/workflow-canvas'));
    await page.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name').fill('Renewal calls');
    await dialog.getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: 'Sam' }).click();
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await page.waitForURL(/workflowId=/);
    const id = new URL(page.url()).searchParams.get('workflowId');
    const contacts = page.locator('[data-kind="contacts"]');
    await contacts.getByText('No contact source added. Please add a contact source to run your workflow.').waitFor();
    await saved(page); // a new workflow's Start and Contacts are saved at once

    const rows = ['phone,firstName,lastName,email,plan'];
    for (let i = 0; i < 1000; i++) {
      const phone = i % 100 === 7 ? `not a number ${i}` : `+1415${String(2000000 + i).padStart(7, '0')}`;
      rows.push(`${phone},First${i},Last${i},p${i}@example.com,gold`);
    }
    const csv = path.join(dataDir, 'contacts.csv');
    await writeFile(csv, rows.join('\n') + '\n');

    await contacts.getByRole('button', { name: 'Add Contact' }).click();
    const panel = page.getByRole('complementary', { name: 'Edit Contacts' });
    await panel.getByRole('combobox', { name: 'Contact source' }).click();
    await page.getByRole('option', { name: 'CSV file' }).click();
    // The sample template the panel offers is a CSV the import reads.
    const sample = await page.request.get(await panel.getByRole('link', { name: 'Download a sample CSV' }).evaluate((a) => a.href));
    assert.equal(sample.status(), 200);
    assert.match(await sample.text(), /^phone,firstName,lastName,email,lifecycleStage/);
    await panel.getByLabel('CSV file').setInputFiles(csv);
    await page.getByTestId('toast').filter({ hasText: 'Contacts uploaded' }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Apply' }).click();
    await contacts.getByText('Showing 1 - 10 of 1000').waitFor({ timeout: 60_000 });
    await contacts.getByRole('columnheader', { name: 'Call Status' }).waitFor();
    await contacts.getByText('Page 1 - 100').waitFor();
    await saved(page);
    await screenshot(page, 'workflow-contacts');

    const node = (await api(page, 'GET', `/v1/workflow/${id}`)).body.data.nodes.find((n) => n.type === 'contacts');
    assert.equal(node.data.contactsSource, 'csv');
    let failed = [];
    let total = 0;
    for (let p = 1; ; p++) {
      const res = await api(page, 'GET', `/v1/workflow/contacts/data?nodeId=${node.id}&workflowId=${id}&page=${p}&pageSize=100`);
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      total += res.body.data.length;
      failed = failed.concat(res.body.data.filter((c) => c.betty_metadata.status === 'failed'));
      if (!res.body.meta.hasNext) break;
    }
    assert.equal(total, 1000);
    assert.equal(failed.length, 10, '10 rows rejected');
    assert.ok(failed.every((c) => c.betty_metadata.lastError), 'each rejected row says why');

    // The rejected rows download as the file's own rows with the reason in a last column.
    // The minimap keeps off the cards, so the link is clicked like any other.
    const rejectedLink = contacts.getByRole('button', { name: 'Download rejected rows (10)' });
    const [download] = await Promise.all([page.waitForEvent('download'), rejectedLink.click()]);
    assert.equal(download.suggestedFilename(), 'contacts-rejected.csv');
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n');
    assert.equal(lines[0], 'phone,firstName,lastName,email,plan,reason');
    assert.equal(lines.length, 11, lines.join('\n'));
    assert.equal(lines[1], 'not a number 7,First7,Last7,p7@example.com,gold,Invalid phone number');

    // The Contacts card has Delete in its menu like every card; with contacts it asks first,
    // and once saved its contacts are gone on the server too.
    // (by keyboard: the step panel, opened and closed beside the canvas, has moved the view since
    // it opened, and the minimap keeps off the cards only at the opening view)
    await contacts.getByRole('button', { name: 'Actions for Contacts' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete the Contacts node?' });
    await ask.getByRole('button', { name: 'Delete node and contacts' }).click();
    await contacts.waitFor({ state: 'detached' });
    await saved(page);
    // (asked outside the page: a 404 in the page is a console error the suite refuses)
    const token = await page.evaluate(() => localStorage.getItem('betty.accessToken'));
    const gone = await page.request.get(`${baseURL}/v1/workflow/csv/${node.id}?workflowId=${id}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(gone.status(), 404);
  });

  await t.test("a campaign's Workflow tab: create, make active, duplicate", async () => {
    const created = await api(page, 'POST', '/v1/campaigns/create', { organizationId: teamId, name: 'Spring support', type: 'inbound' });
    assert.equal(created.status, 201, JSON.stringify(created.body).slice(0, 300));
    const campaignId = created.body.data.id;
    await page.goto(at(`/dashboard/campaigns/${campaignId}/workflow`));
    await page.getByText('No workflow yet').waitFor();
    await page.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name').fill('Spring flow');
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await page.waitForURL(/workflowId=/);
    await page.goBack();
    const row = page.getByRole('row').filter({ hasText: 'Spring flow' });
    await row.waitFor();
    await row.getByRole('switch').check();
    await page.getByTestId('toast').filter({ hasText: 'is now the campaign' }).waitFor();
    const campaign = (await api(page, 'GET', `/v1/campaigns/${campaignId}`)).body.data;
    assert.ok(campaign.workflowId, 'the campaign runs the active workflow');
    await row.getByRole('button', { name: 'Duplicate Spring flow' }).click();
    await page.getByTestId('toast').filter({ hasText: 'A copy of Spring flow was made.' }).waitFor();
    await page.getByRole('row').nth(2).waitFor();
    assert.equal(await page.getByRole('row').count(), 3, 'a header and two workflows');
    await screenshot(page, 'campaign-workflow-tab');
  });

  await t.test('axe finds no serious accessibility problem on the list, the create dialog, the canvas, its context menu and its step panel', async () => {
    const found = [];
    const check = async (label) => {
      const { violations } = await new AxeBuilder({ page }).analyze();
      for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        found.push(`${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    };
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.goto(at('/dashboard/workflow-canvas'));
      await page.getByRole('link', { name: 'Support line' }).waitFor();
      await check(`${colorScheme} list`);
      await page.getByRole('button', { name: 'New workflow' }).first().click();
      await page.getByRole('dialog', { name: 'New workflow' }).getByRole('button', { name: /^Blank/ }).waitFor();
      await page.waitForTimeout(500); // the templates list settles
      await check(`${colorScheme} create dialog`);
      await page.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
      await page.locator('[data-kind="start"]').waitFor();
      await check(`${colorScheme} canvas as it opens`);
      await showAll(page);
      await page.locator('[data-kind="forward-call"]').waitFor();
      await zoomOnto(page.locator('[data-kind="forward-call"]'), page.getByText('+14155550123'));
      await check(`${colorScheme} canvas`);
      await page.locator('[data-kind="forward-call"]').click({ button: 'right' });
      await page.getByRole('menu', { name: 'Step' }).waitFor();
      await check(`${colorScheme} context menu`);
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await page.getByRole('complementary', { name: 'Edit Forward Call' }).waitFor();
      await check(`${colorScheme} step panel`);
      await page.keyboard.press('Escape');
    }
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(found, []);
  });

  await t.test('panning a small workflow (for comparison)', async () => {
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
    await page.getByTestId('workflow-canvas').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length > 0);
    console.log(`canvas: ${await page.locator('.react-flow__node').count()} nodes pan ${await panFps(page)} fps`);
  });

  await t.test('a 300-node workflow: open time and pan frame rate (budget 1 s and 55 fps, enforced with BETTY_BENCH_STRICT=1)', async () => {
    const created = await api(page, 'POST', '/v1/workflow/create', {
      organizationId: teamId,
      name: 'Three hundred steps',
      agentId: (await api(page, 'GET', `/v1/agent/list/${teamId}?sizePerPage=1`)).body.data[0].id,
      workflowType: 'inbound',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const big = created.body.data;
    const nodes = [{ id: 'start', type: 'start', position: { x: 113, y: 150 }, data: {}, flow_meta: {} }];
    const edges = [];
    for (let i = 1; i < 299; i++) {
      nodes.push({ id: `a${i}`, type: 'agent', position: { x: 0, y: -i * 606 }, data: { nodeLabel: `Step ${i}`, instruction: `Say line ${i} of the script and wait for the caller.` }, flow_meta: {} });
      edges.push({ id: `e${i}`, source: i === 1 ? 'start' : `a${i - 1}`, target: `a${i}`, type: 'add-step', edge_meta: {} });
    }
    nodes.push({ id: 'end', type: 'end-call', position: { x: 0, y: -299 * 606 }, data: {}, flow_meta: {} });
    edges.push({ id: 'e299', source: 'a298', target: 'end', type: 'add-step', edge_meta: {} });
    const save = await api(page, 'POST', '/v1/workflow/save', { workflowId: big.id, nodes, edges, version: big.version });
    assert.equal(save.status, 200, JSON.stringify(save.body).slice(0, 500));

    // Open: from navigation start to the cards drawn, measured by the page itself.
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${big.id}`));
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length > 0 && document.querySelector('[data-testid="save-status"]'));
    const { openMs, renderMs } = await page.evaluate((id) => {
      const now = performance.now();
      const fetched = performance.getEntriesByType('resource').filter((r) => r.name.includes(`/v1/workflow/${id}`));
      const arrived = fetched.length ? Math.min(...fetched.map((r) => r.responseEnd)) : now;
      return { openMs: Math.round(now), renderMs: Math.round(now - arrived) };
    }, big.id);

    // Pan: a scripted drag of the pane, one pointer move per animation frame for two seconds,
    // driven inside the page so the figure is the page's own frame rate (not the latency of the
    // test's remote-control channel).
    const fps = await panFps(page);
    console.log(`canvas: 300 nodes opened in ${openMs} ms (drawn ${renderMs} ms after the workflow arrived), pan ${fps} fps`);
    // The budget (under 1 s, 55 fps) holds on an idle machine; on a shared, loaded one the figures
    // are printed for `make bench` and only enforced with BETTY_BENCH_STRICT=1.
    if (process.env.BETTY_BENCH_STRICT) {
      assert.ok(openMs < 1000, `a 300-node workflow opened in ${openMs} ms`);
      assert.ok(fps >= 55, `panning a 300-node workflow ran at ${fps} fps`);
    } else if (openMs >= 1000 || fps < 55) {
      t.diagnostic(`over budget on this machine (load ${loadavg()[0].toFixed(1)}): open ${openMs} ms (budget 1000), pan ${fps} fps (budget 55)`);
    }
  });

  // The one refused request is the stale save the conflict test provokes on purpose.
  const expected = (line) => line.includes('409 (Conflict)');
  assert.deepEqual(problems.filter((line) => !expected(line)), [], 'console errors or failed requests');
  assert.equal(problems.filter(expected).length, 1, 'the stale save of this tab');
});
