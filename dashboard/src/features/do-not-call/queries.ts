// The team's do-not-call list: 10 a page newest first, searched by digits or reason words;
// add one number, remove one (admins and the owner), import a CSV. Every change refreshes the list.

import type { QueryClient } from '@tanstack/react-query';

import { customFetch } from '../../api/mutator';
import { addDoNotCall, getImportDoNotCallUrl, getListDoNotCallQueryKey, listDoNotCall, removeDoNotCall } from '../../api/gen/calls/calls';
import type { DoNotCallImportResponse } from '../../api/gen/model';

export const DNC_PAGE_SIZE = 10;
/** The contract's limit on an imported file. */
export const DNC_IMPORT_MAX_BYTES = 2 * 1024 * 1024;

const LIST_ROOT = [getListDoNotCallQueryKey()[0]];

export function doNotCallQueryOptions(organizationId: string, page: number, search: string) {
  const q = search.trim();
  const params = { organizationId, page, sizePerPage: DNC_PAGE_SIZE, ...(q ? { search: q } : {}) };
  return {
    queryKey: getListDoNotCallQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listDoNotCall(params, { signal }),
  };
}

export function invalidateDoNotCall(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: LIST_ROOT });
}

export function addDoNotCallMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; phoneNumber: string; reason?: string }) => (await addDoNotCall(body)).data,
    onSuccess: () => invalidateDoNotCall(queryClient),
  };
}

export function removeDoNotCallMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ organizationId, id }: { organizationId: string; id: string }) => removeDoNotCall(id, { organizationId }),
    onSuccess: () => invalidateDoNotCall(queryClient),
  };
}

/**
 * Sends the CSV as it is (`text/csv`). The generated `importDoNotCall` would JSON-encode the
 * text (orval treats every string body as JSON), so the request is made here with the mutator.
 */
export async function importDoNotCallCsv(organizationId: string, csv: string, reason?: string) {
  const url = getImportDoNotCallUrl({ organizationId, ...(reason?.trim() ? { reason: reason.trim() } : {}) });
  return (await customFetch<DoNotCallImportResponse>(url, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: csv })).data;
}

export function importDoNotCallMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ organizationId, csv, reason }: { organizationId: string; csv: string; reason?: string }) => importDoNotCallCsv(organizationId, csv, reason),
    onSuccess: () => invalidateDoNotCall(queryClient),
  };
}
