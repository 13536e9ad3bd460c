import type { Graph } from '../graph';
import type { EdgeActions } from './AddStepEdge';
import { menuItemsFor } from './CanvasMenu';
import type { CanvasActions } from './context';
import { addAfter, seedGraph } from './editor';

function setup(g: Graph) {
  const actions: CanvasActions = { edit: vi.fn(), remove: vi.fn(), addAfter: vi.fn(), deleteIncoming: vi.fn(), addPath: vi.fn(), patchData: vi.fn(), focus: vi.fn(), usedSources: new Set(g.edges.map((e) => e.source)), hasIncoming: new Set(), workflowId: 'w1', readOnly: false, problems: new Map() };
  const edgeActions: EdgeActions = { onPlus: vi.fn(), readOnly: false };
  const run = { actions, edgeActions, duplicate: vi.fn(), deleteEdge: vi.fn(), fit: vi.fn(), tidy: vi.fn() };
  return { run, items: (kind: 'node' | 'edge' | 'pane', id: string) => menuItemsFor({ kind, id, x: 0, y: 0 }, g, run) };
}

describe('the canvas context menu', () => {
  test('a step: Edit, Duplicate, Add a step after, Delete, each running its action', () => {
    const seed = seedGraph('inbound');
    const { graph, added } = addAfter(seed, seed.nodes[0]!.id, 'agent');
    const { run, items } = setup(graph);
    const menu = items('node', added);
    expect(menu.map((i) => i.label)).toEqual(['Edit', 'Duplicate', 'Add a step after', 'Delete']);
    expect(menu.every((i) => !i.disabled)).toBe(true);
    menu.find((i) => i.label === 'Duplicate')!.onSelect();
    expect(run.duplicate).toHaveBeenCalledWith([added]);
    menu.find((i) => i.label === 'Delete')!.onSelect();
    expect(run.actions.remove).toHaveBeenCalledWith(added);
  });

  test('Start cannot be duplicated or deleted, and once followed it takes no second step', () => {
    const seed = seedGraph('inbound');
    const start = seed.nodes.find((n) => n.type === 'start')!;
    const { graph } = addAfter(seed, start.id, 'agent');
    const menu = setup(graph).items('node', start.id);
    const disabled = Object.fromEntries(menu.map((i) => [i.label, !!i.disabled]));
    expect(disabled).toEqual({ Edit: true, Duplicate: true, 'Add a step after': true, Delete: true });
  });

  test('a connection: Insert a step here, Delete connection', () => {
    const seed = seedGraph('inbound');
    const { graph } = addAfter(seed, seed.nodes[0]!.id, 'agent');
    const { run, items } = setup(graph);
    const id = graph.edges[0]!.id;
    const menu = items('edge', id);
    expect(menu.map((i) => i.label)).toEqual(['Insert a step here', 'Delete connection']);
    menu[0]!.onSelect();
    expect(run.edgeActions.onPlus).toHaveBeenCalledWith(id);
    menu[1]!.onSelect();
    expect(run.deleteEdge).toHaveBeenCalledWith(id);
  });

  test('a connection from a conditional path adds a path, as its plus does', () => {
    const seed = seedGraph('inbound');
    const { graph, added } = addAfter(seed, seed.nodes[0]!.id, 'conditional-path');
    const branch = graph.edges.find((e) => e.source === added)!;
    expect(setup(graph).items('edge', branch.id).map((i) => i.label)).toEqual(['Add a path', 'Delete connection']);
  });
});
