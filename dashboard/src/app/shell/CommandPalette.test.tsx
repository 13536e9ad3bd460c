import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { paletteCommands } from '../../lib/palette';
import { addRecent } from '../../lib/recent';
import CommandPalette from './CommandPalette';

// jsdom has neither; cmdk measures its list and scrolls the selected item into view.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView ??= () => {};

describe('the command palette', () => {
  it('filters the Recent list as the person types', async () => {
    let recent = addRecent([], { to: '/dashboard/members?teamId=t1', label: 'Members · Acme' });
    recent = addRecent(recent, { to: '/dashboard/calls?teamId=t1', label: 'Call logs · Acme' });
    const commands = paletteCommands({ team: { id: 't1', myRole: 'owner' }, teams: [{ id: 't1', name: 'Acme' }], isSiteAdmin: false, recent, theme: 'system' });
    render(<CommandPalette open onOpenChange={() => {}} commands={commands} onRun={vi.fn()} />);
    const recentGroup = () => screen.queryByRole('group', { name: 'Recent' });
    expect(within(recentGroup()!).getAllByRole('option').map((o) => o.textContent)).toEqual(['Call logs · Acme', 'Members · Acme']);
    await userEvent.type(screen.getByRole('combobox'), 'members');
    expect(within(recentGroup()!).getAllByRole('option').map((o) => o.textContent)).toEqual(['Members · Acme']);
    // The letters of a recent page's path ("/dashboard/…?teamId=") are not what the person reads.
    for (const q of ['team', 'dash', 'invite']) {
      await userEvent.clear(screen.getByRole('combobox'));
      await userEvent.type(screen.getByRole('combobox'), q);
      expect(recentGroup(), q).toBeNull();
    }
    expect(recentGroup()).toBeNull();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toContain('Invite member');
  });
});
