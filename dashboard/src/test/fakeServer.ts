import { vi } from 'vitest';

type Handler = (request: { method: string; url: URL; body: unknown }) => Response | Promise<Response>;

/**
 * Stubs fetch with a table of `"METHOD /path"` handlers; unknown requests answer 404 problem+json.
 * Returns the calls seen, for assertions.
 */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; url: URL; body: unknown; raw: unknown; headers: Headers }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      const body = typeof init.body === 'string' && init.body ? parseBody(init.body) : undefined;
      calls.push({ method, path: url.pathname, url, body, raw: init.body, headers: new Headers(init.headers) });
      const handler = routes[`${method} ${url.pathname}`];
      if (!handler) {
        return problem(404, 'not_found', `no fake route for ${method} ${url.pathname}`);
      }
      return handler({ method, url, body });
    }),
  );
  return calls;
}

/** A JSON body as its value; any other text (a CSV upload, say) as it was sent. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function ok(data: unknown, extra: Record<string, unknown> = {}, status = 200): Response {
  return Response.json({ status, data, ...extra }, { status });
}

export function problem(status: number, code: string, detail: string, errors?: { field: string; message: string }[]): Response {
  return new Response(JSON.stringify({ status, code, title: 'Error', detail, ...(errors ? { errors } : {}) }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

export function fakeUser(overrides: Record<string, unknown> = {}) {
  return {
    id: 'user-1',
    email: 'olivia@example.com',
    profile: { name: 'Olivia', avatarUrl: null, phoneNumber: null, jobTitle: null, timezone: null, locale: null, preferences: {} },
    isSiteAdmin: false,
    isInternal: false,
    hasNoTeamsOwned: false,
    emailConfirmed: true,
    emailConfirmedAt: '2026-01-01T00:00:00Z',
    lastSignInAt: null,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

export function fakeTeam(id: string, name: string, myRole = 'owner') {
  return {
    id,
    name,
    companyName: null,
    platformKey: null,
    industry: null,
    purpose: null,
    owner: { id: 'user-1', email: 'olivia@example.com', name: 'Olivia', avatarUrl: null },
    publicApiKey: 'betty_pk_x',
    verificationLevel: 'none',
    subscriptionTier: 'free',
    myRole,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

/** GET /v1/server/info for a server whose mail goes out by SMTP or stays in the outbox. */
export function serverInfo(mailDelivery: 'smtp' | 'outbox', { zapier = true, hubspot = true }: { zapier?: boolean; hubspot?: boolean } = {}) {
  const setup = (integrationId: 'hubspot' | 'zapier', configured: boolean) => ({ integrationId, configured, missingSettings: configured ? [] : [`--${integrationId}-client-id`, `--${integrationId}-client-secret`] });
  const integrations = [setup('hubspot', hubspot), setup('zapier', zapier)];
  return { 'GET /v1/server/info': () => ok({ version: '0.1.0', mailDelivery, emailConfirmationRequired: mailDelivery === 'smtp', integrations }) };
}

/** The routes every dashboard screen asks for: the user, their teams and pending invitations. */
export function dashboardRoutes(teams: unknown[] = [fakeTeam('t1', 'Acme')], user: Record<string, unknown> = {}) {
  return {
    'GET /v1/auth/me': () => ok(fakeUser(user)),
    'GET /v1/team/list': () => ok(teams, { meta: { ...emptyMeta, totalSize: teams.length, totalPages: 1 } }),
    'GET /v1/team/get-valid-pending-invitations': () => ok([]),
    // The shell asks for the plan's state (the past-due banner) for roles that see billing.
    'GET /v1/team/subscription/status': ({ url }: { url: URL }) =>
      ok({ organizationId: url.searchParams.get('organizationId'), subscriptionTier: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, trialEndsAt: null }),
  };
}

export function pageMeta(page: number, totalSize: number, size: number) {
  const totalPages = Math.ceil(totalSize / size);
  const start = totalSize === 0 ? 0 : (page - 1) * size + 1;
  return { page, totalSize, start, end: Math.min(page * size, totalSize), hasNext: page < totalPages, hasPrevious: page > 1, totalPages };
}

export function fakeMember(overrides: Record<string, unknown> = {}) {
  return {
    id: 'm1', organizationId: 't1', userId: 'u1', email: 'member@example.com', name: null, role: 'member', status: 'active',
    invitedAt: '2026-01-01T00:00:00Z', joinedAt: '2026-01-02T00:00:00Z', removedAt: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

export function fakeApiKey(overrides: Record<string, unknown> = {}) {
  return {
    id: 'k1', organizationId: 't1', name: 'CI', prefix: 'betty_sk_abcdefgh', role: 'developer', lastUsedAt: null,
    createdAt: '2026-01-03T00:00:00Z', updatedAt: '2026-01-03T00:00:00Z',
    ...overrides,
  };
}

export const emptyMeta = { page: 1, totalSize: 0, start: 0, end: 0, hasNext: false, hasPrevious: false, totalPages: 0 };

export function onboarding(teamId: string) {
  const keys = ['team-created', 'agent-created', 'phone-number-bought', 'phone-number-paired', 'test-call-made'];
  return { organizationId: teamId, completed: false, items: keys.map((key, i) => ({ key, label: key, done: i === 0, doneAt: null })) };
}
