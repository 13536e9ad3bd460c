import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

import { cn } from '../../lib/cn';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;

export function DropdownMenuContent({ children, align = 'end', label }: { children: ReactNode; align?: 'start' | 'end'; label?: string }) {
  return (
    <Menu.Portal>
      <Menu.Content
        align={align}
        sideOffset={6}
        {...(label ? { 'aria-label': label } : {})}
        className="z-50 min-w-48 rounded-md border border-zinc-200 bg-white p-1 shadow-lg"
      >
        {children}
      </Menu.Content>
    </Menu.Portal>
  );
}

export function DropdownMenuItem({ children, onSelect, disabled, danger }: { children: ReactNode; onSelect: () => void; disabled?: boolean; danger?: boolean }) {
  return (
    <Menu.Item
      onSelect={onSelect}
      {...(disabled ? { disabled: true } : {})}
      className={cn(
        'flex cursor-default items-center gap-2 rounded px-2.5 py-1.5 text-sm outline-none select-none data-[disabled]:text-zinc-400 data-[highlighted]:bg-zinc-100',
        danger ? 'text-red-700' : 'text-zinc-800',
      )}
    >
      {children}
    </Menu.Item>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="px-2.5 py-1.5 text-xs text-zinc-500">{children}</Menu.Label>;
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-zinc-200" />;
}
