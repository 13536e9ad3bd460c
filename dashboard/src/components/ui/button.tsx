import type { ComponentPropsWithRef } from 'react';

import { cn } from '../../lib/cn';

const VARIANTS = {
  primary: 'bg-accent text-white shadow-sm hover:bg-accent-hover disabled:bg-accent/50',
  secondary: 'border border-line-strong bg-surface text-fg shadow-xs hover:bg-muted disabled:text-fg-faint',
  danger: 'bg-danger text-white shadow-sm hover:bg-danger-hover disabled:bg-danger/50',
  ghost: 'text-fg-soft hover:bg-muted disabled:text-fg-faint',
} as const;

const SIZES = {
  sm: 'px-2.5 py-1.5 text-xs',
  md: 'px-3.5 py-2 text-sm',
  /** A square button holding one icon; give it an aria-label. */
  icon: 'p-2 text-sm',
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
    'inline-flex items-center justify-center gap-1.5 rounded-md font-semibold whitespace-nowrap transition-colors disabled:cursor-not-allowed [&_svg]:size-4 [&_svg]:shrink-0',
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
