import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

import { cn } from '../../lib/cn';

export const inputClasses =
  'block w-full rounded-md border border-line-strong bg-surface px-3 py-2 text-sm text-fg shadow-sm placeholder:text-fg-faint focus:border-accent disabled:bg-muted disabled:text-fg-subtle aria-[invalid=true]:border-danger';

export function Input({ className, ...props }: ComponentPropsWithRef<'input'>) {
  return <input className={cn(inputClasses, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentPropsWithRef<'textarea'>) {
  return <textarea className={cn(inputClasses, 'min-h-20', className)} {...props} />;
}

interface FieldProps {
  label: string;
  /** A hint under the label. */
  description?: ReactNode;
  error?: string | undefined;
  /** Renders the control with the ids that tie it to its label, hint and error. */
  children: (ids: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
  className?: string;
}

/** A labelled form control with its hint and error message, wired for screen readers. */
export function Field({ label, description, error, children, className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [description ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-fg">
        {label}
      </label>
      {children({ id, ...(describedBy ? { 'aria-describedby': describedBy } : {}), ...(error ? { 'aria-invalid': true } : {}) })}
      {description && (
        <p id={hintId} className="text-xs text-fg-subtle">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-danger-fg">
          {error}
        </p>
      )}
    </div>
  );
}
