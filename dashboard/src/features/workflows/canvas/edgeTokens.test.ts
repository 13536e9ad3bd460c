// Edges must be seen: their stroke meets WCAG's non-text contrast (3:1) against the canvas in
// both themes, from the values in src/index.css itself (so changing a token can fail here).
/// <reference types="node" />
import { readFileSync } from 'node:fs';

import { contrastRatio, themeTokens } from '../../../lib/contrast';

// Read from disk (vitest runs in dashboard/): it turns CSS imports into empty modules, `?raw` ones too.
const css = readFileSync(`${process.cwd()}/src/index.css`, 'utf8');

describe('edge colours', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: an edge and a highlighted edge stand out from the canvas (>= 3:1)`, () => {
      const t = themeTokens(css, theme);
      const canvas = t.get('--color-canvas')!;
      for (const token of ['--color-edge', '--color-edge-active']) {
        const value = t.get(token);
        expect(value, `${token} in ${theme}`).toMatch(/^#/);
        expect(contrastRatio(value!, canvas), `${token} on ${canvas} in ${theme}`).toBeGreaterThanOrEqual(3);
      }
    });
  }

  test('React Flow draws edges, arrowheads and the background from these tokens', () => {
    expect(css).toMatch(/--xy-edge-stroke:\s*var\(--color-edge\)/);
    expect(css).toMatch(/--xy-background-color:\s*var\(--color-canvas\)/);
    expect(css).toMatch(/--xy-edge-stroke-width:\s*(\d+(\.\d+)?)/);
    expect(Number(/--xy-edge-stroke-width:\s*(\d+(\.\d+)?)/.exec(css)![1])).toBeGreaterThanOrEqual(1.5);
  });
});
