import type { GNode, Graph } from '../graph';
import { addAfter, addPath, moveNodes, seedGraph, tidy } from './editor';
import { CONTROLS_SIZE, controlsCorner, layoutGraph, MIN_SCREEN_TEXT_PX, MINIMAP_SIZE, minimapCorner, OPENING_TOP_MARGIN, openingGraph, openingViewport, READABLE_ZOOM, readsBottomToTop, RELAYOUT_ON_OPEN_LIMIT } from './layout';
import { specOf } from './nodes/registry';
import { SMALLEST_CARD_TEXT_PX } from './nodes/types';

const byType = (g: Graph, type: string) => g.nodes.find((n) => n.type === type)!;
const byId = (g: Graph, id: string) => g.nodes.find((n) => n.id === id)!;
const bottom = (n: GNode) => n.position.y + specOf(n.type).height;

/** Start → Agent → Conditional Path with two paths → each an End Call: the shape of a template. */
function branched(type: 'inbound' | 'outbound' = 'inbound'): { g: Graph; agent: string; cp: string } {
  const seed = seedGraph(type);
  const a = addAfter(seed, byType(seed, 'start').id, 'agent');
  const c = addAfter(a.graph, a.added, 'conditional-path');
  let g = c.graph;
  for (const e of g.edges.filter((x) => x.source === c.added)) g = addAfter(g, e.target, 'end-call').graph;
  return { g, agent: a.added, cp: c.added };
}

/** A chain of `n` agents after Start (too tall to read whole on any screen). */
function chain(n: number, type: 'inbound' | 'outbound' = 'inbound'): Graph {
  let g = seedGraph(type);
  let last = byType(g, 'start').id;
  for (let i = 0; i < n; i++) {
    const r = addAfter(g, last, 'agent');
    g = r.graph;
    last = r.added;
  }
  return g;
}

/** A graph turned upside down, as flows were stored before issue 23. */
function upsideDown(g: Graph): Graph {
  return { ...g, nodes: g.nodes.map((n) => ({ ...n, position: { x: n.position.x, y: -bottom(n) } })) };
}

describe('layout', () => {
  test('flows read top to bottom: every edge goes down, branches sit side by side', () => {
    const { g, cp } = branched();
    for (const e of g.edges) {
      const s = byId(g, e.source);
      const t = byId(g, e.target);
      if (s.type === 'invisible') continue;
      expect(t.position.y, `${s.type} → ${t.type}`).toBeGreaterThan(bottom(s));
    }
    const [a, b] = g.edges.filter((e) => e.source === cp).map((e) => byId(g, e.target));
    expect(a!.position.y).toBe(b!.position.y);
    expect(Math.abs(a!.position.x - b!.position.x)).toBeGreaterThanOrEqual(specOf('customer-response').width);
    expect(readsBottomToTop(g)).toBe(false);
  });

  test("a Conditional Path's branches read left to right in the order they were added", () => {
    const seed = seedGraph('inbound');
    const { graph, added: cp } = addAfter(seed, byType(seed, 'start').id, 'conditional-path');
    let g = addPath(addPath(graph, cp).graph, cp).graph;
    for (const e of g.edges.filter((x) => x.source === cp)) {
      const r = addAfter(g, e.target, 'agent');
      g = addAfter(r.graph, r.added, 'end-call').graph;
    }
    const xs = g.edges.filter((e) => e.source === cp).map((e) => byId(g, e.target).position.x);
    expect(xs).toHaveLength(4);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  });

  test('the Contacts card sits on the top row, left of Start, above the rest of the flow', () => {
    const { g } = branched('outbound');
    const contacts = byType(g, 'contacts');
    const start = byType(g, 'start');
    expect(contacts.position.x + specOf('contacts').width).toBeLessThan(start.position.x);
    expect(contacts.position.y).toBeLessThan(start.position.y);
    expect(bottom(contacts)).toBe(bottom(start));
    for (const n of g.nodes) if (!['start', 'contacts', 'invisible'].includes(n.type)) expect(n.position.y).toBeGreaterThan(bottom(contacts));
  });

  test('Tidy up keeps the order: Start at the top, End Calls at the bottom', () => {
    const { g, agent } = branched();
    const moved = moveNodes(g, new Map([[agent, { x: 2000, y: -3000 }]]));
    const tidied = tidy(moved);
    const start = byType(tidied, 'start');
    for (const n of tidied.nodes) if (n.type !== 'start' && n.type !== 'invisible') expect(n.position.y).toBeGreaterThan(start.position.y);
    expect(readsBottomToTop(tidied)).toBe(false);
  });
});

describe('opening a stored flow', () => {
  test('a flow stored bottom-to-top with nothing placed by hand is laid out again', () => {
    const { g } = branched();
    const old = upsideDown(g);
    expect(readsBottomToTop(old)).toBe(true);
    const opened = openingGraph(old);
    expect(opened).toEqual(layoutGraph(old));
    expect(readsBottomToTop(opened)).toBe(false);
    // deterministic: opening it twice gives the same positions
    expect(openingGraph(old)).toEqual(opened);
  });

  test('a flow stored bottom-to-top with cards placed by hand is mirrored, keeping its shape', () => {
    const { g, agent } = branched();
    const old = upsideDown(moveNodes(g, new Map([[agent, { x: 900, y: byId(g, agent).position.y }]])));
    const opened = openingGraph(old);
    expect(readsBottomToTop(opened)).toBe(false);
    for (const n of opened.nodes) expect(n.position.x).toBe(byId(old, n.id).position.x);
    expect(byType(opened, 'start').position.y).toBeLessThan(byId(opened, agent).position.y);
  });

  test('a big flow stored bottom-to-top is mirrored (laying out hundreds of steps would hold up the opening)', () => {
    // Start and 60 agents one above the other, as stored before issue 23 (built directly: through
    // the editor each step would be laid out again).
    const nodes: GNode[] = [{ id: 'start', type: 'start', position: { x: 113, y: 0 }, data: {}, flow_meta: {} }];
    for (let i = 1; i <= RELAYOUT_ON_OPEN_LIMIT; i++) nodes.push({ id: `a${i}`, type: 'agent', position: { x: 0, y: -i * 606 }, data: {}, flow_meta: {} });
    const edges = nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: nodes[i]!.id, target: n.id, sourceHandle: null, targetHandle: null, type: 'add-step', edge_meta: {} }));
    const big: Graph = { nodes, edges };
    expect(big.nodes.length).toBeGreaterThan(RELAYOUT_ON_OPEN_LIMIT);
    const opened = openingGraph(big);
    expect(readsBottomToTop(opened)).toBe(false);
    for (const n of opened.nodes) expect(n.position.x).toBe(byId(big, n.id).position.x);
  });

  test('a flow stored top to bottom opens as stored', () => {
    const { g } = branched();
    expect(openingGraph(g)).toBe(g);
  });
});

describe('the opening view', () => {
  test('the readable zoom makes the smallest card text 12 px on screen', () => {
    expect(MIN_SCREEN_TEXT_PX).toBe(12);
    expect(READABLE_ZOOM * SMALLEST_CARD_TEXT_PX).toBeGreaterThanOrEqual(12);
  });

  test('a flow that reads whole on screen is fitted, never blown up past its real size', () => {
    const g = chain(1);
    const v = openingViewport(g, 1200, 700);
    expect(v.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(v.zoom).toBeLessThanOrEqual(1);
    // every card is on screen
    for (const n of g.nodes) {
      if (n.type === 'invisible') continue;
      const { width, height } = specOf(n.type);
      expect(n.position.x * v.zoom + v.x).toBeGreaterThanOrEqual(0);
      expect(n.position.y * v.zoom + v.y).toBeGreaterThanOrEqual(0);
      expect((n.position.x + width) * v.zoom + v.x).toBeLessThanOrEqual(1200);
      expect((n.position.y + height) * v.zoom + v.y).toBeLessThanOrEqual(700);
    }
  });

  for (const [width, height] of [
    [1200, 650],
    [358, 520],
  ] as const) {
    test(`a flow too big to read whole opens on Start at the readable zoom (${width}x${height})`, () => {
      const g = chain(8);
      const v = openingViewport(g, width, height);
      expect(v.zoom).toBe(READABLE_ZOOM);
      const start = byType(g, 'start');
      const { width: w, height: h } = specOf('start');
      expect((start.position.x + w / 2) * v.zoom + v.x).toBeCloseTo(width / 2);
      expect(start.position.y * v.zoom + v.y).toBe(OPENING_TOP_MARGIN);
      expect((start.position.y + h) * v.zoom + v.y).toBeLessThanOrEqual(height);
    });
  }

  test('an outbound flow opens with Start, the step after it and (when they fit across) the Contacts card whole', () => {
    const g = chain(8, 'outbound');
    const start = byType(g, 'start');
    const next = g.nodes.find((n) => n.id === g.edges.find((e) => e.source === start.id)?.target)!;
    // 936x500 is the canvas of a 1280x800 window; 358x520 a phone's
    for (const [width, height] of [
      [1200, 650],
      [936, 500],
      [358, 520],
    ] as const) {
      const v = openingViewport(g, width, height);
      expect(v.zoom).toBe(READABLE_ZOOM);
      const contacts = byType(g, 'contacts');
      const contactsLeft = contacts.position.x * v.zoom + v.x;
      if (width >= 936) expect(contactsLeft).toBeGreaterThanOrEqual(0); // the row and the next step fit across
      else expect((start.position.x + specOf('start').width / 2) * v.zoom + v.x).toBeCloseTo(width / 2);
      expect(start.position.x * v.zoom + v.x).toBeGreaterThanOrEqual(0);
      expect((start.position.x + specOf('start').width) * v.zoom + v.x).toBeLessThanOrEqual(width);
      expect(start.position.y * v.zoom + v.y).toBeGreaterThanOrEqual(0);
      expect((start.position.y + specOf('start').height) * v.zoom + v.y).toBeLessThanOrEqual(height);
      if (specOf(next.type).width * v.zoom <= width) {
        expect(next.position.x * v.zoom + v.x).toBeGreaterThanOrEqual(0);
        expect((next.position.x + specOf(next.type).width) * v.zoom + v.x).toBeLessThanOrEqual(width);
      }
      expect(next.position.y * v.zoom + v.y).toBeLessThan(height);
    }
  });
});

describe('the minimap', () => {
  const covers = (g: Graph, corner: string, v: { x: number; y: number; zoom: number }, width: number, height: number, size = MINIMAP_SIZE) => {
    const box = {
      x: corner.endsWith('left') ? 15 : width - 15 - size.width,
      y: corner.startsWith('top') ? 15 : height - 15 - size.height,
    };
    return g.nodes
      .filter((n) => n.type !== 'invisible')
      .some((n) => {
        const { width: w, height: h } = specOf(n.type);
        const x = n.position.x * v.zoom + v.x;
        const y = n.position.y * v.zoom + v.y;
        return x < box.x + size.width && x + w * v.zoom > box.x && y < box.y + size.height && y + h * v.zoom > box.y;
      });
  };

  test('the minimap and the zoom controls take corners that cover no card at the opening view', () => {
    for (const [width, height] of [
      [1200, 650],
      [936, 500],
      [936, 450],
    ] as const)
      for (const g of [chain(8), chain(8, 'outbound'), branched().g, branched('outbound').g, seedGraph('outbound')]) {
        const v = openingViewport(g, width, height);
        const corner = minimapCorner(g, v, width, height);
        expect(covers(g, corner, v, width, height), corner).toBe(false);
        const controls = controlsCorner(g, v, width, height, corner);
        expect(controls).not.toBe(corner);
        expect(covers(g, controls, v, width, height, CONTROLS_SIZE), controls).toBe(false);
      }
  });

  test('moves away from a card in the top-right corner', () => {
    const g = chain(1);
    const v = { x: 1200 - 100 - 386 * 0 - 50, y: 0, zoom: 1 };
    // a card straddling the top-right corner
    const first = g.nodes.find((n) => n.type === 'agent')!;
    const placed: Graph = { ...g, nodes: g.nodes.map((n) => (n.id === first.id ? { ...n, position: { x: -v.x + 1200 - 200, y: 0 } } : n)) };
    expect(covers(placed, 'top-right', v, 1200, 650)).toBe(true);
    const corner = minimapCorner(placed, v, 1200, 650);
    expect(corner).not.toBe('top-right');
    expect(covers(placed, corner, v, 1200, 650)).toBe(false);
  });
});
