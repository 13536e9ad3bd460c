import type { LucideIcon } from 'lucide-react';
import { MoreHorizontal } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../components/ui/dropdown-menu';

export interface CanvasTool {
  label: string;
  /** The tooltip: what it does, and its key when it has one. */
  title: string;
  icon: LucideIcon;
  onClick: () => void;
  /** For a tool that shows or hides a panel. */
  pressed?: boolean;
}

/**
 * The header's canvas tools: icon buttons (named by their labels and tooltips) from 768 px; on a
 * phone one "More tools" menu, so the header stays short and the canvas keeps its height.
 */
export function CanvasTools({ tools }: { tools: CanvasTool[] }) {
  return (
    <>
      <div className="hidden gap-2 md:flex">
        {tools.map((t) => (
          <Button key={t.label} variant="ghost" size="icon" aria-label={t.label} title={t.title} onClick={t.onClick} {...(t.pressed !== undefined ? { 'aria-pressed': t.pressed } : {})}>
            <t.icon aria-hidden="true" />
          </Button>
        ))}
      </div>
      <div className="md:hidden">
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label="More tools" title="More tools">
              <MoreHorizontal aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent label="Canvas tools">
            {tools.map((t) => (
              <DropdownMenuItem key={t.label} onSelect={t.onClick}>
                <t.icon aria-hidden="true" />
                {t.pressed ? `Hide ${t.label.toLowerCase()}` : t.label}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </>
  );
}
