// The colour of every node kind reads on its card in both themes: 3:1 against the card surface
// (WCAG's non-text contrast), from the values in src/index.css itself.
import { contrastRatio, themeTokens } from '../../../../lib/contrast';
import { NODE_KINDS } from './registry';

// Read from disk: the test run does not load CSS (vite.config's `css: false` empties even `?raw`).
type Fs = { readFileSync: (path: string, encoding: 'utf8') => string };
const fs = (globalThis as unknown as { process: { getBuiltinModule: (id: string) => Fs } }).process.getBuiltinModule('node:fs');
const here = import.meta.url; // (through a name: Vite rewrites `new URL(…, import.meta.url)` to an asset path)
const css = fs.readFileSync(new URL('../../../../index.css', here).pathname, 'utf8');

const drawn = Object.values(NODE_KINDS).filter((k) => k.kind !== 'invisible');

describe.each(['light', 'dark'] as const)('node colours in the %s theme', (theme) => {
  const tokens = themeTokens(css, theme);
  const surface = tokens.get('--color-surface')!;

  test.each(drawn.map((k) => [k.kind, k] as const))('%s has its own token, at least 3:1 on the card', (kind, spec) => {
    expect(spec.color).toBe(`var(--color-node-${kind})`);
    const value = tokens.get(`--color-node-${kind}`);
    expect(value, `--color-node-${kind} is set`).toBeDefined();
    expect(contrastRatio(value!, surface)).toBeGreaterThanOrEqual(3);
  });

  test('no two kinds share a colour', () => {
    const values = drawn.map((k) => tokens.get(`--color-node-${k.kind}`));
    expect(new Set(values).size).toBe(values.length);
  });
});
