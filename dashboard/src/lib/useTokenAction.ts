import { useMutation, useMutationState, useQueryClient, type MutationState } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/** The first of `names` the URL carries, trimmed; '' when none does. */
export function tokenFromUrl(params: URLSearchParams, names: readonly string[]): string {
  for (const name of names) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return '';
}

/** The one-time token an e-mailed link carries in one of `names`. */
export function useUrlToken(names: readonly string[]): string {
  const [params] = useSearchParams();
  return tokenFromUrl(params, names);
}

/**
 * The mutation key of one use of one token. The mutation cache keeps it after the page is gone,
 * which is how a token is used once however often the page mounts.
 */
export function tokenActionKey(action: string, token: string) {
  return ['token-action', action, token] as const;
}

export type TokenActionStatus = 'missing' | 'waiting' | 'pending' | 'success' | 'error';

interface TokenActionOptions<TData> {
  /** Names the action in the mutation key, e.g. `confirm-email`. */
  action: string;
  /** The query parameters that may carry the token; the first present wins. */
  params: readonly string[];
  /** Uses the token; its onSuccess (cache updates, a toast) runs once, even if the page has gone. */
  mutation: { mutationFn: (token: string) => Promise<TData>; onSuccess?: (data: TData, token: string) => unknown };
  /** False while the action must wait, e.g. until the person signs in. */
  ready?: boolean;
}

/**
 * Acts on the one-time token of an e-mailed link (confirm e-mail, invitation, ownership
 * transfer) as soon as it may: once per token. A second mount of the page (StrictMode in
 * development, a remount, coming back to it) shows the first use's outcome instead of spending
 * the token again and showing "this link was already used".
 */
export function useTokenAction<TData>({ action, params, mutation, ready = true }: TokenActionOptions<TData>) {
  const token = useUrlToken(params);
  const queryClient = useQueryClient();
  const { mutate } = useMutation({ ...mutation, mutationKey: tokenActionKey(action, token) });
  const uses = useMutationState({
    filters: { mutationKey: tokenActionKey(action, token), exact: true },
    select: (m) => m.state as MutationState<TData, unknown, string>,
  });
  const use = uses.at(-1);

  useEffect(() => {
    if (!token || !ready) return;
    if (queryClient.getMutationCache().find({ mutationKey: tokenActionKey(action, token), exact: true })) return;
    mutate(token);
  }, [token, ready, action, queryClient, mutate]);

  let status: TokenActionStatus;
  if (!token) status = 'missing';
  else if (!use) status = ready ? 'pending' : 'waiting';
  else if (use.status === 'success' || use.status === 'error') status = use.status;
  else status = 'pending';

  return { token, status, data: use?.status === 'success' ? use.data : undefined, error: use?.error ?? null };
}
