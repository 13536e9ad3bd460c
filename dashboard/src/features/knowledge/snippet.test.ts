import { describe, expect, it } from 'vitest';

import { snippetParts } from './snippet';

describe('search snippets', () => {
  it('splits on the ** markers the server puts around found words', () => {
    expect(snippetParts('We **deliver** parcels on **Saturdays** between nine and one.')).toEqual([
      { text: 'We ', hit: false },
      { text: 'deliver', hit: true },
      { text: ' parcels on ', hit: false },
      { text: 'Saturdays', hit: true },
      { text: ' between nine and one.', hit: false },
    ]);
  });

  it('keeps markup in the text as text (it is rendered by React, never as HTML)', () => {
    expect(snippetParts('<img src=x onerror=alert(1)> **found**')).toEqual([
      { text: '<img src=x onerror=alert(1)> ', hit: false },
      { text: 'found', hit: true },
    ]);
  });

  it('handles a hit at either end, adjacent hits and an unpaired marker', () => {
    expect(snippetParts('**refund** … **policy**')).toEqual([
      { text: 'refund', hit: true },
      { text: ' … ', hit: false },
      { text: 'policy', hit: true },
    ]);
    expect(snippetParts('**a****b**')).toEqual([{ text: 'ab', hit: true }]);
    expect(snippetParts('price **low** and a ** alone')).toEqual([
      { text: 'price ', hit: false },
      { text: 'low', hit: true },
      { text: ' and a ** alone', hit: false },
    ]);
    expect(snippetParts('')).toEqual([]);
    expect(snippetParts('no hits')).toEqual([{ text: 'no hits', hit: false }]);
  });
});
