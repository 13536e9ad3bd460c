import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useId, useState, type ReactNode } from 'react';

import { Button, buttonClasses } from './button';
import { inputClasses } from './input';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** When set, the action stays disabled until the person types exactly this text. */
  typeToConfirm?: string;
  destructive?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  /** Choices that go with the action (a checkbox, say), shown under the description. */
  children?: ReactNode;
}

/** Asks before an action that cannot be undone; focus starts on Cancel. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, typeToConfirm, destructive = true, busy = false, onConfirm, children }: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const matches = typeToConfirm === undefined || typed === typeToConfirm;
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped('');
        onOpenChange(next);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-line bg-surface p-5 shadow-xl focus:outline-none sm:p-6">
          <AlertDialog.Title className="text-lg font-semibold text-fg">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm text-fg-muted">{description}</div>
          </AlertDialog.Description>
          {children && <div className="mt-4">{children}</div>}
          {typeToConfirm !== undefined && (
            <div className="mt-4 space-y-1.5">
              <label htmlFor={inputId} className="block text-sm font-medium text-fg">
                Type <span className="font-mono font-semibold">{typeToConfirm}</span> to confirm
              </label>
              <input id={inputId} className={inputClasses} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
            </div>
          )}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('secondary')}>Cancel</AlertDialog.Cancel>
            <Button
              variant={destructive ? 'danger' : 'primary'}
              disabled={!matches}
              busy={busy}
              onClick={() => {
                onConfirm();
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
