// The help sidebar's entries (spec section 2) and our own short guide for each. The order here
// is the reading order of /docs and /getting-started (previous / next). A guide about a part of
// Betty that is not built yet names it in `needs` and shows as a preview of what is coming.

import { availableWhen, type AreaId } from '../../lib/features';

export type HelpSection = 'GETTING STARTED' | 'GUIDES' | 'EXTERNAL APPS' | 'RESOURCES';

export interface Guide {
  /** The path under /docs/, e.g. `teams` or `test-your-agent-profile/buy-phone-number`. */
  slug: string;
  section: HelpSection;
  title: string;
  summary: string;
  steps?: string[];
  body: string[];
  /** A dashboard screen the guide is about. */
  action?: { label: string; to: string };
  /** Indented under the previous top-level entry. */
  child?: boolean;
  /** The parts of Betty it is about; while one is not built the guide is a preview. */
  needs?: AreaId[];
}

export const HELP_SECTIONS: HelpSection[] = ['GETTING STARTED', 'GUIDES', 'EXTERNAL APPS', 'RESOURCES'];

export const GUIDES: Guide[] = [
  {
    slug: 'onboarding',
    section: 'GETTING STARTED',
    title: 'Onboarding',
    summary: 'The five steps from a new team to your first AI phone call.',
    body: [
      'Every team has an onboarding checklist: create the team, create an agent, buy a phone number, pair the number with the agent, and make a test call. Betty ticks each step off by itself as soon as what it names exists.',
      'All five steps can be done here: create the team, create an agent, buy a number, pair it with the agent, and make a test call — Test run on a workflow calls your own phone, and the call lands in Call logs with its transcript and recording.',
      'Open the checklist at any time from the dashboard home or the Onboarding link in the sidebar.',
    ],
    action: { label: 'Open the onboarding checklist', to: '/onboarding' },
  },
  {
    slug: 'test-your-agent-profile',
    needs: ['agents', 'phoneNumbers', 'calls'],
    section: 'GETTING STARTED',
    title: 'Test your agent profile',
    summary: 'Hear your agent on a real call before your customers do.',
    body: [
      'The quickest way to judge an agent is to call it. Testing takes four steps: create the agent, buy a number, pair the two, and ring the number from your own phone.',
      'Each step has its own page below; follow them in order.',
    ],
  },
  {
    slug: 'test-your-agent-profile/create-your-agent',
    needs: ['agents'],
    section: 'GETTING STARTED',
    child: true,
    title: 'Create your agent',
    summary: 'Give the agent a name, a voice, a persona and a greeting.',
    steps: [
      'Open Agents and choose New agent.',
      'Name the agent and pick a voice; you can preview each voice before choosing.',
      'Write the instructions: who the agent is, what it may promise and when it hands over to a person.',
      'Write the greeting, the first sentence callers hear, play it to hear it in the chosen voice, and choose Create agent.',
    ],
    body: ['Add the questions callers ask most, with their answers, in the FAQ below the profile; the order you give is the order the agent reads them in.'],
  },
  {
    slug: 'test-your-agent-profile/buy-phone-number',
    needs: ['phoneNumbers'],
    section: 'GETTING STARTED',
    child: true,
    title: 'Buy a phone number',
    summary: 'Pick a number for the agent to answer.',
    steps: ['Open Phone numbers and go to Buy a number.', 'Search by country, type and area code (US local numbers, 20 at a time, by default).', 'Choose Buy next to a number. With a carrier account it is billed monthly; a server running the offline simulator sells fictional numbers free, and says so.'],
    body: ['Buying numbers needs the admin or owner role, and some countries require a verified team (see L1 and L2 verification).'],
  },
  {
    slug: 'test-your-agent-profile/pair-phone-number-and-agent',
    needs: ['agents', 'phoneNumbers'],
    section: 'GETTING STARTED',
    child: true,
    title: 'Pair the number and the agent',
    summary: 'Tell Betty which agent answers which number.',
    steps: ['Open Phone numbers.', 'Next to your number, under Answered by, choose the agent that should answer it.', 'Calls to the number now reach that agent.'],
    body: [
      'Calls follow an inbound workflow. If the number already answers one of yours, that workflow gets the agent; otherwise Betty makes the workflow “Calls to <your number>” from the Answer calls template: the agent greets the caller, answers from its profile, its FAQ and the knowledge base, and takes a message for anything more. Open it from the link that appears, or under Workflows, and change it like any workflow.',
      'Your team has one pairing at a time: choosing an agent for another number moves it there, and the workflow made for the first number stays until you delete it. Calls already in progress are not affected.',
    ],
  },
  {
    slug: 'test-your-agent-profile/test-call-the-phone-number',
    needs: ['agents', 'phoneNumbers', 'calls'],
    section: 'GETTING STARTED',
    child: true,
    title: 'Test-call the phone number',
    summary: 'Ring your agent and review the call.',
    steps: [
      'Open Workflows and the workflow your agent follows (or the Workflow tab of its campaign), and choose Test run.',
      'Enter the number to call (usually your own phone), the name the agent should use for you and a short persona: who you are and why you might be calling.',
      'Choose Call now and follow the conversation as it happens; then choose Open in call logs to listen to the recording, read the transcript and see what the call cost.',
    ],
    body: [
      'A test run places one call and follows the workflow as if you were one of its contacts; it writes nothing to your CRM. On a server without a carrier account the call is simulated: the person answering plays the persona you wrote, and the recording is synthesised.',
      'Adjust the persona or the knowledge base and test again until the agent sounds right. The onboarding checklist marks this step done after the first call.',
      'To hear how the agent answers the number you paired it with, call the number from a phone (on a server with a Telnyx account), or, on a server without one, ring it with a simulated caller from the command line: betty calls simulate-inbound --to <your number> --persona "Wants your opening hours" --follow.',
    ],
    action: { label: 'Open call logs', to: '/dashboard/calls' },
  },
  {
    slug: 'agent-profile',
    needs: ['agents'],
    section: 'GUIDES',
    title: 'Agent profiles',
    summary: 'What an agent is made of and how to edit it.',
    body: [
      'An agent profile is a voice, a persona (the instructions the agent follows), a greeting and the knowledge bases it may draw on. A campaign uses one active agent at a time; activating another deactivates the previous one.',
      'What an agent knows beyond its own FAQ comes from the campaign’s active knowledge base: documents (PDF, DOCX, text, Markdown, CSV, HTML) and FAQs added under Knowledge, or on the campaign’s Knowledge Base tab. A campaign has one active knowledge base at a time; the tab’s search shows the passages an agent would be given for a question.',
      'Members and above can create, edit and delete agents and knowledge bases. Read-only members can open them to see how they are set up.',
    ],
    action: { label: 'Open knowledge bases', to: '/dashboard/knowledge-base' },
  },
  {
    slug: 'voice-profile',
    needs: ['voices'],
    section: 'GUIDES',
    title: 'Voice profiles',
    summary: 'Preset voices and your own custom voice.',
    body: [
      'Choose from the preset voices, or create a custom voice from a recording of someone speaking. A team may have one custom voice, or three on the Custom plan.',
      'Preview a voice with your own greeting before you use it in an agent.',
    ],
  },
  {
    slug: 'workflow-canvas',
    needs: ['workflows'],
    section: 'GUIDES',
    title: 'Workflow canvas',
    summary: 'Draw what happens on a call, step by step.',
    body: [
      'A workflow is a graph of steps read from the bottom up: the start, what the agent says, what the customer answers, conditional paths, transfers, webhooks and the end of the call.',
      'Add a step with the plus button on an edge, edit a step from its menu, and connect each step to exactly one next step (a conditional path branches). Outbound workflows also have a contacts step fed by a CSV upload; HubSpot and Zapier sources arrive with the integrations.',
      'Changes save as you go. If someone else saved the workflow after you opened it, you choose: reload their version or keep yours. Undo and redo with Ctrl+Z and Ctrl+Shift+Z; F fits the whole flow on screen.',
      'Run calls every contact not called yet. Before it starts, Betty shows how many contacts it will call, the calling window and the caps (calls at once, retries, credits); numbers on the team’s do-not-call list are never dialled. Runs shows the run live — queued, being called, completed, failed, suppressed — with End job to stop dialling, and the history of past runs. Every finished call files an outcome in the Inbox.',
    ],
    action: { label: 'Open workflows', to: '/dashboard/workflow-canvas' },
  },
  {
    slug: 'shopify-setting-setup',
    needs: ['connectedApps'],
    section: 'GUIDES',
    title: 'Shopify setup',
    summary: 'Put a call-me widget on your storefront.',
    steps: [
      'Choose the outbound workflow the widget starts (one per team) on the Shopify setup page.',
      'Copy the snippet: a script tag that loads /widget.js from your Betty server with your team’s publishable key (betty_pk_…).',
      'In Shopify admin, open Online Store → Themes → Edit code, and paste it into layout/theme.liquid just before </body>.',
      'Save: a “Request a call” button appears at the bottom right of every page; try it with your own phone.',
    ],
    body: [
      'A shopper types a phone number and ticks a consent box; Betty then places one call to that number with the workflow you chose, under the same rules as any run: the calling window in the number’s time zone, your do-not-call list, the 24-hour cap per number and your credits.',
      'The widget is public, so Betty limits it: 5 requests an hour from one address, 2 calls a day to one number, 100 calls a day for the team, and only valid numbers in the countries the server allows. The consent (its text, the page, the address and the time) is kept with the call.',
      'The publishable key only identifies your team; it cannot read or change anything private, so it is safe to put on a public page.',
    ],
    action: { label: 'Set up the widget', to: '/dashboard/shopify-setting-setup' },
  },
  {
    slug: 'teams',
    section: 'GUIDES',
    title: 'Teams',
    summary: 'Members, roles, invitations and ownership.',
    body: [
      'Everything in Betty belongs to a team. You can be in several teams and switch between them from the sidebar; the dashboard remembers the last team you used on this browser.',
      'Roles, from most to least: Owner (one per team; may delete the team and transfer ownership), Admin (members, team properties, verification, billing), Developer (API keys, integrations, webhooks; sees billing), Member (agents, campaigns, workflows) and Read only.',
      'Admins invite people by e-mail. The invitation link works whether or not the person has an account yet: they sign in or create one, and join the team. Ownership moves only by transfer, which the new owner confirms from an e-mailed link.',
      "On a server without an e-mail relay nothing is sent: each link is written to the server's log, and a site admin finds it under Admin → Outgoing mail or with betty admin mail list, to pass on.",
      'Removing a member revokes the API keys they made, unless you choose to keep them; keys kept that way are marked "Maker left" on the API keys page.',
    ],
    action: { label: 'Manage members', to: '/dashboard/members' },
  },
  {
    slug: 'l1-and-l2-verification',
    section: 'GUIDES',
    title: 'L1 and L2 verification',
    summary: 'Why teams are verified and how to ask for it.',
    body: [
      'Verification tells phone carriers that your business is real. Level 1 (L1) unlocks buying numbers and calling in most countries; level 2 (L2) raises calling limits and unlocks regulated countries.',
      'An admin or the owner requests verification from Team settings. Betty staff review the request; the badge in Team settings shows Pending until it is completed.',
    ],
    action: { label: 'Open Team settings', to: '/dashboard/team' },
  },
  {
    slug: 'buy-phone-number',
    needs: ['phoneNumbers', 'billing'],
    section: 'GUIDES',
    title: 'Buying phone numbers',
    summary: 'Number types, countries and monthly costs.',
    body: [
      'Local numbers suit a business that serves one area; toll-free numbers suit a national audience. Each number is a monthly subscription, paid on Stripe’s checkout page and listed on the Billing screen.',
      'Admins and the owner can buy and release numbers. Releasing a number ends its subscription at the end of the period and the number may go to someone else.',
    ],
  },
  {
    slug: 'billing',
    needs: ['billing'],
    section: 'GUIDES',
    title: 'Plans, credits and billing',
    summary: 'What a plan lifts, how calls are paid and where invoices live.',
    body: [
      'Calls are paid from prepaid credits: one credit is one US dollar, and each billed call minute costs the per-minute rate shown beside your usage. A plan (Starter, Professional, Growth or Custom) is a monthly subscription that lifts the team’s limits: calls at once, bought numbers, seats and custom voices. Custom is arranged with sales.',
      'Owners, admins and developers see the Billing screen; only admins and the owner buy credits, choose a plan or change the billing address. Payments happen on Stripe’s own checkout page, never in a card field of Betty’s, and what was bought shows once Stripe confirms it. Manage subscription opens Stripe’s portal for the card, invoices and cancelling.',
      'A server without Stripe configured says so instead of pretending to charge; a site admin can grant credits and set the plan meanwhile.',
    ],
    action: { label: 'Open Billing', to: '/dashboard/billing' },
  },
  {
    slug: 'api-keys',
    section: 'EXTERNAL APPS',
    title: 'API keys',
    summary: 'Let your own code act for the team.',
    body: [
      'An API key (betty_sk_…) acts for one team with the role chosen when it was made: developer by default, never owner and never above your own role. Send it as Authorization: Bearer <key> or X-API-Key.',
      'A key never does more than the member who made it: demoting them lowers their keys; removing them revokes their keys unless you keep them. A kept key shows "Maker left" beside its maker.',
      'The full key is shown only once, when it is created: copy it into your secret store straight away. Delete a key as soon as it is no longer used or may have leaked.',
    ],
    action: { label: 'Manage API keys', to: '/dashboard/api-keys' },
  },
  {
    slug: 'zapier',
    needs: ['connectedApps'],
    section: 'EXTERNAL APPS',
    title: 'Zapier',
    summary: 'Send contacts in and call outcomes out through Zapier.',
    steps: [
      'Create an API key for Zapier on the API keys page (developer role is enough) and copy it.',
      'In Zapier, add Betty’s app to a zap and paste the key when Zapier asks to connect an account.',
      'To feed a workflow, set its Contacts node source to Zapier and use the Add contacts action with that workflow’s and node’s ids.',
    ],
    body: [
      'Zaps talk to Betty with an API key. Triggers start a zap when a call finishes, an inbox item is added, a workflow job finishes or a contact is added; Zapier subscribes to them by itself, and a zap that is turned off is unsubscribed.',
      'Contacts sent by a zap are checked like CSV rows (numbers normalised to E.164) and called under the same rules: calling window, do-not-call list and caps.',
      'Connecting Zapier on the Zapier page only lets Betty list your zaps there; zaps run without it. Deleting the API key stops every zap that uses it. Betty’s Zapier app is a private app published by whoever runs your server.',
    ],
    action: { label: 'Open the Zapier page', to: '/dashboard/zapier' },
  },
  {
    slug: 'connected-apps',
    needs: ['connectedApps'],
    section: 'EXTERNAL APPS',
    title: 'Connected apps',
    summary: 'Your HubSpot portal, linked to Betty.',
    steps: [
      'On Connected apps choose Connect HubSpot (developers, admins and the owner can), and approve Betty in HubSpot.',
      'In a workflow, set the Contacts node source to HubSpot, choose the portal, and search HubSpot to pick the contacts to call.',
      'Add a HubSpot lifecycle stage step to move each contact to a stage after the call.',
    ],
    body: [
      'HubSpot’s tokens stay on your Betty server, encrypted; they are never shown. The list of connections is checked every 30 seconds, and a Contacts node refreshes its HubSpot contacts every 10 seconds.',
      'HubSpot contacts are called like CSV ones: numbers in E.164, the calling window, the do-not-call list and caps apply.',
      'Disconnect revokes the tokens; Contacts nodes that use the portal stop syncing. Reconnect to approve it again. If the server has no HubSpot app credentials, the page says so instead of connecting.',
    ],
    action: { label: 'Open Connected apps', to: '/dashboard/connected-apps' },
  },
  {
    slug: 'faqs',
    section: 'RESOURCES',
    title: 'FAQs',
    summary: 'Short answers to common questions.',
    body: [
      'Where is my data? On the server your team runs Betty on: its database and its file store. Nothing leaves it except the calls and messages you send through your providers.',
      'I did not get an e-mail. Check the spam folder. On a server without an e-mail relay nothing is sent at all: each link is written to the server log, and a site admin finds it under Admin → Outgoing mail or with betty admin mail list.',
      'I lost an API key. Keys cannot be shown again: delete it and create a new one.',
    ],
  },
  {
    slug: 'privacy-policy',
    section: 'RESOURCES',
    title: 'Privacy policy',
    summary: 'How this Betty server treats personal data.',
    body: [
      'Betty is self-hosted: the team that runs this server is responsible for the personal data on it, including call recordings and transcripts. Ask them for their privacy policy.',
      'Betty itself keeps passwords only as one-way hashes, stores tokens and API keys only as hashes, and never writes them to its logs.',
    ],
  },
];

/** "Available when agents are built" for a guide about a part not built yet; empty otherwise. */
export function guidePreview(guide: Guide): string {
  return availableWhen(guide.needs ?? []);
}

export function guideBySlug(slug: string): Guide | undefined {
  return GUIDES.find((g) => g.slug === slug);
}

/** The guides before and after one, for previous / next navigation. */
export function neighbours(slug: string, list: readonly Guide[] = GUIDES): { previous?: Guide; next?: Guide } {
  const index = list.findIndex((g) => g.slug === slug);
  if (index < 0) return {};
  return {
    ...(index > 0 ? { previous: list[index - 1]! } : {}),
    ...(index < list.length - 1 ? { next: list[index + 1]! } : {}),
  };
}
