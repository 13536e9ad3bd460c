import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';

import type { PageMeta } from '../api/gen/model';

/** A page of a server-paged list, in the contract's envelope. */
export interface PagedResponse {
  data: readonly unknown[];
  meta: PageMeta;
}

export interface PagedQueryOptions<R extends PagedResponse> {
  queryKey: QueryKey;
  queryFn: (context: { signal: AbortSignal }) => Promise<R>;
}

/** The page a URL asks for: a whole number from 1; anything else is page 1. */
export function pageFromParams(params: URLSearchParams, name = 'page'): number {
  const page = Number(params.get(name));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The page to show after deleting `count` rows of a page showing `shown`: back one when it empties (never below 1). */
export function pageAfterDelete(page: number, shown: number, count = 1): number {
  return page > 1 && shown <= count ? page - 1 : page;
}

/**
 * The page to show after copying the row at `index` of a full page into a newest-first list:
 * the copy goes on top, pushing the last row of a full page onto the next, so copying that row
 * follows it there.
 */
export function pageAfterDuplicate(page: number, index: number, shown: number, pageSize: number): number {
  return shown >= pageSize && index === shown - 1 ? page + 1 : page;
}

interface PagedListSettings<R> {
  /** The query parameter that holds the page, so two lists on one screen keep their own. */
  param?: string;
  enabled?: boolean;
  /** Refetch every so many milliseconds (lists the spec says are polled), or as the last answer says. */
  refetchInterval?: number | ((data: R | undefined) => number);
}

/**
 * A server-paged list whose page lives in the URL (`?page=`, or `param`). It keeps showing the
 * last page while the next loads; when the server answers with another page than the one asked
 * for (it clamps a page past the end to the last one) the URL follows; and `afterDelete` moves
 * back a page when the last row of a page above the first is deleted.
 */
export function usePagedList<R extends PagedResponse>(options: (page: number) => PagedQueryOptions<R>, { param = 'page', enabled = true, refetchInterval }: PagedListSettings<R> = {}) {
  const [params, setParams] = useSearchParams();
  const page = pageFromParams(params, param);
  const interval = typeof refetchInterval === 'function' ? (q: { state: { data: R | undefined } }) => refetchInterval(q.state.data) : refetchInterval;
  const query = useQuery({ ...options(page), placeholderData: keepPreviousData, enabled, ...(interval ? { refetchInterval: interval } : {}) });

  const setPage = useCallback(
    (next: number, { replace = false }: { replace?: boolean } = {}) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next <= 1) updated.delete(param);
          else updated.set(param, String(next));
          return updated;
        },
        { replace },
      );
    },
    [setParams, param],
  );

  const served = query.data && !query.isPlaceholderData ? query.data.meta.page : undefined;
  useEffect(() => {
    if (served !== undefined && served !== page) setPage(served, { replace: true });
  }, [served, page, setPage]);

  const shown = query.data?.data.length ?? 0;
  const afterDelete = useCallback(
    (count = 1) => {
      const next = pageAfterDelete(page, shown, count);
      if (next !== page) setPage(next);
    },
    [page, shown, setPage],
  );

  const afterDuplicate = useCallback(
    (index: number, pageSize: number) => {
      const next = pageAfterDuplicate(page, index, shown, pageSize);
      if (next !== page) setPage(next);
    },
    [page, shown, setPage],
  );

  return {
    query,
    page,
    setPage,
    /** What the table's pagination shows ("Showing 11 - 20 of 42", "Page 2 - 5"). */
    meta: query.data?.meta,
    /** True while an earlier page is shown as the asked one loads. */
    stale: query.isPlaceholderData,
    refetch: query.refetch,
    afterDelete,
    /** Moves forward a page when the copied row was the last of a full page. */
    afterDuplicate,
  };
}
