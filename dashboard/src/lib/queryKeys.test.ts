import { describe, expect, it } from 'vitest';

// Query keys come from factories: the generated get…QueryKey helpers or a feature's queries.ts.
// A key written out by hand drifts from the one the factory builds, and its invalidation
// silently stops matching.
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../api/gen/**', '!../**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });

const LITERAL_KEY = /(?:queryKey|mutationKey)\s*:\s*\[\s*['"`]/;

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
});
