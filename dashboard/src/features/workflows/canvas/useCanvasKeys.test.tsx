import { renderHook } from '@testing-library/react';

import { NUDGE, NUDGE_LARGE, useCanvasKeys, type CanvasKeyHandlers } from './useCanvasKeys';

function setup(selected: string[] = ['a', 'b']) {
  const h: CanvasKeyHandlers = { undo: vi.fn(), redo: vi.fn(), remove: vi.fn(), selectedNow: () => selected, fit: vi.fn(), duplicate: vi.fn(), nudge: vi.fn(), escape: vi.fn(), openMenu: vi.fn() };
  const hook = renderHook(() => useCanvasKeys(h));
  return { h, unmount: hook.unmount };
}

function press(key: string, init: KeyboardEventInit = {}, target: Element = document.body): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(e);
  return e;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the canvas keyboard', () => {
  test('undo, redo, duplicate, fit and delete act on the selected steps', () => {
    const { h } = setup();
    press('z', { ctrlKey: true });
    press('z', { metaKey: true, shiftKey: true });
    press('y', { ctrlKey: true });
    expect(h.undo).toHaveBeenCalledTimes(1);
    expect(h.redo).toHaveBeenCalledTimes(2);
    expect(press('d', { ctrlKey: true }).defaultPrevented).toBe(true); // not the browser's bookmark
    expect(h.duplicate).toHaveBeenCalledWith(['a', 'b']);
    press('f');
    expect(h.fit).toHaveBeenCalled();
    press('Delete');
    expect(h.remove).toHaveBeenCalledWith('a');
    expect(h.remove).toHaveBeenCalledWith('b');
  });

  test('arrows nudge the selected steps, further with Shift; nothing selected, nothing moves', () => {
    const { h, unmount } = setup();
    press('ArrowLeft');
    press('ArrowDown', { shiftKey: true });
    expect(h.nudge).toHaveBeenNthCalledWith(1, ['a', 'b'], -NUDGE, 0);
    expect(h.nudge).toHaveBeenNthCalledWith(2, ['a', 'b'], 0, NUDGE_LARGE);
    unmount();
    const none = setup([]);
    expect(press('ArrowUp').defaultPrevented).toBe(false);
    expect(none.h.nudge).not.toHaveBeenCalled();
  });

  test('keys typed in a field or a panel are theirs; Escape still closes a panel', () => {
    const { h } = setup();
    const panel = document.createElement('aside');
    const input = document.createElement('input');
    const button = document.createElement('button');
    panel.append(input, button);
    document.body.append(panel);
    press('Delete', {}, input);
    press('z', { ctrlKey: true }, input);
    press('Backspace', {}, button);
    press('d', { ctrlKey: true }, button);
    expect(h.remove).not.toHaveBeenCalled();
    expect(h.undo).not.toHaveBeenCalled();
    expect(h.duplicate).not.toHaveBeenCalled();
    press('Escape', {}, input);
    expect(h.escape).not.toHaveBeenCalled();
    press('Escape', {}, button);
    expect(h.escape).toHaveBeenCalledTimes(1);
  });

  test('Shift+F10 or the ContextMenu key on a card opens its menu', () => {
    const { h } = setup();
    const card = document.createElement('div');
    card.className = 'react-flow__node';
    const inner = document.createElement('span');
    card.append(inner);
    document.body.append(card);
    press('F10', { shiftKey: true }, inner);
    press('ContextMenu', {}, card);
    expect(h.openMenu).toHaveBeenCalledTimes(2);
    expect(h.openMenu).toHaveBeenCalledWith(card);
    press('ContextMenu');
    expect(h.openMenu).toHaveBeenCalledTimes(2);
  });
});
