import { describe, expect, it } from 'vitest';

import { faqErrors, faqFromEntries, moveEntry, orderedFaq, parseFaqKey } from './faq';

describe('FAQ ordering', () => {
  it('reads the bracketed number and strips it from the question', () => {
    expect(parseFaqKey('[12] Do you deliver?')).toEqual({ order: 12, question: 'Do you deliver?' });
    expect(parseFaqKey('Opening hours?')).toEqual({ order: null, question: 'Opening hours?' });
    expect(parseFaqKey('Is [1] a price?')).toEqual({ order: null, question: 'Is [1] a price?' });
  });

  it('puts numbered questions first by number (not text order), then the rest alphabetically', () => {
    const list = orderedFaq({
      'Where are you?': 'Main street',
      '[10] Refunds?': 'Within 30 days',
      '[2] Hours?': '9 to 5',
      'Anything else?': 'Ask us',
      '[1] Delivery?': 'Yes',
    });
    expect(list.map((e) => e.question)).toEqual(['Delivery?', 'Hours?', 'Refunds?', 'Anything else?', 'Where are you?']);
    expect(list[2]!.answer).toBe('Within 30 days');
  });

  it('saves the list as shown, numbered from 1, without blank rows', () => {
    expect(
      faqFromEntries([
        { question: ' Hours? ', answer: '9 to 5' },
        { question: '', answer: '' },
        { question: 'Delivery?', answer: 'Yes' },
      ]),
    ).toEqual({ '[1] Hours?': '9 to 5', '[2] Delivery?': 'Yes' });
  });

  it('round-trips: what is saved reads back in the same order', () => {
    const entries = [
      { question: 'Zebra?', answer: 'z' },
      { question: 'Apple?', answer: 'a' },
    ];
    expect(orderedFaq(faqFromEntries(entries))).toEqual(entries);
  });

  it('moves a row up and down, staying in range', () => {
    expect(moveEntry(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveEntry(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveEntry(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveEntry(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c']);
  });

  it('names half-filled rows and questions asked twice', () => {
    const errors = faqErrors([
      { question: 'Hours?', answer: '9 to 5' },
      { question: 'hours?', answer: 'again' },
      { question: '', answer: 'orphan' },
      { question: 'No answer?', answer: ' ' },
      { question: '', answer: '' },
    ]);
    expect([...errors.keys()]).toEqual([1, 2, 3]);
    expect(errors.get(1)).toBe('This question is already number 1.');
  });
});
