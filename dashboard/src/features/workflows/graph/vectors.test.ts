// Runs the shared vectors of testdata/graphs (format: testdata/graphs/README.md) against the
// editor's rules: the same cases `go test ./server/workflow` runs.
import { deleteNode, parseGraph, prepare, validate, type WorkflowType } from './index';

const vectors = import.meta.glob<Vector>('../../../../../testdata/graphs/*.json', { eager: true, import: 'default' });
const files = Object.keys(vectors).sort();

interface Vector {
  description: string;
  workflowType: WorkflowType;
  deleteNode?: string;
  input: { nodes?: unknown[]; edges?: unknown[] };
  expected: Record<string, unknown>;
}

const findings = (vs: { field: string; rule: string }[]) => vs.map(({ field, rule }) => ({ field, rule }));

function run(v: Vector): Record<string, unknown> {
  let g = parseGraph(v.input);
  if (v.deleteNode) g = deleteNode(g, v.deleteNode);
  const res = prepare(g, v.workflowType);
  if (!('graph' in res)) return { errors: findings(res.errors) };
  const out: Record<string, unknown> = { errors: [], normalized: res.graph };
  if (res.changes.length) out['changes'] = res.changes;
  const violations = validate(res.graph, v.workflowType);
  if (violations.length) out['violations'] = findings(violations);
  return out;
}

test('there are at least 30 shared vectors', () => {
  expect(files.length).toBeGreaterThanOrEqual(30);
});

describe.each(files)('%s', (file: string) => {
  test('matches the expected result', () => {
    const v = vectors[file]!;
    expect(run(v), v.description).toEqual(v.expected);
  });
});
