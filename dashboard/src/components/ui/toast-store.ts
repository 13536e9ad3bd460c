// One toast at a time (spec: toast limit 1): showing a new one replaces the one on screen.

import { isApiError } from '../../api/mutator';

export type ToastKind = 'success' | 'error' | 'warning';

export interface ToastMessage {
  id: number;
  kind: ToastKind;
  title: string;
  description: string;
}

export const DEFAULT_TITLES: Record<ToastKind, string> = {
  success: 'Success',
  error: 'Uh oh! Something went wrong.',
  warning: 'Warning',
};

type Listener = (toast: ToastMessage | null) => void;

let current: ToastMessage | null = null;
let nextId = 1;
const listeners = new Set<Listener>();

function show(kind: ToastKind, description: string, title?: string): void {
  current = { id: nextId++, kind, title: title ?? DEFAULT_TITLES[kind], description };
  listeners.forEach((l) => l(current));
}

/** The words to show for a failure: the server's detail (or title), never a stack or a code. */
export function describeError(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Something unexpected happened. Try again.';
}

export const toast = {
  success: (description: string, title?: string) => show('success', description, title),
  warning: (description: string, title?: string) => show('warning', description, title),
  error: (error: unknown, title?: string) => show('error', describeError(error), title),
  dismiss: () => {
    current = null;
    listeners.forEach((l) => l(null));
  },
};

export function currentToast(): ToastMessage | null {
  return current;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
