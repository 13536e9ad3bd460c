// The dashboard's navigation: the sidebar's groups, the top bar's breadcrumb and the command
// palette's pages all come from this one list. An item tied to a product area follows that area's
// `available` flag in features.ts: not built, it shows as "Soon" with no link; built, it is a link.

import type { LucideIcon } from 'lucide-react';
import {
  AudioLines,
  BookOpen,
  Bot,
  CreditCard,
  GraduationCap,
  House,
  Inbox,
  KeyRound,
  Library,
  Megaphone,
  Phone,
  PhoneCall,
  PhoneOff,
  Plug,
  Settings,
  ShieldCheck,
  ShoppingBag,
  Users,
  Workflow,
  Zap,
} from 'lucide-react';

import type { TeamRole } from '../api/gen/model';
import { area, type AreaId } from './features';
import { can, type TeamAction } from './roles';

export interface NavItem {
  id: string;
  label: string;
  icon: LucideIcon;
  path: string;
  /** The product area behind it; without one the screen always exists. */
  area?: AreaId;
  /** Only the exact path marks it current (Home would match everything otherwise). */
  end?: boolean;
  /** Extra words the command palette matches. */
  keywords?: string[];
  /** Shown only to roles allowed this (billing: owner, admin and developer). */
  needs?: TeamAction;
}

export interface NavGroup {
  id: 'main' | 'team' | 'help' | 'server';
  /** Shown above the group; the first group has none. */
  label?: string;
  items: NavItem[];
}

const MAIN: NavItem[] = [
  { id: 'home', label: 'Home', icon: House, path: '/dashboard', end: true, keywords: ['overview', 'dashboard', 'start'] },
  { id: 'campaigns', label: 'Campaigns', icon: Megaphone, path: area('campaigns').path, area: 'campaigns' },
  { id: 'agents', label: 'Agents', icon: Bot, path: area('agents').path, area: 'agents' },
  { id: 'workflows', label: 'Workflows', icon: Workflow, path: area('workflows').path, area: 'workflows' },
  { id: 'knowledge', label: 'Knowledge', icon: Library, path: area('knowledgeBases').path, area: 'knowledgeBases', keywords: ['knowledge base', 'faq', 'files'] },
  { id: 'phone-numbers', label: 'Phone numbers', icon: Phone, path: area('phoneNumbers').path, area: 'phoneNumbers' },
  { id: 'voices', label: 'Voices', icon: AudioLines, path: area('voices').path, area: 'voices' },
  { id: 'calls', label: 'Calls', icon: PhoneCall, path: area('calls').path, area: 'calls', keywords: ['call logs', 'transcripts', 'recordings'] },
  { id: 'inbox', label: 'Inbox', icon: Inbox, path: area('inbox').path, area: 'inbox', keywords: ['call outcomes', 'summaries'] },
  { id: 'do-not-call', label: 'Do-not-call', icon: PhoneOff, path: area('doNotCall').path, area: 'doNotCall', keywords: ['dnc', 'suppression', 'opt out', 'blocked numbers'] },
];

const TEAM: NavItem[] = [
  { id: 'team', label: 'Team settings', icon: Settings, path: area('teamSettings').path, area: 'teamSettings', keywords: ['team', 'verification', 'delete team'] },
  { id: 'members', label: 'Members', icon: Users, path: area('members').path, area: 'members', keywords: ['people', 'invite', 'roles'] },
  { id: 'api-keys', label: 'API keys', icon: KeyRound, path: area('apiKeys').path, area: 'apiKeys', keywords: ['tokens', 'developer'] },
  { id: 'connected-apps', label: 'Connected apps', icon: Plug, path: area('connectedApps').path, area: 'connectedApps', keywords: ['hubspot', 'crm', 'integrations', 'oauth'] },
  { id: 'zapier', label: 'Zapier', icon: Zap, path: '/dashboard/zapier', area: 'connectedApps', keywords: ['zaps', 'automation', 'templates'] },
  { id: 'shopify', label: 'Shopify widget', icon: ShoppingBag, path: '/dashboard/shopify-setting-setup', area: 'connectedApps', keywords: ['storefront', 'book a call', 'widget', 'shop'] },
  { id: 'billing', label: 'Billing', icon: CreditCard, path: area('billing').path, area: 'billing', needs: 'viewBilling', keywords: ['plan', 'credits', 'invoices'] },
];

const HELP: NavItem[] = [
  { id: 'onboarding', label: 'Onboarding', icon: GraduationCap, path: '/onboarding', end: true, keywords: ['checklist', 'getting started', 'setup'] },
  { id: 'docs', label: 'Docs', icon: BookOpen, path: '/docs', keywords: ['help', 'guides'] },
];

const ADMIN: NavItem = { id: 'admin', label: 'Site admin', icon: ShieldCheck, path: '/admin', end: true, keywords: ['users', 'outgoing mail', 'verification'] };

export function isNavItemAvailable(item: NavItem): boolean {
  return item.area === undefined || area(item.area).available;
}

/** Whether a person of `role` in the team sees the item at all (unrelated to Coming soon). */
export function isNavItemVisible(item: NavItem, role: TeamRole | undefined): boolean {
  return item.needs === undefined || can(role, item.needs).allowed;
}

/** The sidebar's groups for this person: the admin group only for site admins. */
export function navGroups({ isSiteAdmin }: { isSiteAdmin: boolean }): NavGroup[] {
  const groups: NavGroup[] = [
    { id: 'main', items: MAIN },
    { id: 'team', label: 'Team', items: TEAM },
    { id: 'help', label: 'Help', items: HELP },
  ];
  if (isSiteAdmin) groups.push({ id: 'server', label: 'Server', items: [ADMIN] });
  return groups;
}

/** Every item that has a screen today, for the palette's Pages group. */
export function availableNavItems({ isSiteAdmin }: { isSiteAdmin: boolean }): NavItem[] {
  return navGroups({ isSiteAdmin })
    .flatMap((g) => g.items)
    .filter(isNavItemAvailable);
}

const EXTRA_PAGES: { path: string; label: string; group: NavGroup['id'] }[] = [{ path: '/dashboard/profile', label: 'Profile', group: 'main' }];

/** The nav item a path belongs to (the longest matching path), for the breadcrumb. */
export function navItemFor(pathname: string): { item: NavItem; group: NavGroup } | { label: string; group: undefined } | null {
  let best: { item: NavItem; group: NavGroup } | null = null;
  for (const group of navGroups({ isSiteAdmin: true })) {
    for (const item of group.items) {
      const matches = item.end ? pathname === item.path : pathname === item.path || pathname.startsWith(`${item.path}/`);
      if (matches && (!best || item.path.length > best.item.path.length)) best = { item, group };
    }
  }
  if (best) return best;
  const extra = EXTRA_PAGES.find((p) => p.path === pathname);
  return extra ? { label: extra.label, group: undefined } : null;
}
