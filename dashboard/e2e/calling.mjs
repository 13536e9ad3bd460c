// Shared steps of the calling journeys (runs.test.mjs, inbox.test.mjs): a team whose owner is a
// site admin (to grant credits and raise the dialer's concurrency, as an operator would), an
// agent, a simulator number, an outbound campaign whose calling window is always open and which
// does not retry (so a run ends within the test), and a workflow of that campaign with a graph
// that runs and a CSV of contacts uploaded through the canvas.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { bettyBin, signUpWithTeam } from './harness.mjs';

/** Calls the API from the page with the session's token. */
export function api(page, method, url, body) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('betty.accessToken')}` },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { method, url, body },
  );
}

export async function ok(page, method, url, body, want = [200, 201]) {
  const res = await api(page, method, url, body);
  assert.ok(want.includes(res.status), `${method} ${url} → ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body?.data;
}

/** The campaign settings of the journeys: every day, all day, no retries, 20 calls at once. */
export const ALWAYS_OPEN = {
  maxConcurrentCalls: 20,
  callWindow: { start: '00:00', end: '23:59', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] },
  timezone: 'UTC',
  retryAttempts: 0,
  retryDelayMinutes: 5,
  voicemailAction: 'hang-up',
  voicemailMessage: null,
  recordCalls: true,
};

/**
 * Signs `owner` up with a team ready to call: answers { teamId, agentId, phoneNumberId,
 * number, campaignId, workflowId, contactsNodeId }.
 */
export async function callingTeam(page, { baseURL, dataDir }, owner, password, team) {
  const teamId = await signUpWithTeam(page, baseURL, owner, password, team);
  await promisify(execFile)(bettyBin, ['admin', 'grant', owner.email, '--data-dir', dataDir]);
  await ok(page, 'POST', `/v1/admin/organization/grant-credits?organizationId=${teamId}&credits=100`);
  await ok(page, 'POST', `/v1/admin/organization/dialer-limit?organizationId=${teamId}&maxConcurrentCalls=20`);
  const agent = await ok(page, 'POST', '/v1/agent/create', { organizationId: teamId, name: 'Sam' });
  const available = await ok(page, 'GET', '/v1/phone/available?countryCode=US&limit=1');
  const number = available[0].phoneNumber;
  const bought = await ok(page, 'POST', '/v1/payment/intent/phone-number-monthly-subscription', { organizationId: teamId, phoneNumber: number, originUrl: baseURL });
  const mine = await ok(page, 'GET', `/v1/phone/my-numbers?organizationId=${teamId}`);
  const phone = mine.find((n) => n.phoneNumber === number) ?? bought?.phoneNumber;
  assert.ok(phone?.id, `the bought number ${number} is not among the team's`);
  const campaign = await ok(page, 'POST', '/v1/campaigns/create', { organizationId: teamId, name: 'Renewals', type: 'outbound', settings: ALWAYS_OPEN, phoneNumberId: phone.id });
  const workflow = await ok(page, 'POST', `/v2/campaigns/workflow/create/${campaign.id}`, { name: 'Renewal calls', agentId: agent.id });
  const s = Date.now();
  const contactsNodeId = `contacts-${s}`;
  const node = (id, type, data = {}, x = 0, y = 0) => ({ id, type, position: { x, y }, data });
  const edge = (id, source, target) => ({ id, source, target, type: 'add-step' });
  const current = await ok(page, 'GET', `/v1/workflow/${workflow.id}`);
  await ok(page, 'POST', '/v1/workflow/save', {
    workflowId: workflow.id,
    version: current.version,
    nodes: [
      node(contactsNodeId, 'contacts', {}, -900, 0),
      node(`start-${s}`, 'start', {}, 0, 2400),
      node(`hello-${s}`, 'agent', { nodeLabel: 'Greet', instruction: 'Greet {{firstName}} and ask whether they want to renew their plan.' }, 0, 1800),
      node(`answer-${s}`, 'customer-response', { nodeLabel: 'Answer', description: 'The customer answers about renewing, or asks about the price.' }, 0, 1200),
      node(`thanks-${s}`, 'agent', { nodeLabel: 'Thanks', instruction: 'Thank them for their answer and say goodbye.' }, 0, 600),
      node(`end-${s}`, 'end-call', {}, 0, 0),
    ],
    edges: [edge(`e1-${s}`, `start-${s}`, `hello-${s}`), edge(`e2-${s}`, `hello-${s}`, `answer-${s}`), edge(`e3-${s}`, `answer-${s}`, `thanks-${s}`), edge(`e4-${s}`, `thanks-${s}`, `end-${s}`)],
  });
  return { teamId, agentId: agent.id, phoneNumberId: phone.id, number, campaignId: campaign.id, workflowId: workflow.id, contactsNodeId };
}

/**
 * Sets a CSV of `phones` as the workflow's contacts (a tus upload, then the Contacts node's
 * source, as the canvas does; the canvas's own upload is covered by workflows.test.mjs) and
 * waits until the import has read it.
 */
export async function uploadContacts(page, { teamId, workflowId, contactsNodeId }, phones) {
  const csv = ['phone,firstName,lastName,email', ...phones.map((p, i) => `${p},Ann${i},Lee${i},ann${i}@example.com`)].join('\n') + '\n';
  const fileUrl = await page.evaluate(
    async ({ teamId, csv }) => {
      const auth = { Authorization: `Bearer ${localStorage.getItem('betty.accessToken')}`, 'Tus-Resumable': '1.0.0' };
      const b64 = (s) => btoa(s);
      const bytes = new TextEncoder().encode(csv);
      const created = await fetch('/v1/uploads', {
        method: 'POST',
        headers: { ...auth, 'Upload-Length': String(bytes.length), 'Upload-Metadata': `filename ${b64('contacts.csv')},organizationId ${b64(teamId)},purpose ${b64('contacts-csv')}` },
      });
      if (created.status !== 201) throw new Error(`create upload: ${created.status} ${await created.text()}`);
      const id = new URL(created.headers.get('Location'), location.href).pathname.split('/').pop();
      const sent = await fetch(`/v1/uploads/${id}`, { method: 'PATCH', headers: { ...auth, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: bytes });
      if (sent.status !== 204) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
      const info = await (await fetch(`/v1/uploads/${id}/info`, { headers: auth })).json();
      return info.data.fileUrl;
    },
    { teamId, csv },
  );
  const source = await ok(page, 'POST', '/v1/workflow/contacts', { organizationId: teamId, workflowId, nodeId: contactsNodeId, source: 'csv', fileUrl, fileName: 'contacts.csv' });
  assert.ok(source?.jobId, 'the CSV source names no contacts-import job');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [job] = await ok(page, 'GET', `/v2/jobs/status?type=contacts-import&ids=${source.jobId}`);
    if (job && job.status !== 'in-progress') {
      assert.equal(job.status, 'success', JSON.stringify(job));
      assert.equal(job.progress.completed, phones.length, JSON.stringify(job.progress));
      return;
    }
    assert.ok(Date.now() < deadline, 'the contacts import did not finish');
    await page.waitForTimeout(300);
  }
}

/** `count` distinct valid US numbers (San Francisco, 415-720-…). */
export function phonesFor(count, base = 0) {
  return Array.from({ length: count }, (_, i) => `+1415${7200000 + base + i}`);
}
