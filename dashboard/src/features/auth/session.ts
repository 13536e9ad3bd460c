import { useSyncExternalStore } from 'react';

import { getTokens, subscribe } from '../../api/session';

function signedInSnapshot(): boolean {
  return getTokens() !== null;
}

/** True while the browser holds a session; follows sign-in, sign-out and other tabs. */
export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribe, signedInSnapshot, signedInSnapshot);
}

// A person who signs out goes to the start page; a session that ends by itself (the refresh
// token refused) goes to sign-in, to come back where they were.
let explicitSignOut = false;

export function markExplicitSignOut(): void {
  explicitSignOut = true;
}

/** True after this tab signed out on purpose, until the next sign-in. */
export function signedOutOnPurpose(): boolean {
  return explicitSignOut;
}

export function clearExplicitSignOut(): void {
  explicitSignOut = false;
}

/** A same-site path to return to after signing in; anything else falls back to the dashboard. */
export function safeNext(next: string | null | undefined, fallback = '/dashboard'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  return next;
}
