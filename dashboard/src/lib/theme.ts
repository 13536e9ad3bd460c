// Light, dark or the system's choice, remembered per user on this browser. There is no server
// field for it: the choice lives in localStorage under `betty.theme.<userId>`, and the last applied
// choice also under `betty.theme`, which public/theme-init.js reads before the first paint (it
// cannot know who is signed in) so no page flashes the wrong theme. Keep the two in step.

import { useCallback, useEffect, useSyncExternalStore } from 'react';

export type ThemePreference = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_PREFERENCES: readonly { value: ThemePreference; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'System' },
];

const DEVICE_KEY = 'betty.theme';
const USER_PREFIX = 'betty.theme.';
/** The page colour per theme, for the browser's own chrome (meta theme-color). */
const CHROME_COLOUR: Record<ResolvedTheme, string> = { light: '#fafafa', dark: '#0b0b0e' };

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function isPreference(value: unknown): value is ThemePreference {
  return value === 'light' || value === 'dark' || value === 'system';
}

/** The user's stored choice; else this browser's last choice; else the system's. */
export function storedPreference(userId: string | null): ThemePreference {
  const store = storage();
  const own = userId ? store?.getItem(USER_PREFIX + userId) : null;
  if (isPreference(own)) return own;
  const device = store?.getItem(DEVICE_KEY);
  return isPreference(device) ? device : 'system';
}

export function resolveTheme(preference: ThemePreference, systemDark: boolean): ResolvedTheme {
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Puts the theme on <html>: the `dark` class the tokens hang on, color-scheme and the chrome colour. */
export function applyTheme(preference: ThemePreference): ResolvedTheme {
  const theme = resolveTheme(preference, systemPrefersDark());
  if (typeof document === 'undefined') return theme;
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', CHROME_COLOUR[theme]);
  return theme;
}

const listeners = new Set<() => void>();
let current: ThemePreference = storedPreference(null);

function notify() {
  for (const listener of listeners) listener();
}

/** Saves the user's choice (and this browser's last choice) and applies it. */
export function setThemePreference(userId: string | null, preference: ThemePreference): void {
  const store = storage();
  if (userId) store?.setItem(USER_PREFIX + userId, preference);
  store?.setItem(DEVICE_KEY, preference);
  current = preference;
  applyTheme(preference);
  notify();
}

/** Switches to what the signed-in user chose on this browser, when they chose anything. */
export function adoptUserPreference(userId: string): void {
  const own = storage()?.getItem(USER_PREFIX + userId);
  if (isPreference(own) && own !== current) setThemePreference(userId, own);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The current preference and a setter bound to the user; follows the system's scheme while the
 * preference is "system", and applies the user's stored choice when they sign in.
 */
export function useTheme(userId: string | null) {
  const preference = useSyncExternalStore(subscribe, () => current, () => current);
  useEffect(() => {
    if (userId) adoptUserPreference(userId);
  }, [userId]);
  useEffect(() => {
    if (preference !== 'system' || typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = () => applyTheme('system');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [preference]);
  const set = useCallback((next: ThemePreference) => setThemePreference(userId, next), [userId]);
  return { preference, setPreference: set };
}

/** For tests: forget the in-memory choice. */
export function resetThemeForTests(): void {
  current = storedPreference(null);
  notify();
}
