import { describe, expect, it, vi } from 'vitest';

import { clearTokens, getTokens, setTokens, subscribe } from './session';

describe('session tokens', () => {
  it('is signed out when nothing is stored', () => {
    expect(getTokens()).toBeNull();
  });

  it('keeps tokens in localStorage across reads', () => {
    setTokens({ accessToken: 'acc', refreshToken: 'ref' });

    expect(getTokens()).toEqual({ accessToken: 'acc', refreshToken: 'ref' });
    expect(window.localStorage.getItem('betty.accessToken')).toBe('acc');
  });

  it('treats a half-stored session as signed out', () => {
    window.localStorage.setItem('betty.accessToken', 'acc');

    expect(getTokens()).toBeNull();
  });

  it('clears both tokens', () => {
    setTokens({ accessToken: 'acc', refreshToken: 'ref' });
    clearTokens();

    expect(getTokens()).toBeNull();
    expect(window.localStorage.length).toBe(0);
  });

  it('tells subscribers about every change until they unsubscribe', () => {
    const listener = vi.fn();
    const unsubscribe = subscribe(listener);

    setTokens({ accessToken: 'acc', refreshToken: 'ref' });
    clearTokens();
    unsubscribe();
    setTokens({ accessToken: 'acc-2', refreshToken: 'ref-2' });

    expect(listener.mock.calls).toEqual([[{ accessToken: 'acc', refreshToken: 'ref' }], [null]]);
  });

  it('follows changes made in another tab', () => {
    const listener = vi.fn();
    const unsubscribe = subscribe(listener);
    window.localStorage.setItem('betty.accessToken', 'other-acc');
    window.localStorage.setItem('betty.refreshToken', 'other-ref');

    window.dispatchEvent(new StorageEvent('storage', { key: 'betty.accessToken' }));
    unsubscribe();

    expect(listener).toHaveBeenCalledWith({ accessToken: 'other-acc', refreshToken: 'other-ref' });
  });
});
