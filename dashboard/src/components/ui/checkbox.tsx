import { useId, type ReactNode } from 'react';

/** A labelled checkbox with an optional hint, wired for screen readers. */
export function Checkbox({ label, description, checked, onCheckedChange, disabled }: { label: ReactNode; description?: ReactNode; checked: boolean; onCheckedChange: (checked: boolean) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="flex items-start gap-2.5">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-accent"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onCheckedChange(e.target.checked)}
        {...(description ? { 'aria-describedby': `${id}-hint` } : {})}
      />
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {description && (
          <p id={`${id}-hint`} className="mt-0.5 text-xs text-fg-subtle">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}
