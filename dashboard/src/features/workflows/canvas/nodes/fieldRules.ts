import { badData, type Data, type Kind } from '../../graph';

/** The graph rules' verdict on one node's data, as field → message (at most one). */
export function dataProblems(kind: Kind, data: Data): Record<string, string> {
  const bad = badData({ id: 'draft', type: kind, position: { x: 0, y: 0 }, data, flow_meta: {} });
  return bad ? { [bad.field]: bad.message } : {};
}
