// Knowledge bases: the team's list (20 a page), a knowledge base's files and FAQs (10 a page,
// newest first), search, and the mutations, each refreshing what it changes.
//
// Polling (spec section 9: knowledge bases every 60 s). The event stream that would push
// `knowledge.updated` is not served yet, so lists are polled every 60 s. One exception: a file
// this page has just added is followed every 2 s while it is parsing (for at most 2 minutes),
// because the person who dropped it is looking at its row, and parsing a document takes
// seconds; a 60 s wait would look like a stuck upload. Everything else keeps the spec's 60 s.

import type { QueryClient } from '@tanstack/react-query';

import {
  activateKnowledgeBase,
  createKnowledgeBase,
  createKnowledgeFaq,
  createKnowledgeFile,
  deactivateKnowledgeBase,
  deleteKnowledgeBase,
  deleteKnowledgeFile,
  getGetKnowledgeFileQueryKey,
  getKnowledgeFile,
  getListKnowledgeBasesQueryKey,
  getListKnowledgeFilesQueryKey,
  getSearchKnowledgeBaseQueryKey,
  listKnowledgeBases,
  listKnowledgeFiles,
  searchKnowledgeBase,
  updateKnowledgeBase,
  updateKnowledgeFaq,
} from '../../api/gen/knowledge-base/knowledge-base';
import type { ActivateKnowledgeBaseRequest, CreateKnowledgeBaseRequest, CreateKnowledgeFaqRequest, CreateKnowledgeFileRequest, KnowledgeBaseListResponse, KnowledgeFile, UpdateKnowledgeFaqRequest } from '../../api/gen/model';
import { KnowledgeFileStatus } from '../../api/gen/model';

/** Spec section 9. */
export const KNOWLEDGE_BASES_PAGE_SIZE = 20;
export const KNOWLEDGE_FILES_PAGE_SIZE = 10;
/** Spec section 9: knowledge bases are polled every 60 s. */
export const KNOWLEDGE_POLL_MS = 60_000;
/** A file this page just added is followed this often while it parses (see the note above). */
export const FOLLOW_POLL_MS = 2_000;
/** …for at most this long after it was added; then the spec's 60 s again. */
export const FOLLOW_FOR_MS = 120_000;
export const SEARCH_LIMIT = 10;

/**
 * How often the files list refetches: every 2 s while a file this page added (`followed`: id →
 * when it was added) less than 2 minutes ago is still parsing, else every 60 s.
 */
export function filesPollMs(files: readonly Pick<KnowledgeFile, 'id' | 'status'>[] | undefined, followed: ReadonlyMap<string, number>, now: number): number {
  const following = (files ?? []).some((f) => f.status === KnowledgeFileStatus.parsing && now - (followed.get(f.id) ?? -Infinity) < FOLLOW_FOR_MS);
  return following ? FOLLOW_POLL_MS : KNOWLEDGE_POLL_MS;
}

export function knowledgeBasesQueryOptions(organizationId: string, page: number, campaignId?: string) {
  const params = { page, limit: KNOWLEDGE_BASES_PAGE_SIZE, ...(campaignId ? { campaignId } : {}) };
  return {
    queryKey: getListKnowledgeBasesQueryKey(organizationId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listKnowledgeBases(organizationId, params, { signal }),
  };
}

/** Every knowledge base a campaign may activate, for a picker (the API's largest page). */
export function knowledgeBaseChoicesQueryOptions(organizationId: string) {
  const params = { page: 1, limit: 100 };
  return {
    queryKey: getListKnowledgeBasesQueryKey(organizationId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listKnowledgeBases(organizationId, params, { signal }),
  };
}

export function knowledgeFilesQueryOptions(organizationId: string, knowledgeBaseId: string, page: number) {
  const params = { organizationId, page, limit: KNOWLEDGE_FILES_PAGE_SIZE };
  return {
    queryKey: getListKnowledgeFilesQueryKey(knowledgeBaseId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listKnowledgeFiles(knowledgeBaseId, params, { signal }),
  };
}

export function knowledgeEntryQueryOptions(organizationId: string, id: string) {
  const params = { organizationId };
  return {
    queryKey: getGetKnowledgeFileQueryKey(id, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getKnowledgeFile(id, params, { signal })).data,
  };
}

/** Search one knowledge base, or a campaign's active one: the passages an agent would get. */
export function knowledgeSearchQueryOptions(organizationId: string, target: { knowledgeBaseId: string } | { campaignId: string }, q: string) {
  const params = { organizationId, ...target, q, limit: SEARCH_LIMIT };
  return {
    queryKey: getSearchKnowledgeBaseQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await searchKnowledgeBase(params, { signal })).data,
  };
}

const SEARCH_ROOT = [getSearchKnowledgeBaseQueryKey()[0]];

/** Lists of knowledge bases (every page, with or without a campaign filter) and searches. */
export function invalidateKnowledgeBases(queryClient: QueryClient, organizationId: string) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: getListKnowledgeBasesQueryKey(organizationId) }), queryClient.invalidateQueries({ queryKey: SEARCH_ROOT })]);
}

/** A knowledge base's entries changed: its files, the counts in the lists, and searches. */
export function invalidateKnowledgeFiles(queryClient: QueryClient, organizationId: string, knowledgeBaseId: string) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: getListKnowledgeFilesQueryKey(knowledgeBaseId) }), invalidateKnowledgeBases(queryClient, organizationId)]);
}

export function createKnowledgeBaseMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: CreateKnowledgeBaseRequest) => (await createKnowledgeBase(body)).data,
    onSuccess: (_kb: unknown, body: CreateKnowledgeBaseRequest) => invalidateKnowledgeBases(queryClient, body.organizationId),
  };
}

export function renameKnowledgeBaseMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, name, organizationId }: { id: string; name: string; organizationId: string }) => (await updateKnowledgeBase(id, { name, organizationId })).data,
    onSuccess: (_kb: unknown, { organizationId }: { organizationId: string }) => invalidateKnowledgeBases(queryClient, organizationId),
  };
}

export function deleteKnowledgeBaseMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, organizationId }: { id: string; organizationId: string }) => (await deleteKnowledgeBase(id, { organizationId })).data,
    // The open screen shows the deleted knowledge base until it moves on: it leaves the cached
    // lists at once, and everything else is refreshed but its own files and searches (404 now).
    onSuccess: async (_r: unknown, { id, organizationId }: { id: string; organizationId: string }) => {
      const lists = { queryKey: getListKnowledgeBasesQueryKey(organizationId) };
      queryClient.setQueriesData<KnowledgeBaseListResponse>(lists, (old) => old && { ...old, data: old.data.filter((kb) => kb.id !== id) });
      await Promise.all([
        queryClient.invalidateQueries(lists),
        queryClient.invalidateQueries({ queryKey: SEARCH_ROOT, predicate: (q) => (q.queryKey[1] as { knowledgeBaseId?: string } | undefined)?.knowledgeBaseId !== id }),
      ]);
    },
  };
}

export function addKnowledgeFileMutationOptions(queryClient: QueryClient, organizationId: string) {
  return {
    mutationFn: async (body: CreateKnowledgeFileRequest) => (await createKnowledgeFile({ ...body, organizationId })).data,
    onSuccess: (_f: unknown, body: CreateKnowledgeFileRequest) => invalidateKnowledgeFiles(queryClient, organizationId, body.knowledgeBaseId),
  };
}

export function deleteKnowledgeEntryMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ entry }: { entry: KnowledgeFile }) => (await deleteKnowledgeFile(entry.id, { organizationId: entry.organizationId })).data,
    onSuccess: async (_r: unknown, { entry }: { entry: KnowledgeFile }) => {
      queryClient.removeQueries({ queryKey: getGetKnowledgeFileQueryKey(entry.id) });
      await invalidateKnowledgeFiles(queryClient, entry.organizationId, entry.knowledgeBaseId);
    },
  };
}

export function createFaqMutationOptions(queryClient: QueryClient, organizationId: string) {
  return {
    mutationFn: async (body: CreateKnowledgeFaqRequest) => (await createKnowledgeFaq({ ...body, organizationId })).data,
    onSuccess: (_f: unknown, body: CreateKnowledgeFaqRequest) => invalidateKnowledgeFiles(queryClient, organizationId, body.knowledgeBaseId),
  };
}

export function updateFaqMutationOptions(queryClient: QueryClient, organizationId: string) {
  return {
    mutationFn: async ({ id, body }: { id: string; body: UpdateKnowledgeFaqRequest }) => (await updateKnowledgeFaq(id, { ...body, organizationId })).data,
    onSuccess: async (faq: KnowledgeFile) => {
      queryClient.setQueryData(getGetKnowledgeFileQueryKey(faq.id, { organizationId }), faq);
      await invalidateKnowledgeFiles(queryClient, organizationId, faq.knowledgeBaseId);
    },
  };
}

export function activationMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ active, body }: { active: boolean; body: ActivateKnowledgeBaseRequest }) => (await (active ? activateKnowledgeBase(body) : deactivateKnowledgeBase(body))).data,
    onSuccess: (_l: unknown, { body }: { body: ActivateKnowledgeBaseRequest }) => invalidateKnowledgeBases(queryClient, body.organizationId),
  };
}
