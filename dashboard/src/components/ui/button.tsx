import type { ComponentPropsWithRef } from 'react';

import { cn } from '../../lib/cn';

const VARIANTS = {
  primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/50',
  secondary: 'border border-zinc-300 bg-white text-zinc-800 shadow-sm hover:bg-zinc-50 disabled:text-zinc-400',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/50',
  ghost: 'text-zinc-700 hover:bg-zinc-100 disabled:text-zinc-400',
} as const;

const SIZES = {
  sm: 'px-2.5 py-1.5 text-xs',
  md: 'px-3.5 py-2 text-sm',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  /** Shows the busy label and disables the button while an action runs. */
  busy?: boolean;
  busyLabel?: string;
}

export function buttonClasses(variant: ButtonVariant = 'primary', size: keyof typeof SIZES = 'md', extra?: string): string {
  return cn(
    'inline-flex items-center justify-center gap-1.5 rounded-md font-semibold whitespace-nowrap transition-colors disabled:cursor-not-allowed',
    VARIANTS[variant],
    SIZES[size],
    extra,
  );
}

export function Button({ variant = 'primary', size = 'md', busy = false, busyLabel, className, disabled, children, type = 'button', ...props }: ButtonProps) {
  return (
    <button type={type} className={buttonClasses(variant, size, className)} disabled={disabled === true || busy} aria-busy={busy || undefined} {...props}>
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
