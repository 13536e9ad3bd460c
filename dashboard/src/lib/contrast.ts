// WCAG 2 contrast of two colours, and the design tokens of a stylesheet by theme, so a test can
// hold the colours of `src/index.css` to a ratio (3:1 for non-text parts, 4.5:1 for text).

/** A `#rgb` or `#rrggbb` colour as 0–255 channels. */
export function parseHex(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a hex colour: ${hex}`);
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two hex colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The custom properties a stylesheet sets for one theme: `light` merges every `@theme` block,
 * `dark` every `.dark` block over the light ones (what `.dark` on <html> sees).
 */
export function themeTokens(css: string, theme: 'light' | 'dark'): Map<string, string> {
  const blocks = topLevelBlocks(css);
  const out = new Map<string, string>();
  for (const wanted of theme === 'light' ? ['@theme'] : ['@theme', '.dark'])
    for (const b of blocks) {
      if (b.selector !== wanted && !b.selector.startsWith(wanted + ' ')) continue;
      for (const d of outerText(b.body).matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) out.set(d[1]!, d[2]!.trim());
    }
  return out;
}

/** The top-level rules of a stylesheet (comments dropped): selector and body. */
function topLevelBlocks(css: string): { selector: string; body: string }[] {
  const text = css.replace(/\/\*[^]*?\*\//g, '');
  const out: { selector: string; body: string }[] = [];
  let depth = 0;
  let head = 0;
  let open = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) {
        out.push({ selector: text.slice(head, open).trim().split(/;\s*/).pop()!.trim(), body: text.slice(open + 1, i) });
        head = i + 1;
      }
    } else if (c === ';' && depth === 0) head = i + 1;
  }
  return out;
}

/** The text of a block outside the rules nested in it (its own declarations, not @keyframes'). */
function outerText(body: string): string {
  let depth = 0;
  let out = '';
  for (const c of body) {
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0) out += c;
  }
  return out;
}
