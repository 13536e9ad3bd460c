// Where a run's calls stand on the canvas: how many calls are on each step now and how many
// have passed through it, and the path a test run's call is taking. Seeded from the server's
// run activity (`getWorkflowRunActivity`), then moved by each `call.updated` event (a CallLog
// with its `currentNodeId` and `path`). Pure: the provider (RunOverlay.tsx) holds the state.
//
// Counting (the server's runs.StepCounts, the same rule): a call going on is "now" on its
// current step and "passed" on every other step of its path; a call that ended is "passed" on
// every step of its path; each call counts once per step.

import type { CallLog, RunActivity } from '../../../../api/gen/model';

export interface StepTally {
  now: number;
  passed: number;
}

/** One call followed from the stream. */
export interface TrackedCall {
  current: string | null;
  path: string[];
  updatedAt: string;
}

export interface Overlay {
  jobId: string | null;
  inProgress: boolean;
  isTest: boolean;
  /** Events of calls not tracked and dated at or before this are counted in `base` already. */
  asOf: string;
  /** The counts of the calls the seed did not list (ended before it was read). */
  base: Map<string, StepTally>;
  calls: Map<string, TrackedCall>;
}

export const EMPTY_OVERLAY: Overlay = { jobId: null, inProgress: false, isTest: false, asOf: '', base: new Map(), calls: new Map() };

/** Adds (sign 1) or takes away (sign -1) one call's part of the counts. */
function tally(into: Map<string, StepTally>, call: TrackedCall, sign: 1 | -1) {
  const at = (id: string) => {
    let t = into.get(id);
    if (!t) {
      t = { now: 0, passed: 0 };
      into.set(id, t);
    }
    return t;
  };
  if (call.current) at(call.current).now += sign;
  const seen = new Set(call.current ? [call.current] : []);
  for (const id of call.path) {
    if (seen.has(id)) continue;
    seen.add(id);
    at(id).passed += sign;
  }
}

/** The overlay as the server's activity says it is now. */
export function seedOverlay(a: RunActivity): Overlay {
  const base = new Map<string, StepTally>(a.steps.map((s) => [s.nodeId, { now: s.now, passed: s.passed }]));
  const calls = new Map<string, TrackedCall>();
  for (const c of a.calls) {
    const call = { current: c.currentNodeId, path: c.path, updatedAt: c.updatedAt };
    calls.set(c.callLogId, call);
    tally(base, call, -1);
  }
  return { jobId: a.jobId, inProgress: a.inProgress, isTest: a.isTest, asOf: a.asOf, base, calls };
}

/** Whether a call of the stream belongs to the overlay's run. Test calls name no job: the test run's call is the one outbound call without a job. */
function belongs(o: Overlay, workflowId: string, call: CallLog): boolean {
  if (!o.jobId || call.workflowId !== workflowId) return false;
  if (call.jobId) return call.jobId === o.jobId;
  return o.isTest && call.direction === 'outbound' && (o.calls.size === 0 || o.calls.has(call.id));
}

/**
 * The overlay after a `call.updated` event: the same object when it changes nothing (another
 * workflow's call, an older or repeated event, a call counted in the seed already).
 */
export function applyCall(o: Overlay, workflowId: string, call: CallLog): Overlay {
  if (!belongs(o, workflowId, call)) return o;
  const next: TrackedCall = { current: call.endTime === null ? (call.currentNodeId ?? null) : null, path: call.path ?? [], updatedAt: call.updatedAt };
  const had = o.calls.get(call.id);
  const at = Date.parse(call.updatedAt);
  if (had) {
    const before = Date.parse(had.updatedAt);
    if (at < before) return o;
    if (at === before && next.path.length <= had.path.length && next.current === had.current) return o;
    // Events may come out of order with equal times: a path never shrinks, an ended call never resumes.
    if (next.path.length < had.path.length || (had.current === null && had.path.length > 0 && next.current !== null)) return o;
  } else if (at <= Date.parse(o.asOf)) {
    return o;
  }
  const calls = new Map(o.calls);
  calls.set(call.id, next);
  return { ...o, calls };
}

/** The counts of every step a call of the run has reached (steps at zero left out). */
export function stepCounts(o: Overlay): Map<string, StepTally> {
  const out = new Map<string, StepTally>();
  for (const [id, t] of o.base) out.set(id, { ...t });
  for (const c of o.calls.values()) tally(out, c, 1);
  for (const [id, t] of out) if (t.now <= 0 && t.passed <= 0) out.delete(id);
  return out;
}

/** The path of a test run's call: its steps, and its edges as "source>target". */
export function testPath(o: Overlay): { nodes: Set<string>; edges: Set<string> } {
  const nodes = new Set<string>();
  const edges = new Set<string>();
  if (!o.isTest) return { nodes, edges };
  for (const c of o.calls.values()) {
    c.path.forEach((id, i) => {
      nodes.add(id);
      if (i > 0) edges.add(`${c.path[i - 1]}>${id}`);
    });
  }
  return { nodes, edges };
}
