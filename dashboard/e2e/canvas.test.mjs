// End-to-end: every shipped workflow template opened on the canvas, as a new user would, in both
// themes at 1280 and 390 px. For each: Start is above End Call; at the opening view every card
// drawn has its text at 12 px or more on screen (and Start is in view); every edge has a visible
// stroke with a non-text contrast of 3:1 or more against the canvas; the minimap covers no card;
// axe finds nothing serious or critical; the list of what stops a run names steps by their labels
// (never by id). Screenshots: test-output/canvas-<template>-<theme>-<width>.png.
//
// Checks are collected per template and reported together, so one run shows every gap.

import assert from 'node:assert/strict';
import test from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { CHROMIUM, NARROW, haveChromium, newContext, pageApi, screenshot, signUpWithTeam, skip, startStack, watchForProblems } from './harness.mjs';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Cleo Canvas', email: 'cleo@canvas.example' };
const WIDE = { width: 1280, height: 900 };
const THEMES = ['light', 'dark'];
const MIN_TEXT_PX = 12;
const MIN_EDGE_CONTRAST = 3;

/** The name a step without a label goes by: its kind's ("end-call" → "End Call"). */
const kindName = (type) => type.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');

/** A file-name slug of a template's name. */
const slug = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/**
 * Everything the checks need from the page at its current view, read inside the page: the zoom,
 * the cards drawn (box, kind, the smallest text on screen), the minimap's box, the edges' strokes
 * and the canvas colour (both resolved to sRGB through a 2D canvas, whatever colour syntax the
 * theme uses).
 */
function readView(page) {
  return page.evaluate(() => {
    const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const rgb = (css) => {
      probe.clearRect(0, 0, 1, 1);
      probe.fillStyle = '#000';
      probe.fillStyle = css;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
      return { r, g, b, a: a / 255 };
    };
    const opaqueBackground = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.a > 0.5) return c;
      }
      return rgb(getComputedStyle(document.body).backgroundColor);
    };
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height };
    };
    const viewport = document.querySelector('.react-flow__viewport');
    const zoom = viewport ? new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a : 1;
    const pane = document.querySelector('.react-flow');
    const paneBox = pane ? box(pane) : { x: 0, y: 0, w: innerWidth, h: innerHeight };
    const inView = (b) => b.w > 0 && b.h > 0 && b.x < paneBox.x + paneBox.w && b.x + b.w > paneBox.x && b.y < paneBox.y + paneBox.h && b.y + b.h > paneBox.y;
    const cards = [];
    for (const el of document.querySelectorAll('[data-testid^="node-"][data-kind]')) {
      const b = box(el);
      if (!inView(b)) continue;
      let smallest = Infinity;
      let smallestText = '';
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const text = t.textContent.trim();
        const parent = t.parentElement;
        if (!text || !parent || parent.closest('[aria-hidden="true"], .sr-only')) continue;
        const s = getComputedStyle(parent);
        if (s.visibility === 'hidden' || s.display === 'none') continue;
        const r = parent.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        const px = parseFloat(s.fontSize) * zoom;
        if (px < smallest) {
          smallest = px;
          smallestText = text.slice(0, 40);
        }
      }
      cards.push({ id: el.getAttribute('data-testid').slice(5), kind: el.getAttribute('data-kind'), box: b, smallest, smallestText });
    }
    const minimap = document.querySelector('.react-flow__minimap');
    const minimapBox = minimap && getComputedStyle(minimap).display !== 'none' ? box(minimap) : null;
    const canvasColour = opaqueBackground(document.querySelector('.react-flow__pane') ?? document.body);
    const edges = [...document.querySelectorAll('.react-flow__edge path.react-flow__edge-path')].map((p) => {
      const s = getComputedStyle(p);
      return { id: p.closest('.react-flow__edge')?.getAttribute('data-id') ?? p.id, stroke: rgb(s.stroke), width: parseFloat(s.strokeWidth) * zoom, opacity: parseFloat(s.opacity) * parseFloat(getComputedStyle(p.closest('.react-flow__edge') ?? p).opacity) };
    });
    return { zoom, paneBox, cards, minimapBox, canvasColour, edges };
  });
}

/** WCAG relative luminance and contrast ratio of two sRGB colours (alpha blended on `under`). */
function contrast(fg, bg) {
  const blend = (c) => ({ r: c.r * c.a + bg.r * (1 - c.a), g: c.g * c.a + bg.g * (1 - c.a), b: c.b * c.a + bg.b * (1 - c.a) });
  const lum = ({ r, g, b }) => {
    const ch = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const a = lum(blend(fg));
  const b = lum(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

const overlaps = (a, b) => a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;

test('every shipped template reads at a glance on the canvas', { skip, timeout: 600_000 }, async (t) => {
  assert.ok(haveChromium, `${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { baseURL, browser } = await startStack(t);
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = watchForProblems(page);
  const teamId = await signUpWithTeam(page, baseURL, OWNER, PASSWORD, { name: 'Canvas tour', company: 'Contoso', industry: 'Retail', purpose: 'Calls' });
  const at = (path) => `${baseURL}${path}${path.includes('?') ? '&' : '?'}teamId=${teamId}`;
  const api = (method, path, body) => pageApi(page, method, path, body);

  const agent = await api('POST', '/v1/agent/create', { organizationId: teamId, name: 'Sam' });
  assert.equal(agent.status, 201, JSON.stringify(agent.body).slice(0, 300));
  const listed = await api('GET', '/v1/workflow/templates/list?sizePerPage=100');
  assert.equal(listed.status, 200);
  const templates = listed.body.data;
  assert.ok(templates.length >= 3, `the installation ships templates (${templates.length})`);

  const workflows = [];
  for (const template of templates) {
    const created = await api('POST', '/v1/workflow/create', {
      organizationId: teamId,
      name: template.name,
      agentId: agent.body.data.id,
      workflowType: template.workflowType,
      workflowTemplate: template.id,
    });
    assert.equal(created.status, 201, `${template.name}: ${JSON.stringify(created.body).slice(0, 300)}`);
    workflows.push({ template, workflow: created.body.data });
  }

  const gaps = [];
  const openCanvas = async (workflowId) => {
    await page.goto(at(`/dashboard/workflow-canvas?workflowId=${workflowId}`));
    await page.getByTestId('workflow-canvas').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="node-"][data-kind]').length > 0);
    await page.waitForTimeout(300); // fonts and the first measured frame
  };

  for (const { template, workflow } of workflows) {
    const name = template.name;
    const labels = new Map(workflow.nodes.map((n) => [n.id, n.data?.nodeLabel || kindName(n.type)]));
    for (const theme of THEMES) {
      for (const size of [WIDE, NARROW]) {
        const where = `${name} (${theme}, ${size.width} px)`;
        await page.emulateMedia({ colorScheme: theme });
        await page.evaluate((theme) => localStorage.setItem('betty.theme', theme), theme);
        await page.setViewportSize(size);
        await openCanvas(workflow.id);
        await screenshot(page, `canvas-${slug(name)}-${theme}-${size.width}`);
        const view = await readView(page);

        // The opening view: Start is in view and every card drawn is readable.
        const start = view.cards.find((c) => c.kind === 'start');
        if (!start) gaps.push(`${where}: Start is not in the opening view`);
        for (const c of view.cards) {
          if (c.smallest < MIN_TEXT_PX - 0.05) gaps.push(`${where}: "${labels.get(c.id) ?? c.kind}" shows text at ${c.smallest.toFixed(1)} px on screen ("${c.smallestText}", zoom ${view.zoom.toFixed(2)})`);
        }
        // The minimap covers no card.
        if (view.minimapBox) {
          for (const c of view.cards) if (overlaps(view.minimapBox, c.box)) gaps.push(`${where}: the minimap covers "${labels.get(c.id) ?? c.kind}"`);
        }
        // Edges: a visible stroke, 3:1 against the canvas.
        if (view.edges.length === 0 && workflow.edges.length > 0 && size === WIDE) gaps.push(`${where}: no edge drawn at the opening view`);
        for (const e of view.edges) {
          const ratio = contrast({ ...e.stroke, a: e.stroke.a * (Number.isFinite(e.opacity) ? e.opacity : 1) }, view.canvasColour);
          if (ratio < MIN_EDGE_CONTRAST) gaps.push(`${where}: edge ${e.id} has contrast ${ratio.toFixed(2)}:1 against the canvas`);
          if (!(e.width >= 1)) gaps.push(`${where}: edge ${e.id} is drawn ${e.width.toFixed(2)} px wide on screen`);
        }
        if (size === WIDE) {
          // axe at the opening view.
          const { violations } = await new AxeBuilder({ page }).analyze();
          for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
            gaps.push(`${where}: axe ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
          // What stops a run names steps by label, never by id, and a click focuses the step.
          const blockers = page.getByTestId('blockers');
          if (await blockers.count()) {
            await blockers.locator('summary').click();
            await blockers.getByRole('button').first().waitFor();
            // The labels as saved (the canvas may have added a step, such as Contacts, on open).
            const stored = await api('GET', `/v1/workflow/${workflow.id}`);
            for (const n of stored.body?.data?.nodes ?? []) if (!labels.has(n.id)) labels.set(n.id, n.data?.nodeLabel || kindName(n.type));
            const texts = await blockers.getByRole('button').allInnerTexts();
            if (texts.length === 0) gaps.push(`${where}: the blockers list opened empty`);
            for (const text of texts) {
              if ([...labels.keys()].some((id) => text.includes(id))) gaps.push(`${where}: a blocker shows a raw id: "${text}"`);
              const known = ['Workflow', 'Connection', ...labels.values()].some((l) => text.trim().startsWith(l));
              if (!known) gaps.push(`${where}: a blocker does not start with a step's label: "${text}"`);
            }
            if (texts.length > 0 && !texts[0].startsWith('Workflow')) {
              await blockers.getByRole('button').first().click();
              await page.waitForTimeout(400);
              const focused = await page.evaluate(() => {
                const node = document.querySelector('.react-flow__node.selected');
                const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
                if (!node || !pane) return false;
                const r = node.getBoundingClientRect();
                return r.left >= pane.left - 1 && r.right <= pane.right + 1 && r.top >= pane.top - 1 && r.bottom <= pane.bottom + 1;
              });
              if (!focused) gaps.push(`${where}: clicking "${texts[0]}" did not select the step and bring it into view`);
            }
            await blockers.locator('summary').click();
          }
          // The whole flow: Start above every End Call (fitted, so every card is drawn).
          await page.getByRole('button', { name: 'Fit view', exact: true }).click();
          await page.waitForTimeout(400);
          const whole = await readView(page);
          const top = whole.cards.find((c) => c.kind === 'start');
          const ends = whole.cards.filter((c) => c.kind === 'end-call');
          if (!top) gaps.push(`${where}: no Start card after fitting the view`);
          for (const end of ends) if (top && !(top.box.y + top.box.h <= end.box.y + 1)) gaps.push(`${where}: Start is not above End Call "${labels.get(end.id)}"`);
        }
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  console.log(`canvas: ${workflows.length} templates checked in both themes at 1280 and 390 px, ${gaps.length} gaps`);
  assert.deepEqual(gaps, [], `what a new user would trip over:\n${gaps.join('\n')}`);
  assert.deepEqual(problems, [], 'console errors or failed requests');
});
