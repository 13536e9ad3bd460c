// The signed-in session's tokens, kept in localStorage so a reload keeps the user signed in.
// Everything that needs the tokens (the fetch mutator, the sign-in screens, the app shell)
// goes through this module; nothing else touches the storage keys.

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

type Listener = (tokens: SessionTokens | null) => void;

const ACCESS_KEY = 'betty.accessToken';
const REFRESH_KEY = 'betty.refreshToken';

const listeners = new Set<Listener>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Some browsers throw on access when storage is disabled; act as signed out.
    return null;
  }
}

export function getTokens(): SessionTokens | null {
  const store = storage();
  const accessToken = store?.getItem(ACCESS_KEY);
  const refreshToken = store?.getItem(REFRESH_KEY);
  if (!accessToken || !refreshToken) {
    return null;
  }
  return { accessToken, refreshToken };
}

export function setTokens(tokens: SessionTokens): void {
  const store = storage();
  store?.setItem(ACCESS_KEY, tokens.accessToken);
  store?.setItem(REFRESH_KEY, tokens.refreshToken);
  notify(tokens);
}

export function clearTokens(): void {
  const store = storage();
  store?.removeItem(ACCESS_KEY);
  store?.removeItem(REFRESH_KEY);
  notify(null);
}

/** Calls listener whenever the tokens change (here or in another tab); returns the unsubscribe. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function notify(tokens: SessionTokens | null): void {
  for (const listener of listeners) {
    listener(tokens);
  }
}

// Another tab signing in or out changes the same storage; keep this tab in step.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === ACCESS_KEY || event.key === REFRESH_KEY || event.key === null) {
      notify(getTokens());
    }
  });
}
