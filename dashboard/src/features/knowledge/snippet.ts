// The search endpoint wraps each word it found in `**` (Markdown bold) inside a plain-text
// snippet. The snippet is the team's own document text, so it is never parsed as HTML: it is
// split on the markers into plain segments that React renders as text, the found ones in <mark>.

export interface SnippetPart {
  text: string;
  hit: boolean;
}

export const HIT_MARKER = '**';

export function snippetParts(snippet: string): SnippetPart[] {
  const pieces = snippet.split(HIT_MARKER);
  // An odd number of markers leaves the last one unpaired: its text is not a hit.
  const paired = pieces.length % 2 === 1;
  const parts: SnippetPart[] = [];
  pieces.forEach((text, i) => {
    let hit = i % 2 === 1;
    if (!paired && i === pieces.length - 1) {
      hit = false;
      text = (i > 0 ? HIT_MARKER : '') + text;
    }
    if (text === '') return;
    const last = parts.at(-1);
    if (last && last.hit === hit) last.text += text;
    else parts.push({ text, hit });
  });
  return parts;
}
