import { Monitor, Moon, Sun } from 'lucide-react';

import { THEME_PREFERENCES, useTheme, type ThemePreference } from '../lib/theme';

const ICONS = { light: Sun, dark: Moon, system: Monitor } as const;
const NEXT: Record<ThemePreference, ThemePreference> = { light: 'dark', dark: 'system', system: 'light' };

/** Signed-out pages' theme switch: one button that steps light → dark → system. */
export function ThemeToggle() {
  const { preference, setPreference } = useTheme(null);
  const Icon = ICONS[preference];
  const label = THEME_PREFERENCES.find((p) => p.value === preference)!.label;
  const next = THEME_PREFERENCES.find((p) => p.value === NEXT[preference])!.label;
  return (
    <button type="button" onClick={() => setPreference(NEXT[preference])} className="rounded-md p-2 text-fg-soft hover:bg-muted hover:text-fg" aria-label={`Theme: ${label}. Switch to ${next.toLowerCase()}`}>
      <Icon aria-hidden="true" className="size-4" />
    </button>
  );
}
