import { act, renderHook } from '@testing-library/react';

import { useHistory } from './useHistory';

interface Doc {
  graph: string;
  fields: string[];
}

describe('useHistory', () => {
  test('every edit, the post-call fields too, is undone and redone, and each change reaches onChange with the value before it', () => {
    const onChange = vi.fn();
    const { result } = renderHook(() => useHistory<Doc>(() => ({ graph: 'g0', fields: [] }), onChange));
    act(() => result.current.commit({ ...result.current.current(), graph: 'g1' }));
    act(() => result.current.commit({ ...result.current.current(), fields: ['intent'] }));
    expect(result.current.value).toEqual({ graph: 'g1', fields: ['intent'] });
    expect(result.current.canUndo).toBe(true);

    act(() => result.current.undo());
    expect(result.current.value).toEqual({ graph: 'g1', fields: [] });
    expect(onChange).toHaveBeenLastCalledWith({ graph: 'g1', fields: [] }, { graph: 'g1', fields: ['intent'] });
    act(() => result.current.undo());
    expect(result.current.value.graph).toBe('g0');
    expect(result.current.canUndo).toBe(false);
    act(() => result.current.redo());
    act(() => result.current.redo());
    expect(result.current.value).toEqual({ graph: 'g1', fields: ['intent'] });
    expect(result.current.canRedo).toBe(false);
    expect(onChange).toHaveBeenCalledTimes(6);
  });

  test('two edits in one event see each other; reset forgets the history without a change to save', () => {
    const onChange = vi.fn();
    const { result } = renderHook(() => useHistory<Doc>(() => ({ graph: 'g0', fields: [] }), onChange));
    act(() => {
      result.current.commit({ ...result.current.current(), graph: 'g1' });
      result.current.commit({ ...result.current.current(), fields: ['x'] });
    });
    expect(result.current.value).toEqual({ graph: 'g1', fields: ['x'] });
    act(() => result.current.reset({ graph: 'stored', fields: [] }));
    expect(result.current.value.graph).toBe('stored');
    expect(result.current.canUndo).toBe(false);
    expect(onChange).toHaveBeenCalledTimes(2);
  });
});
