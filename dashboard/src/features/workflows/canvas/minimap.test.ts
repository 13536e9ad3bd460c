import { act, renderHook } from '@testing-library/react';

import { useMinimapChoice } from './minimap';

describe('the minimap choice', () => {
  beforeEach(() => localStorage.clear());

  test('is shown until hidden, and hidden stays hidden on the next canvas', () => {
    const first = renderHook(() => useMinimapChoice());
    expect(first.result.current[0]).toBe(true);
    act(() => first.result.current[1](false));
    expect(first.result.current[0]).toBe(false);
    first.unmount();
    const next = renderHook(() => useMinimapChoice());
    expect(next.result.current[0]).toBe(false);
    act(() => next.result.current[1](true));
    expect(renderHook(() => useMinimapChoice()).result.current[0]).toBe(true);
  });
});
