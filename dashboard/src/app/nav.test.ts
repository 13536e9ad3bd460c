import { describe, expect, it } from 'vitest';

import { routes } from './App';
import { PRODUCT_AREAS } from '../lib/features';
import { availableNavItems, isNavItemAvailable, navGroups, navItemFor } from '../lib/nav';

function routePaths(): string[] {
  const out: string[] = [];
  const walk = (list: typeof routes) => {
    for (const r of list) {
      if (r.path) out.push(`/${r.path}`);
      if (r.children) walk(r.children);
    }
  };
  walk(routes);
  return out;
}

describe('navigation model', () => {
  it('groups the sidebar as Home … Inbox · Team · Help, with Site admin for site admins only', () => {
    expect(navGroups({ isSiteAdmin: false }).map((g) => g.label ?? '')).toEqual(['', 'Team', 'Help']);
    expect(navGroups({ isSiteAdmin: false })[0]!.items.map((i) => i.label)).toEqual(['Home', 'Campaigns', 'Agents', 'Workflows', 'Knowledge', 'Phone numbers', 'Voices', 'Calls', 'Inbox', 'Do-not-call']);
    expect(navGroups({ isSiteAdmin: false })[1]!.items.map((i) => i.label)).toEqual(['Team settings', 'Members', 'API keys', 'Connected apps', 'Zapier', 'Shopify widget', 'Billing']);
    expect(navGroups({ isSiteAdmin: true }).at(-1)!.items.map((i) => i.id)).toEqual(['admin']);
  });

  it('follows the product areas: an item is a link exactly when its area is built', () => {
    for (const group of navGroups({ isSiteAdmin: true })) {
      for (const item of group.items) {
        const a = PRODUCT_AREAS.find((p) => p.id === item.area);
        expect(isNavItemAvailable(item)).toBe(a ? a.available : true);
      }
    }
  });

  it('links only to screens that exist', () => {
    const paths = routePaths();
    for (const item of availableNavItems({ isSiteAdmin: true })) expect(paths).toContain(item.path);
  });

  it('finds the item behind a path for the breadcrumb', () => {
    expect(navItemFor('/dashboard')).toMatchObject({ item: { id: 'home' } });
    expect(navItemFor('/dashboard/members')).toMatchObject({ item: { id: 'members' }, group: { id: 'team' } });
    expect(navItemFor('/docs/teams')).toMatchObject({ item: { id: 'docs' } });
    expect(navItemFor('/dashboard/profile')).toEqual({ label: 'Profile', group: undefined });
    expect(navItemFor('/nowhere')).toBeNull();
  });
});
