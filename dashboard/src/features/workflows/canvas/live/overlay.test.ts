import { describe, expect, it } from 'vitest';

import type { CallLog, RunActivity } from '../../../../api/gen/model';
import { applyCall, seedOverlay, stepCounts, testPath, type Overlay } from './overlay';

const WF = 'wf1';

function activity(over: Partial<RunActivity> = {}): RunActivity {
  return { jobId: 'job1', inProgress: true, isTest: false, asOf: '2026-12-07T10:00:00Z', steps: [], calls: [], ...over };
}

function call(id: string, at: string, path: string[], over: Partial<CallLog> = {}): CallLog {
  return {
    id,
    callControlId: '',
    organizationId: 'org1',
    direction: 'outbound',
    from: '+14155550100',
    to: '+14155550101',
    status: 'in-progress',
    startTime: '2026-12-07T10:00:00Z',
    endTime: null,
    durationSeconds: 0,
    cost: 0,
    campaignId: null,
    agentId: null,
    workflowId: WF,
    jobId: 'job1',
    hasRecording: false,
    hasTranscript: false,
    simulated: true,
    createdAt: '2026-12-07T10:00:00Z',
    updatedAt: at,
    path,
    currentNodeId: path.at(-1) ?? null,
    ...over,
  };
}

const counts = (o: Overlay) => Object.fromEntries([...stepCounts(o)].map(([id, t]) => [id, `${t.now}/${t.passed}`]));

describe('counting calls per step from the stream', () => {
  it('follows a call moving A, B, C and ending', () => {
    let o = seedOverlay(activity());
    o = applyCall(o, WF, call('c1', '2026-12-07T10:00:01Z', ['A']));
    expect(counts(o)).toEqual({ A: '1/0' });
    o = applyCall(o, WF, call('c1', '2026-12-07T10:00:02Z', ['A', 'B']));
    expect(counts(o)).toEqual({ A: '0/1', B: '1/0' });
    o = applyCall(o, WF, call('c1', '2026-12-07T10:00:03Z', ['A', 'B', 'C']));
    expect(counts(o)).toEqual({ A: '0/1', B: '0/1', C: '1/0' });
    o = applyCall(o, WF, call('c1', '2026-12-07T10:00:04Z', ['A', 'B', 'C'], { endTime: '2026-12-07T10:00:04Z', status: 'completed', currentNodeId: null }));
    expect(counts(o)).toEqual({ A: '0/1', B: '0/1', C: '0/1' });
  });

  it('ignores events out of order and duplicated', () => {
    let o = seedOverlay(activity());
    const late = call('c1', '2026-12-07T10:00:01Z', ['A']);
    const now = call('c1', '2026-12-07T10:00:02Z', ['A', 'B']);
    o = applyCall(o, WF, now);
    const same = applyCall(o, WF, now);
    expect(same).toBe(o);
    expect(applyCall(o, WF, late)).toBe(o);
    // The end and a move with the same time, the move second: the call stays ended.
    const ended = call('c1', '2026-12-07T10:00:03Z', ['A', 'B'], { endTime: '2026-12-07T10:00:03Z', currentNodeId: null });
    o = applyCall(o, WF, ended);
    o = applyCall(o, WF, call('c1', '2026-12-07T10:00:03Z', ['A', 'B']));
    expect(counts(o)).toEqual({ A: '0/1', B: '0/1' });
  });

  it('counts a call that loops back once per step, on the step it came back to', () => {
    const o = applyCall(seedOverlay(activity()), WF, call('c1', '2026-12-07T10:00:01Z', ['A', 'B', 'C', 'B']));
    expect(counts(o)).toEqual({ A: '0/1', B: '1/0', C: '0/1' });
  });

  it('seeds from the activity without counting a call twice', () => {
    // Two calls ended before the page opened (in steps only), one on B (listed in calls too).
    const seed = activity({
      steps: [
        { nodeId: 'A', now: 0, passed: 3 },
        { nodeId: 'B', now: 1, passed: 2 },
      ],
      calls: [{ callLogId: 'live', currentNodeId: 'B', path: ['A', 'B'], updatedAt: '2026-12-07T09:59:59Z' }],
    });
    let o = seedOverlay(seed);
    expect(counts(o)).toEqual({ A: '0/3', B: '1/2' });
    // A late event of a call counted in the seed already changes nothing.
    expect(applyCall(o, WF, call('old', '2026-12-07T09:59:00Z', ['A', 'B'], { endTime: '2026-12-07T09:59:00Z', currentNodeId: null }))).toBe(o);
    // The listed call moves on; a new call starts.
    o = applyCall(o, WF, call('live', '2026-12-07T10:00:01Z', ['A', 'B', 'C']));
    o = applyCall(o, WF, call('new', '2026-12-07T10:00:02Z', ['A']));
    expect(counts(o)).toEqual({ A: '1/3', B: '0/3', C: '1/0' });
  });

  it('leaves out calls of other workflows and runs', () => {
    const o = seedOverlay(activity());
    expect(applyCall(o, WF, call('x', '2026-12-07T10:00:01Z', ['A'], { workflowId: 'other' }))).toBe(o);
    expect(applyCall(o, WF, call('x', '2026-12-07T10:00:01Z', ['A'], { jobId: 'job2' }))).toBe(o);
    expect(applyCall(o, WF, call('x', '2026-12-07T10:00:01Z', ['A'], { jobId: null }))).toBe(o); // not a test run
  });
});

describe("a test run's path", () => {
  it('is the steps and edges its call went through', () => {
    let o = seedOverlay(activity({ isTest: true }));
    o = applyCall(o, WF, call('t', '2026-12-07T10:00:01Z', ['start', 'hello', 'cp', 'yes'], { jobId: null }));
    const p = testPath(o);
    expect([...p.nodes]).toEqual(['start', 'hello', 'cp', 'yes']);
    expect([...p.edges]).toEqual(['start>hello', 'hello>cp', 'cp>yes']);
    // Another call without a job (an inbound call) is not the test run's.
    expect(applyCall(o, WF, call('in', '2026-12-07T10:00:02Z', ['start'], { jobId: null }))).toBe(o);
  });

  it('is empty for a run over contacts', () => {
    const o = applyCall(seedOverlay(activity()), WF, call('c1', '2026-12-07T10:00:01Z', ['A', 'B']));
    expect(testPath(o).nodes.size).toBe(0);
  });
});
