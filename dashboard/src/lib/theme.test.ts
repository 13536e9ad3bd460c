import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { adoptUserPreference, resetThemeForTests, resolveTheme, setThemePreference, storedPreference } from './theme';

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
  resetThemeForTests();
});
afterEach(() => localStorage.clear());

describe('theme', () => {
  it('follows the system until someone chooses', () => {
    expect(storedPreference('u1')).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('remembers the choice per user and as this browser’s last choice', () => {
    setThemePreference('u1', 'dark');
    expect(document.documentElement).toHaveClass('dark');
    expect(storedPreference('u1')).toBe('dark');
    expect(localStorage.getItem('betty.theme')).toBe('dark');
    // Another user on this browser who never chose sees the last choice, until they choose.
    expect(storedPreference('u2')).toBe('dark');
    setThemePreference('u2', 'light');
    expect(document.documentElement).not.toHaveClass('dark');
    expect(storedPreference('u1')).toBe('dark');
    expect(storedPreference('u2')).toBe('light');
  });

  it('applies the signed-in user’s own choice', () => {
    setThemePreference('u1', 'dark');
    setThemePreference('u2', 'light');
    adoptUserPreference('u1');
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('betty.theme')).toBe('dark');
  });

  it('ignores junk in storage', () => {
    localStorage.setItem('betty.theme.u1', 'purple');
    expect(storedPreference('u1')).toBe('system');
  });
});
