import * as RadixSelect from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';

import { cn } from '../../lib/cn';

export interface SelectOption<V extends string = string> {
  value: V;
  label: string;
  disabled?: boolean;
}

interface SelectProps<V extends string> {
  value: V | undefined;
  onValueChange: (value: V) => void;
  options: readonly SelectOption<V>[];
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  className?: string;
  size?: 'sm' | 'md';
}

export function Select<V extends string>({ value, onValueChange, options, placeholder = 'Choose…', disabled, className, size = 'md', ...aria }: SelectProps<V>) {
  return (
    <RadixSelect.Root {...(value !== undefined ? { value } : {})} onValueChange={(v) => onValueChange(v as V)} {...(disabled !== undefined ? { disabled } : {})}>
      <RadixSelect.Trigger
        {...aria}
        className={cn(
          'inline-flex w-full items-center justify-between gap-2 rounded-md border border-line-strong bg-surface text-left text-fg shadow-sm disabled:cursor-not-allowed disabled:bg-muted disabled:text-fg-subtle data-[placeholder]:text-fg-faint',
          size === 'sm' ? 'px-2 py-1 text-xs' : 'px-3 py-2 text-sm',
          className,
        )}
      >
        <RadixSelect.Value placeholder={placeholder} />
        <RadixSelect.Icon aria-hidden="true" className="text-fg-subtle">
          <ChevronDown className="size-4" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content position="popper" sideOffset={4} className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-line bg-surface shadow-lg">
          <RadixSelect.Viewport className="p-1">
            {options.map((option) => (
              <RadixSelect.Item
                key={option.value}
                value={option.value}
                {...(option.disabled ? { disabled: true } : {})}
                className="relative flex cursor-default items-center rounded px-7 py-1.5 text-sm text-fg outline-none select-none data-[disabled]:text-fg-faint data-[highlighted]:bg-accent-subtle data-[highlighted]:text-accent-fg"
              >
                <RadixSelect.ItemIndicator className="absolute left-2">
                  <Check aria-hidden="true" className="size-3.5" />
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
