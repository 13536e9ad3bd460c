import { X } from 'lucide-react';
import type { ReactNode } from 'react';

import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

/**
 * A panel beside the canvas (the canvas shrinks to make room, it is never covered); under 768 px
 * a bottom sheet over the lower part of the screen, the canvas still visible and pannable above.
 */
export function SidePanel({ label, title, onClose, children, footer, side = 'right', wide = false }: { label: string; title: ReactNode; onClose: () => void; children: ReactNode; footer?: ReactNode; side?: 'left' | 'right'; wide?: boolean }) {
  return (
    <aside
      aria-label={label}
      data-testid="side-panel"
      className={cn(
        'flex min-h-0 flex-col overflow-hidden border-line bg-surface',
        // beside the canvas
        'md:w-80 md:shrink-0 md:rounded-xl md:border lg:w-96',
        wide && 'lg:w-[28rem]',
        side === 'left' ? 'md:order-first' : '',
        // a bottom sheet on phones
        'max-md:fixed max-md:inset-x-0 max-md:bottom-0 max-md:z-40 max-md:h-[45dvh] max-md:rounded-t-2xl max-md:border-t max-md:shadow-xl',
      )}
    >
      <div aria-hidden="true" className="mx-auto mt-2 h-1.5 w-10 shrink-0 rounded-full bg-line-strong md:hidden" />
      <div className="flex shrink-0 items-center justify-between gap-2 border-b border-line px-4 py-2">
        <h2 className="min-w-0 truncate text-sm font-semibold text-fg">{title}</h2>
        <Button variant="ghost" size="icon" aria-label={`Close ${label}`} title="Close (Esc)" onClick={onClose}>
          <X aria-hidden="true" />
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">{children}</div>
      {footer && <div className="flex shrink-0 justify-end gap-2 border-t border-line px-4 py-3">{footer}</div>}
    </aside>
  );
}

/** The part of `box` a panel leaves free: on phones the bottom sheet covers its lower part. */
export function visibleArea(box: DOMRect): { width: number; height: number } {
  const sheet = document.querySelector<HTMLElement>('[data-testid="side-panel"]');
  const top = sheet && getComputedStyle(sheet).position === 'fixed' ? sheet.getBoundingClientRect().top : Infinity;
  return { width: box.width, height: Math.max(0, Math.min(box.bottom, top) - box.top) };
}
