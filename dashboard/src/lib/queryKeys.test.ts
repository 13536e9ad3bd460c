import { describe, expect, it } from 'vitest';

import { getGetCallStatisticsQueryKey, getListCallLogsQueryKey } from '../api/gen/calls/calls';
import { getDownloadRejectedContactsQueryKey, getExportJobCallsQueryKey, getGetWorkflowCsvQueryKey, getGetWorkflowProgressUrl, getGetWorkflowQueryKey, getListWorkflowHistoryQueryKey, getListWorkflowsQueryKey } from '../api/gen/workflows/workflows';
import { madeBy, pathPattern } from './queryKeys';

// Query keys come from factories: the generated get…QueryKey helpers or a feature's queries.ts.
// A key written out by hand drifts from the one the factory builds, and its invalidation
// silently stops matching.
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../api/gen/**', '!../**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });

const LITERAL_KEY = /(?:queryKey|mutationKey)\s*:\s*\[\s*['"`]/;
// A cached query matched by a path typed out (`q.queryKey[0].startsWith('/v1/call/')`): madeBy(helper) says it from the generated helper.
const TYPED_PATH = /startsWith\(\s*['"`]\/v\d/;

describe('query keys', () => {
  it('reads the application sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(40);
  });

  it('are never written as literals', () => {
    const offenders = Object.entries(sources).flatMap(([file, text]) =>
      text.split('\n').flatMap((line, i) => (LITERAL_KEY.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('are never matched by a path typed out', () => {
    const offenders = Object.entries(sources).flatMap(([file, text]) =>
      text.split('\n').flatMap((line, i) => (TYPED_PATH.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});

describe('madeBy', () => {
  const key = (queryKey: readonly unknown[]) => ({ queryKey });

  it('matches every query of an operation, whatever its ids and params', () => {
    const csv = madeBy(getGetWorkflowCsvQueryKey);
    expect(csv(key(getGetWorkflowCsvQueryKey('n1', { workflowId: 'w1', page: 2, pageSize: 10 })))).toBe(true);
    expect(csv(key(getGetWorkflowCsvQueryKey('0b4c6f0e-1d2a-4a7e-9a51-5d3e2f1c0b9a')))).toBe(true);
  });

  it('does not match another operation that shares the start of its path', () => {
    const workflow = madeBy(getGetWorkflowQueryKey);
    expect(workflow(key(getGetWorkflowQueryKey('w1')))).toBe(true);
    expect(workflow(key(getGetWorkflowCsvQueryKey('n1')))).toBe(false);
    expect(workflow(key(getDownloadRejectedContactsQueryKey('n1')))).toBe(false);
    expect(workflow(key(getListWorkflowHistoryQueryKey('w1')))).toBe(false);
    expect(madeBy(getGetWorkflowCsvQueryKey)(key(getDownloadRejectedContactsQueryKey('n1')))).toBe(false);
  });

  it('takes operations without path ids, several helpers at once, and URL helpers', () => {
    const some = madeBy(getListWorkflowsQueryKey, getListCallLogsQueryKey, getGetWorkflowProgressUrl);
    expect(some(key(getListWorkflowsQueryKey({ organizationId: 't1', page: 1, sizePerPage: 10 })))).toBe(true);
    expect(some(key(getListCallLogsQueryKey()))).toBe(true);
    expect(some(key([getGetWorkflowProgressUrl('w1')]))).toBe(true);
    expect(some(key(getGetCallStatisticsQueryKey('t1')))).toBe(false);
    expect(some(key([42]))).toBe(false);
  });

  it('reads the path as written: a dot is a dot, an id one segment', () => {
    const pattern = pathPattern(getExportJobCallsQueryKey);
    expect(pattern.test(getExportJobCallsQueryKey('j1')[0])).toBe(true);
    expect(pattern.test('/v1/workflow/job/j1/callsXcsv')).toBe(false);
    expect(pattern.test('/v1/workflow/job/j1/more/calls.csv')).toBe(false);
  });
});
