import { HISTORY_LIMIT, MERGE_WINDOW_MS, record, redo, start, undo } from './history';

describe('undo history', () => {
  test('undo and redo step through the edits; a new edit forgets what was undone', () => {
    let h = start('a');
    h = record(h, 'b');
    h = record(h, 'c');
    h = undo(h);
    expect(h.present).toBe('b');
    h = undo(h);
    expect(h.present).toBe('a');
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe('b');
    h = record(h, 'd');
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    expect(undo(h).present).toBe('b');
  });

  test('recording the present again is no edit', () => {
    const h = record(start('a'), 'b');
    expect(record(h, 'b')).toBe(h);
  });

  test('a burst of edits with one merge key is one undo step; a pause or another key starts a new one', () => {
    let h = start(0);
    h = record(h, 1, { merge: 'nudge', now: 1000 });
    h = record(h, 2, { merge: 'nudge', now: 1200 });
    h = record(h, 3, { merge: 'nudge', now: 1400 });
    expect(h.past).toEqual([0]);
    expect(undo(h).present).toBe(0);
    h = record(h, 4, { merge: 'nudge', now: 1400 + MERGE_WINDOW_MS });
    expect(h.past).toEqual([0, 3]);
    h = record(h, 5, { merge: 'other', now: 1400 + MERGE_WINDOW_MS + 1 });
    expect(h.past).toEqual([0, 3, 4]);
    h = record(h, 6, { now: 1400 + MERGE_WINDOW_MS + 2 });
    expect(h.past).toEqual([0, 3, 4, 5]);
  });

  test('the history keeps the last HISTORY_LIMIT edits', () => {
    let h = start(0);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) h = record(h, i);
    expect(h.past).toHaveLength(HISTORY_LIMIT);
    expect(h.past[0]).toBe(20);
  });
});
