import { describe, expect, it } from 'vitest';

// The dashboard's layers, lowest first: api/ (generated client, mutator, session), then lib/ and
// components/ (shared code and the design system), then features/<area>/ (screens and their
// queries), then app/ (routes and the signed-in shell that puts the features together). A layer
// imports only from its own level or below; test/ (helpers that render the whole app) and
// main.tsx may import anything. Tests are held to the same rules as the code they sit beside.
const sources = import.meta.glob<string>(['./**/*.{ts,tsx}', '!./api/gen/**'], { query: '?raw', import: 'default', eager: true });

/** Which top-level folders each layer may not import from. */
const MAY_NOT_IMPORT: Readonly<Record<string, readonly string[]>> = {
  api: ['lib', 'components', 'features', 'app'],
  lib: ['features', 'app'],
  components: ['features', 'app'],
  features: ['app'],
};

interface Import {
  /** The specifier as written. */
  spec: string;
  /** The file it names, as a glob key ('./features/auth/queries'), without an extension. */
  target: string;
  /** A static import (a dynamic import() loads later and makes no cycle at load time). */
  static: boolean;
}

const STATIC = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC = /\b(?:import|vi\.mock|vi\.importActual)\s*\(\s*['"]([^'"]+)['"]/g;

function join(file: string, spec: string): string {
  const parts = file.split('/').slice(0, -1);
  for (const part of spec.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/').replace(/\.(tsx?|jsx?|mjs)$/, '');
}

/** The relative imports of one file (package imports are not layers), comment lines left out. */
export function importsOf(file: string, text: string): Import[] {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .join('\n');
  const found: Import[] = [];
  for (const [re, isStatic] of [
    [STATIC, true],
    [DYNAMIC, false],
  ] as const) {
    for (const m of code.matchAll(re)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) found.push({ spec, target: join(file, spec), static: isStatic });
    }
  }
  return found;
}

function layerOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1]! : '';
}

/** "<file> imports '<spec>': <layer> may not import from <layer>/" for each import the wrong way. */
export function wrongWayImports(files: Readonly<Record<string, string>>): string[] {
  return Object.entries(files).flatMap(([file, text]) => {
    const layer = layerOf(file);
    const banned = MAY_NOT_IMPORT[layer] ?? [];
    return importsOf(file, text)
      .filter((i) => banned.includes(layerOf(i.target)))
      .map((i) => `${file} imports '${i.spec}': ${layer}/ may not import from ${layerOf(i.target)}/`);
  });
}

const QUERIES = /^\.\/features\/[^/]+\/queries$/;

/** Each cycle of static imports that leaves a feature's queries.ts and comes back to it, as "a → b → a". */
export function queriesCycles(files: Readonly<Record<string, string>>): string[] {
  const graph = new Map<string, string[]>();
  for (const [file, text] of Object.entries(files)) {
    const from = file.replace(/\.tsx?$/, '');
    graph.set(from, [...new Set(importsOf(file, text).filter((i) => i.static).map((i) => i.target))]);
  }
  const cycles = new Set<string>();
  for (const start of graph.keys()) {
    if (!QUERIES.test(start)) continue;
    // Breadth first, so the cycle reported is a shortest one.
    const parent = new Map<string, string>();
    const queue = [start];
    let closedBy: string | undefined;
    while (queue.length > 0 && closedBy === undefined) {
      const node = queue.shift()!;
      for (const next of graph.get(node) ?? []) {
        if (next === start) {
          closedBy = node;
          break;
        }
        if (!parent.has(next) && graph.has(next)) {
          parent.set(next, node);
          queue.push(next);
        }
      }
    }
    if (closedBy === undefined) continue;
    const path = [start];
    for (let n: string | undefined = closedBy; n !== undefined && n !== start; n = parent.get(n)) path.splice(1, 0, n);
    // The same cycle seen from each of its queries.ts files is reported once, from its first in order.
    const members = path.filter((p) => QUERIES.test(p)).sort();
    if (members.length > 1 && members[0] !== start) continue;
    cycles.add([...path, start].map((p) => `${p.slice(2)}.ts`).join(' → '));
  }
  return [...cycles];
}

describe('the layers of the dashboard', () => {
  it('reads the sources, tests included', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    expect(Object.keys(sources)).toContain('./app/liveEvents.test.tsx');
    // The routes reach every feature, statically and lazily.
    const routes = importsOf('./app/App.tsx', sources['./app/App.tsx']!);
    expect(routes.filter((i) => i.target.startsWith('./features/') && !i.static).length).toBeGreaterThan(20);
    expect(routes.some((i) => i.target === './features/auth/RequireAuth' && i.static)).toBe(true);
  });

  it('finds imports written any way: named, typed, re-exported, side-effect, multi-line, lazy and mocked', () => {
    const text = [
      "import { a } from '../features/x/queries';",
      "import type { B } from '../app/App';",
      "export { c } from './c';",
      "import '../index.css';",
      'import {',
      '  d,',
      "} from '../api/session';",
      "const P = lazy(() => import('../features/y/Page'));",
      "vi.mock('../features/z/queries');",
      "// import { gone } from '../features/w/queries';",
      "import { useState } from 'react';",
    ].join('\n');
    expect(importsOf('./lib/x.ts', text).map((i) => [i.target, i.static])).toEqual([
      ['./features/x/queries', true],
      ['./app/App', true],
      ['./lib/c', true],
      ['./index.css', true],
      ['./api/session', true],
      ['./features/y/Page', false],
      ['./features/z/queries', false],
    ]);
  });

  it('names the file and the import of a wrong-way import', () => {
    expect(
      wrongWayImports({
        './components/Shell.tsx': "import { signOut } from '../features/auth/queries';",
        './lib/live.ts': "const m = import('../app/liveEvents');",
        './features/team/Home.tsx': "import { routes } from '../../app/App';\nimport { cn } from '../../lib/cn';",
        './app/App.tsx': "import { RequireAuth } from '../features/auth/RequireAuth';",
      }),
    ).toEqual([
      "./components/Shell.tsx imports '../features/auth/queries': components/ may not import from features/",
      "./lib/live.ts imports '../app/liveEvents': lib/ may not import from app/",
      "./features/team/Home.tsx imports '../../app/App': features/ may not import from app/",
    ]);
  });

  it('names each cycle between features’ queries.ts once, also through another file', () => {
    expect(
      queriesCycles({
        './features/a/queries.ts': "import { b } from '../b/queries';",
        './features/b/queries.ts': "import { c } from '../c/helpers';",
        './features/c/helpers.ts': "import { a } from '../a/queries';",
        './features/d/queries.ts': "import { a } from '../a/queries';\nconst lazy = () => import('../d/Page');",
        './features/d/Page.tsx': "import { d } from './queries';",
      }),
    ).toEqual(['features/a/queries.ts → features/b/queries.ts → features/c/helpers.ts → features/a/queries.ts']);
  });

  it('has no import the wrong way', () => {
    expect(wrongWayImports(sources)).toEqual([]);
  });

  it('has no import cycle through a feature’s queries.ts', () => {
    expect(queriesCycles(sources)).toEqual([]);
  });
});
