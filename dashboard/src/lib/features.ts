// Which parts of the product this dashboard has today. The server answers 501 for the parts it
// does not have yet, so the dashboard shows them as "Coming soon": no link, no screen that
// pretends. When a part is built, flip its `available` flag and add its route; a test checks
// that every available part's path is a route, and that nothing links to a part that is not.

export type AreaId =
  | 'campaigns'
  | 'agents'
  | 'workflows'
  | 'knowledgeBases'
  | 'phoneNumbers'
  | 'voices'
  | 'inbox'
  | 'calls'
  | 'doNotCall'
  | 'billing'
  | 'connectedApps'
  | 'members'
  | 'apiKeys'
  | 'teamSettings';

export interface ProductArea {
  id: AreaId;
  /** Its name in the sidebar and on the start page. */
  label: string;
  /** How sentences name it: "Available when {noun} are built". */
  noun: string;
  /** The noun takes "is" ("the inbox is built"). */
  singular?: true;
  /** One sentence for the start page. */
  summary: string;
  /** Its dashboard screen. */
  path: string;
  available: boolean;
}

/** In sidebar order. */
export const PRODUCT_AREAS: readonly ProductArea[] = [
  {
    id: 'campaigns',
    label: 'Campaigns',
    noun: 'campaigns',
    summary: 'Answer your numbers around the clock, or dial a contact list at the pace and hours you choose.',
    path: '/dashboard/campaigns',
    available: true,
  },
  {
    id: 'agents',
    label: 'Agents',
    noun: 'agents',
    summary: 'Give each agent a persona, a greeting and the knowledge it may draw on.',
    path: '/dashboard/agents',
    available: true,
  },
  {
    id: 'workflows',
    label: 'Workflows',
    noun: 'workflows',
    summary: 'Draw what your agent says and does on a canvas: questions, transfers, webhooks and follow-ups.',
    path: '/dashboard/workflow-canvas',
    available: true,
  },
  {
    id: 'knowledgeBases',
    label: 'Knowledge bases',
    noun: 'knowledge bases',
    summary: 'Files and FAQs your agents answer from.',
    path: '/dashboard/knowledge-base',
    available: true,
  },
  {
    id: 'phoneNumbers',
    label: 'Phone numbers',
    noun: 'phone numbers',
    summary: 'Buy, verify and pair numbers with the agent that answers them.',
    path: '/dashboard/phone-numbers',
    available: true,
  },
  {
    id: 'voices',
    label: 'Voices',
    noun: 'voices',
    summary: 'Preset voices and a custom voice of your own.',
    path: '/dashboard/voices',
    available: true,
  },
  {
    id: 'inbox',
    label: 'Inbox',
    noun: 'the inbox',
    singular: true,
    summary: 'Call outcomes land in a shared team inbox: priority, a summary, and a link to share one.',
    path: '/dashboard/inbox',
    available: true,
  },
  {
    id: 'calls',
    label: 'Call logs',
    noun: 'call logs',
    summary: 'Every call on record, with its transcript, recording and cost, and the calls per day.',
    path: '/dashboard/calls',
    available: true,
  },
  {
    id: 'doNotCall',
    label: 'Do-not-call list',
    noun: 'the do-not-call list',
    singular: true,
    summary: 'Numbers no run ever dials; people who ask during a call are added by themselves.',
    path: '/dashboard/do-not-call',
    available: true,
  },
  {
    id: 'billing',
    label: 'Billing',
    noun: 'billing',
    singular: true,
    summary: 'Plans, credits and monthly number subscriptions.',
    path: '/dashboard/billing',
    available: true,
  },
  {
    id: 'connectedApps',
    label: 'Connected apps',
    noun: 'connected apps',
    summary: 'HubSpot, Zapier and a call-me widget for your storefront.',
    path: '/dashboard/connected-apps',
    available: true,
  },
  {
    id: 'members',
    label: 'Members',
    noun: 'members',
    summary: 'Invite people by link, give each a role from owner to read only, and hand over ownership.',
    path: '/dashboard/members',
    available: true,
  },
  {
    id: 'apiKeys',
    label: 'API keys',
    noun: 'API keys',
    summary: 'Let your own code act for the team, never with more rights than the member who made the key.',
    path: '/dashboard/api-keys',
    available: true,
  },
  {
    id: 'teamSettings',
    label: 'Team settings',
    noun: 'team settings',
    summary: 'Your team’s details, its verification level and, for the owner, deleting it.',
    path: '/dashboard/team',
    available: true,
  },
];

export function area(id: AreaId): ProductArea {
  const found = PRODUCT_AREAS.find((a) => a.id === id);
  if (!found) throw new Error(`unknown product area ${id}`);
  return found;
}

export function isAvailable(id: AreaId): boolean {
  return area(id).available;
}

export const AVAILABLE_AREAS: readonly ProductArea[] = PRODUCT_AREAS.filter((a) => a.available);
export const COMING_SOON_AREAS: readonly ProductArea[] = PRODUCT_AREAS.filter((a) => !a.available);

/** The areas among `ids` that are not built yet. */
export function missingAreas(ids: readonly AreaId[]): ProductArea[] {
  return ids.map(area).filter((a) => !a.available);
}

/** "Available when agents and phone numbers are built"; empty when nothing is missing. */
export function availableWhen(ids: readonly AreaId[]): string {
  const missing = missingAreas(ids);
  const nouns = missing.map((a) => a.noun);
  if (nouns.length === 0) return '';
  const list = nouns.length === 1 ? nouns[0]! : `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)!}`;
  const verb = missing.length === 1 && missing[0]!.singular ? 'is' : 'are';
  return `Available when ${list} ${verb} built`;
}
