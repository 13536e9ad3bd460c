import { describe, expect, it } from 'vitest';

import { rememberTeam, rememberedTeam, selectTeam } from './teamSelection';

describe('selectTeam', () => {
  const teams = ['a', 'b', 'c'];

  it('takes the URL team when it is one of the user teams', () => {
    expect(selectTeam(teams, 'b', 'c')).toEqual({ teamId: 'b', replaceUrl: false });
  });

  it('replaces a URL team the user is not a member of with the remembered team', () => {
    expect(selectTeam(teams, 'zzz', 'c')).toEqual({ teamId: 'c', replaceUrl: true });
  });

  it('falls back to the first team when the remembered team is gone', () => {
    expect(selectTeam(teams, 'zzz', 'gone')).toEqual({ teamId: 'a', replaceUrl: true });
    expect(selectTeam(teams, null, null)).toEqual({ teamId: 'a', replaceUrl: true });
  });

  it('uses the remembered team when the URL names none', () => {
    expect(selectTeam(teams, null, 'b')).toEqual({ teamId: 'b', replaceUrl: true });
  });

  it('has no team for a user without teams, and drops a teamId from the URL', () => {
    expect(selectTeam([], null, 'a')).toEqual({ teamId: null, replaceUrl: false });
    expect(selectTeam([], 'a', 'a')).toEqual({ teamId: null, replaceUrl: true });
  });
});

describe('remembered team', () => {
  it('is kept per user', () => {
    rememberTeam('u1', 'a');
    rememberTeam('u2', 'b');
    expect(rememberedTeam('u1')).toBe('a');
    expect(rememberedTeam('u2')).toBe('b');
    expect(rememberedTeam('u3')).toBeNull();
  });
});
