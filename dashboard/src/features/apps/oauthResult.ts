// The outcome of HubSpot's OAuth round trip on the dashboard's address: /dashboard?app=hubspot&result=error&reason=…
// from the server's callback (openapi: completeHubspotAuthorization), or result=connected&connectedAppId=… from the
// dashboard's callback page once it finished the connection (HubspotCallbackPage).

export type OAuthOutcome = { ok: true; connectedAppId: string | null } | { ok: false; reason: string; message: string };

const REASONS: Record<string, string> = {
  denied: 'HubSpot was not connected: the access request was declined in HubSpot.',
  invalid_state: 'HubSpot was not connected: the connection request had expired or was not valid. Start again from Connect HubSpot.',
};

/** The outcome named by the query string, or null when it is not about HubSpot. */
export function hubspotOutcome(params: URLSearchParams): OAuthOutcome | null {
  if (params.get('app') !== 'hubspot') return null;
  const result = params.get('result');
  if (result === 'connected') return { ok: true, connectedAppId: params.get('connectedAppId') };
  if (result !== 'error') return null;
  const reason = params.get('reason') ?? '';
  return { ok: false, reason, message: REASONS[reason] ?? 'HubSpot was not connected. Try again, or ask an admin to check the server’s HubSpot settings.' };
}

/** The query string without the outcome's keys, so a reload does not show it again. */
export function withoutOutcome(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['app', 'result', 'reason', 'connectedAppId']) next.delete(key);
  return next;
}
