import type { Node as RfNode } from '@xyflow/react';
import { useCallback, useState } from 'react';

import { specOf } from './nodes/registry';

const MINIMAP_KEY = 'betty.canvas.minimap';

/** Whether the minimap is shown: on until someone hides it, and remembered in this browser. */
export function useMinimapChoice(): [boolean, (shown: boolean) => void] {
  const [shown, setShown] = useState(() => localStorage.getItem(MINIMAP_KEY) !== 'hidden');
  const set = useCallback((next: boolean) => {
    localStorage.setItem(MINIMAP_KEY, next ? 'shown' : 'hidden');
    setShown(next);
  }, []);
  return [shown, set];
}

/** A card in the minimap is drawn in its kind's colour. */
export const minimapColor = (n: RfNode): string => specOf(n.type ?? '').color;
