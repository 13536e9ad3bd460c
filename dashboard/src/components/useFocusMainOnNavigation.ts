import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** After a navigation (not the first load), move focus to #main so screen readers start at the new page. */
export function useFocusMainOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: false });
  }, [pathname]);
}
