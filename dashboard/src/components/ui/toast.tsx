import * as RadixToast from '@radix-ui/react-toast';
import { CircleAlert, CircleCheck, TriangleAlert, X } from 'lucide-react';
import { useSyncExternalStore, type ReactNode } from 'react';

import { cn } from '../../lib/cn';
import { currentToast, subscribeToasts, toast, type ToastKind } from './toast-store';

const KIND_CLASSES: Record<ToastKind, string> = {
  success: 'border-success-line',
  error: 'border-danger-line',
  warning: 'border-warning-line',
};

const KIND_ICON: Record<ToastKind, ReactNode> = {
  success: <CircleCheck className="size-4 text-success" />,
  error: <CircleAlert className="size-4 text-danger" />,
  warning: <TriangleAlert className="size-4 text-warning" />,
};

/** Renders the one current toast; mount once near the root. */
export function Toaster() {
  const message = useSyncExternalStore(subscribeToasts, currentToast, currentToast);
  return (
    <RadixToast.Provider swipeDirection="right" duration={6000}>
      {message && (
        <RadixToast.Root
          key={message.id}
          type={message.kind === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) toast.dismiss();
          }}
          className={cn('flex items-start gap-3 rounded-xl border bg-surface p-4 shadow-lg', KIND_CLASSES[message.kind])}
          data-testid="toast"
        >
          <span aria-hidden="true" className="mt-0.5 shrink-0">{KIND_ICON[message.kind]}</span>
          <div className="min-w-0 flex-1">
            <RadixToast.Title className="text-sm font-semibold text-fg">{message.title}</RadixToast.Title>
            {message.description && <RadixToast.Description className="mt-1 text-sm break-words text-fg-soft">{message.description}</RadixToast.Description>}
          </div>
          <RadixToast.Close aria-label="Dismiss" className="rounded p-0.5 text-fg-subtle hover:bg-muted hover:text-fg">
            <X aria-hidden="true" className="size-4" />
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      <RadixToast.Viewport className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none" />
    </RadixToast.Provider>
  );
}
