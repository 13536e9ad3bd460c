import { contrastRatio, parseHex, themeTokens } from './contrast';

describe('contrast', () => {
  test('reads hex colours in both lengths', () => {
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
    expect(parseHex('#4f46e5')).toEqual([79, 70, 229]);
    expect(() => parseHex('red')).toThrow();
  });

  test('gives the WCAG ratio either way round', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // #767676 on white is the known 4.54:1 grey
    expect(contrastRatio('#ffffff', '#767676')).toBeCloseTo(4.54, 2);
  });

  test('reads a theme’s tokens, the dark theme over the light one', () => {
    const css = '@theme {\n  --a: #111;\n  --b: #222;\n  @keyframes x { 0% { opacity: 1; } }\n}\n.dark {\n  --a: #eee;\n}\n@theme static {\n  --c: #333;\n}\n';
    expect(Object.fromEntries(themeTokens(css, 'light'))).toEqual({ '--a': '#111', '--b': '#222', '--c': '#333' });
    expect(Object.fromEntries(themeTokens(css, 'dark'))).toEqual({ '--a': '#eee', '--b': '#222', '--c': '#333' });
  });
});
