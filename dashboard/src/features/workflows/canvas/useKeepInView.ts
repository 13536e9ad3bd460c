import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, type RefObject } from 'react';

import { visibleArea } from './SidePanel';

/** How close to the canvas's edge a step may sit and still count as in view, in screen pixels. */
const MARGIN = 16;

/**
 * The step panel keeps the step it edits (`nodeId`) in view: the canvas shrank beside it (or, on
 * a phone, the sheet covers its lower part), so the step is panned, at the same zoom, into the
 * middle of what is left when it is not wholly there — once the panel is laid out, and again
 * whenever the canvas (`box`) resizes.
 */
export function useKeepInView(nodeId: string | null, box: RefObject<HTMLElement | null>) {
  const rf = useReactFlow();
  const keepInView = useCallback(
    (id: string) => {
      const n = rf.getNode(id);
      const el = box.current;
      if (!n || !el) return;
      const area = visibleArea(el.getBoundingClientRect());
      const { x, y, zoom } = rf.getViewport();
      const w = (n.width ?? 0) * zoom;
      const h = (n.height ?? 0) * zoom;
      const left = x + n.position.x * zoom;
      const top = y + n.position.y * zoom;
      if (left >= MARGIN && top >= MARGIN && left + w <= area.width - MARGIN && top + h <= area.height - MARGIN) return;
      const nx = area.width / 2 - left + x - w / 2;
      // a step taller than the space left shows its top
      const ny = h > area.height - 2 * MARGIN ? MARGIN - top + y : area.height / 2 - top + y - h / 2;
      void rf.setViewport({ x: nx, y: ny, zoom }, { duration: 200 });
    },
    [rf, box],
  );
  useEffect(() => {
    const el = box.current;
    if (!nodeId || !el) return;
    let frame = 0;
    const later = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => keepInView(nodeId))));
    };
    const observer = new ResizeObserver(later);
    observer.observe(el);
    later();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [nodeId, keepInView, box]);
}

/**
 * When the canvas (`box`) changes size — a panel opens or closes beside it, the window resizes —
 * what was in the middle of the view stays in the middle (React Flow alone keeps the top-left
 * corner, so a panel opening on the left pushed the flow off to the right).
 */
export function useKeepCentre(box: RefObject<HTMLElement | null>) {
  const rf = useReactFlow();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let last: { width: number; height: number } | null = null;
    const observer = new ResizeObserver(() => {
      const { width, height } = el.getBoundingClientRect();
      if (last && rf.viewportInitialized && (width !== last.width || height !== last.height)) {
        const { x, y, zoom } = rf.getViewport();
        void rf.setViewport({ x: x + (width - last.width) / 2, y: y + (height - last.height) / 2, zoom });
      }
      last = { width, height };
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [rf, box]);
}
