// The inbox: the team's call outcomes (10 a page; a search when `searchQuery` is set), one item,
// the public view of a shared item, and the changes (priority, visibility, delete), each
// refreshing what it changes. Spec section 9: the inbox is cached for 5 minutes; the event
// stream's `inbox.updated` (and `call.updated`, since every finished call files an item)
// refreshes it sooner (app/liveEvents.ts).

import type { QueryClient } from '@tanstack/react-query';

import {
  deleteInboxItem,
  getGetInboxItemQueryKey,
  getGetPublicInboxItemQueryKey,
  getInboxItem,
  getListInboxItemsQueryKey,
  getPublicInboxItem,
  getSearchInboxItemsQueryKey,
  listInboxItems,
  searchInboxItems,
  updateInboxItem,
} from '../../api/gen/inbox/inbox';
import type { InboxItem, InboxItemListResponse, InboxSortBy, InboxVisibility } from '../../api/gen/model';

export const INBOX_PAGE_SIZE = 10;
/** Spec section 9: the inbox cache lives 5 minutes. */
export const INBOX_CACHE_MS = 5 * 60_000;
/** Spec section 9: the search waits for 500 ms without typing. */
export const SEARCH_DEBOUNCE_MS = 500;

const LIST_ROOT = [getListInboxItemsQueryKey()[0]];
const SEARCH_ROOT = [getSearchInboxItemsQueryKey()[0]];

export interface InboxSort {
  sortBy: InboxSortBy;
  ascending: boolean;
}

export const DEFAULT_SORT: InboxSort = { sortBy: 'createdAt', ascending: false };

/** The list, or the search when there is text to look for. */
export function inboxQueryOptions(organizationId: string, page: number, search: string, sort: InboxSort = DEFAULT_SORT) {
  const query = search.trim();
  const base = { organizationId, page, sizePerPage: INBOX_PAGE_SIZE, sortBy: sort.sortBy, ascending: sort.ascending };
  if (query) {
    const params = { ...base, query };
    return {
      queryKey: getSearchInboxItemsQueryKey(params),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<InboxItemListResponse> => searchInboxItems(params, { signal }),
      staleTime: INBOX_CACHE_MS,
    };
  }
  return {
    queryKey: getListInboxItemsQueryKey(base),
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<InboxItemListResponse> => listInboxItems(base, { signal }),
    staleTime: INBOX_CACHE_MS,
  };
}

export function inboxItemQueryOptions(organizationId: string, id: string) {
  const params = { organizationId };
  return {
    queryKey: getGetInboxItemQueryKey(id, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getInboxItem(id, params, { signal })).data,
    staleTime: INBOX_CACHE_MS,
  };
}

export function publicInboxItemQueryOptions(organizationId: string, id: string) {
  const params = { organizationId };
  return {
    queryKey: getGetPublicInboxItemQueryKey(id, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getPublicInboxItem(id, params, { signal })).data,
  };
}

/** Every inbox list and search, and one item when named. */
export function invalidateInbox(queryClient: QueryClient, id?: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: LIST_ROOT }),
    queryClient.invalidateQueries({ queryKey: SEARCH_ROOT }),
    id ? queryClient.invalidateQueries({ queryKey: getGetInboxItemQueryKey(id).slice(0, 1) }) : undefined,
  ]);
}

export interface InboxChange {
  organizationId: string;
  id: string;
  priority?: number;
  visibility?: InboxVisibility;
}

export function updateInboxMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ organizationId, id, priority, visibility }: InboxChange) =>
      (await updateInboxItem(id, { organizationId, ...(priority !== undefined ? { priority } : {}), ...(visibility ? { visibility } : {}) })).data,
    onSuccess: (item: InboxItem) => {
      queryClient.setQueryData(getGetInboxItemQueryKey(item.id, { organizationId: item.organizationId }), item);
      return invalidateInbox(queryClient);
    },
  };
}

export function deleteInboxMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ organizationId, id }: { organizationId: string; id: string }) => deleteInboxItem(id, { organizationId }),
    onSuccess: (_: unknown, { id }: { id: string }) => invalidateInbox(queryClient, id),
  };
}

/** Priority in words: 0 is the lowest; the outcome sets it when the item is filed. */
export function priorityLabel(priority: number): { label: string; tone: 'declined' | 'warning' | 'info' | 'neutral' } {
  if (priority >= 75) return { label: 'Urgent', tone: 'declined' };
  if (priority >= 50) return { label: 'High', tone: 'warning' };
  if (priority >= 25) return { label: 'Medium', tone: 'info' };
  return { label: 'Low', tone: 'neutral' };
}

/** The priorities the dashboard offers (spec section 3: urgent, high, medium, low). */
export const PRIORITY_CHOICES = [
  { value: 100, label: 'Urgent' },
  { value: 50, label: 'High' },
  { value: 25, label: 'Medium' },
  { value: 0, label: 'Low' },
] as const;

/** The share link of a public item: the page anyone can open without signing in. */
export function publicLink(origin: string, item: Pick<InboxItem, 'id' | 'organizationId'>): string {
  return `${origin}/inbox?inboxId=${encodeURIComponent(item.id)}&organizationId=${encodeURIComponent(item.organizationId)}`;
}
