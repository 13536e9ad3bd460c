import * as RadixToast from '@radix-ui/react-toast';
import { useSyncExternalStore } from 'react';

import { cn } from '../../lib/cn';
import { currentToast, subscribeToasts, toast, type ToastKind } from './toast-store';

const KIND_CLASSES: Record<ToastKind, string> = {
  success: 'border-emerald-200',
  error: 'border-red-300',
  warning: 'border-amber-300',
};

const KIND_DOT: Record<ToastKind, string> = {
  success: 'bg-emerald-500',
  error: 'bg-red-500',
  warning: 'bg-amber-500',
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
          className={cn('flex items-start gap-3 rounded-lg border bg-white p-4 shadow-lg', KIND_CLASSES[message.kind])}
          data-testid="toast"
        >
          <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', KIND_DOT[message.kind])} />
          <div className="min-w-0 flex-1">
            <RadixToast.Title className="text-sm font-semibold text-zinc-900">{message.title}</RadixToast.Title>
            {message.description && <RadixToast.Description className="mt-1 text-sm break-words text-zinc-700">{message.description}</RadixToast.Description>}
          </div>
          <RadixToast.Close aria-label="Dismiss" className="rounded px-1 text-zinc-500 hover:text-zinc-900">
            ×
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      <RadixToast.Viewport className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none" />
    </RadixToast.Provider>
  );
}
