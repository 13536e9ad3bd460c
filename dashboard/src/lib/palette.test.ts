import { describe, expect, it } from 'vitest';

import { filterCommands, paletteCommands, type PaletteInput } from './palette';
import { addRecent } from './recent';

const base: PaletteInput = {
  team: { id: 't1', myRole: 'owner' },
  teams: [
    { id: 't1', name: 'Acme' },
    { id: 't2', name: 'Beta' },
  ],
  isSiteAdmin: false,
  recent: [],
  theme: 'system',
};

const labels = (input: PaletteInput, group: string) => paletteCommands(input).filter((c) => c.group === group).map((c) => c.label);

describe('command palette', () => {
  it('jumps to every page that exists, keeping the team', () => {
    const pages = paletteCommands(base).filter((c) => c.group === 'Pages');
    expect(pages.map((c) => c.label)).toEqual(['Home', 'Campaigns', 'Agents', 'Workflows', 'Knowledge', 'Phone numbers', 'Voices', 'Calls', 'Inbox', 'Do-not-call', 'Team settings', 'Members', 'API keys', 'Connected apps', 'Zapier', 'Shopify widget', 'Billing', 'Onboarding', 'Docs', 'Profile']);
    expect(labels({ ...base, team: { id: 't1', myRole: 'member' } }, 'Pages')).not.toContain('Billing');
    expect(pages.find((c) => c.label === 'Members')?.action).toEqual({ kind: 'navigate', to: '/dashboard/members?teamId=t1' });
    expect(pages.find((c) => c.label === 'Calls')?.action).toEqual({ kind: 'navigate', to: '/dashboard/calls?teamId=t1' });
    expect(labels({ ...base, isSiteAdmin: true }, 'Pages')).toContain('Site admin');
  });

  it('switches to the other teams', () => {
    expect(paletteCommands(base).filter((c) => c.group === 'Teams').map((c) => c.action)).toEqual([{ kind: 'switch-team', teamId: 't2' }]);
  });

  it('offers the common actions the role allows', () => {
    expect(labels(base, 'Actions')).toEqual(['Create API key', 'Invite member', 'Create team', 'Sign out']);
    expect(paletteCommands(base).find((c) => c.label === 'Invite member')?.action).toEqual({ kind: 'navigate', to: '/dashboard/members?teamId=t1&action=invite' });
    expect(labels({ ...base, team: { id: 't1', myRole: 'readonly' } }, 'Actions')).toEqual(['Create team', 'Sign out']);
    expect(labels({ ...base, team: null, teams: [] }, 'Actions')).toEqual(['Create team', 'Sign out']);
    expect(labels({ ...base, team: null, teams: [] }, 'Pages')).toEqual(['Home', 'Docs', 'Profile']);
  });

  it('lists recent pages but not the one shown', () => {
    let recent = addRecent([], { to: '/dashboard?teamId=t1', label: 'Home · Acme' });
    recent = addRecent(recent, { to: '/dashboard/members?teamId=t1', label: 'Members · Acme' });
    recent = addRecent(recent, { to: '/dashboard?teamId=t1', label: 'Home · Acme' });
    expect(recent.map((r) => r.label)).toEqual(['Home · Acme', 'Members · Acme']);
    expect(labels({ ...base, recent, current: '/dashboard?teamId=t1' }, 'Recent')).toEqual(['Members · Acme']);
  });

  it('filters Recent by what is typed, like every other group', () => {
    let recent = addRecent([], { to: '/dashboard/members?teamId=t1', label: 'Members · Acme' });
    recent = addRecent(recent, { to: '/dashboard/calls?teamId=t1', label: 'Call logs · Acme' });
    const commands = paletteCommands({ ...base, recent });
    const found = (q: string) => filterCommands(commands, q).filter((c) => c.group === 'Recent').map((c) => c.label);
    expect(found('')).toEqual(['Call logs · Acme', 'Members · Acme']);
    expect(found('memb')).toEqual(['Members · Acme']);
    expect(found('CALL')).toEqual(['Call logs · Acme']);
    // Letters of the pages' paths ("dashboard", "teamId") do not keep them.
    expect(found('dashboard')).toEqual([]);
    expect(found('recent')).toEqual(['Call logs · Acme', 'Members · Acme']);
    expect(filterCommands(commands, 'sign out').map((c) => c.label)).toEqual(['Sign out']);
  });

  it('ranks the commands whose label holds the words first', () => {
    // Every theme command has "dark mode" among its keywords: Enter must still pick the dark one.
    expect(filterCommands(paletteCommands(base), 'dark theme').map((c) => c.label)).toEqual(['Use dark theme', 'Use light theme']);
  });

  it('offers the themes not in use', () => {
    expect(labels({ ...base, theme: 'dark' }, 'Theme')).toEqual(['Use light theme', 'Use system theme']);
  });
});
