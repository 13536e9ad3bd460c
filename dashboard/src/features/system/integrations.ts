// Whether this deployment can connect each integration (its OAuth app set by the operator).
// A Connect that would answer 501/503 is shown unavailable, with the settings still to set.

import { useGetServerInfo } from '../../api/gen/system/system';
import type { AppIntegration, IntegrationSetup } from '../../api/gen/model';

/** The integration's setup on this server; undefined while the server has not said (Connect stays offered). */
export function useIntegrationSetup(id: AppIntegration): IntegrationSetup | undefined {
  const info = useGetServerInfo({ query: { staleTime: Infinity, gcTime: Infinity, retry: false } });
  return info.data?.data.integrations?.find((i) => i.integrationId === id);
}

