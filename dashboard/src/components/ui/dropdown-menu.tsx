import * as Menu from '@radix-ui/react-dropdown-menu';
import { Check } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';

import { cn } from '../../lib/cn';

/**
 * Non-modal: the page stays in the accessibility tree while a menu is open (a modal menu hides
 * it with aria-hidden while its controls stay focusable); Escape and a click outside still close it.
 */
export function DropdownMenu(props: Omit<ComponentProps<typeof Menu.Root>, 'modal'>) {
  return <Menu.Root modal={false} {...props} />;
}
export const DropdownMenuTrigger = Menu.Trigger;

export function DropdownMenuContent({ children, align = 'end', label }: { children: ReactNode; align?: 'start' | 'end'; label?: string }) {
  return (
    <Menu.Portal>
      <Menu.Content
        align={align}
        sideOffset={6}
        {...(label ? { 'aria-label': label } : {})}
        className="z-50 min-w-52 rounded-lg border border-line bg-surface p-1 shadow-lg"
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
        'flex cursor-default items-center gap-2 rounded px-2.5 py-1.5 text-sm outline-none select-none data-[disabled]:text-fg-faint data-[highlighted]:bg-muted [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-fg-subtle',
        danger ? 'text-danger-fg' : 'text-fg',
      )}
    >
      {children}
    </Menu.Item>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="px-2.5 py-1.5 text-xs text-fg-subtle">{children}</Menu.Label>;
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-line" />;
}

export function DropdownMenuGroupLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="px-2.5 pt-2 pb-1 text-xs font-medium text-fg-subtle">{children}</Menu.Label>;
}

/** A set of mutually exclusive choices (the theme, say), each item showing whether it is chosen. */
export function DropdownMenuRadioGroup<V extends string>({ value, onValueChange, options, label }: { value: V; onValueChange: (value: V) => void; options: readonly { value: V; label: string; icon?: ReactNode }[]; label: string }) {
  return (
    <Menu.RadioGroup value={value} onValueChange={(v) => onValueChange(v as V)} aria-label={label}>
      {options.map((option) => (
        <Menu.RadioItem
          key={option.value}
          value={option.value}
          onSelect={(event) => event.preventDefault()}
          className="flex cursor-default items-center gap-2 rounded px-2.5 py-1.5 text-sm text-fg outline-none select-none data-[highlighted]:bg-muted [&_svg]:size-4 [&_svg]:text-fg-subtle"
        >
          {option.icon}
          <span className="flex-1">{option.label}</span>
          <Menu.ItemIndicator>
            <Check aria-hidden="true" className="text-accent-fg" />
          </Menu.ItemIndicator>
        </Menu.RadioItem>
      ))}
    </Menu.RadioGroup>
  );
}
