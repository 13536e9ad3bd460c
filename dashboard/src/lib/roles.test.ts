import { describe, expect, it } from 'vitest';

import { assignableRoles, atLeast, can } from './roles';

describe('roles', () => {
  it('orders roles owner > admin > developer > member > readonly', () => {
    expect(atLeast('owner', 'admin')).toBe(true);
    expect(atLeast('admin', 'owner')).toBe(false);
    expect(atLeast('developer', 'member')).toBe(true);
    expect(atLeast('readonly', 'member')).toBe(false);
    expect(atLeast(undefined, 'readonly')).toBe(false);
  });

  it('allows each action from its role up, and says why not below', () => {
    expect(can('admin', 'manageMembers').allowed).toBe(true);
    expect(can('developer', 'manageMembers')).toEqual({ allowed: false, reason: expect.stringMatching(/admins and the owner/) });
    expect(can('developer', 'manageApiKeys').allowed).toBe(true);
    expect(can('member', 'manageApiKeys').allowed).toBe(false);
    expect(can('admin', 'deleteTeam').allowed).toBe(false);
    expect(can('owner', 'deleteTeam').allowed).toBe(true);
    expect(can('owner', 'transferOwnership').allowed).toBe(true);
  });

  it('never hands out owner, nor a role above the caller', () => {
    expect(assignableRoles('owner')).toEqual(['admin', 'developer', 'member', 'readonly']);
    expect(assignableRoles('developer')).toEqual(['developer', 'member', 'readonly']);
    expect(assignableRoles(undefined)).toEqual([]);
  });
});
