// What the knowledge-base screens show lives in the URL (spec section 2): `knowledgeBaseId`
// selects a knowledge base, `knowledgeBasePage` and `knowledgeBaseFilesPage` page its list and
// its files, and on the add-faq route `faq-id` names the FAQ being edited (without it a new one
// is added). Other parameters (the team, other lists' pages) are kept.

export const KB_PARAM = 'knowledgeBaseId';
export const KB_PAGE_PARAM = 'knowledgeBasePage';
export const KB_FILES_PAGE_PARAM = 'knowledgeBaseFilesPage';
export const FAQ_PARAM = 'faq-id';

/** The last segment of both add-faq routes. */
export const ADD_FAQ_SEGMENT = 'add-faq';

export interface KnowledgeState {
  knowledgeBaseId: string | null;
  /** On the add-faq route: the FAQ to edit, or null to add one. */
  faqId: string | null;
}

export function knowledgeState(params: URLSearchParams): KnowledgeState {
  return { knowledgeBaseId: params.get(KB_PARAM) || null, faqId: params.get(FAQ_PARAM) || null };
}

/** Selects another knowledge base: its files start again at page 1. */
export function withKnowledgeBase(params: URLSearchParams, knowledgeBaseId: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (next.get(KB_PARAM) !== knowledgeBaseId) next.delete(KB_FILES_PAGE_PARAM);
  next.delete(FAQ_PARAM);
  if (knowledgeBaseId) next.set(KB_PARAM, knowledgeBaseId);
  else next.delete(KB_PARAM);
  return next;
}

/** The add-faq route beside `basePath` (the knowledge-base page or a campaign's tab), for the selected knowledge base. */
export function addFaqLocation(basePath: string, params: URLSearchParams, faqId?: string): string {
  const next = new URLSearchParams(params);
  next.delete(FAQ_PARAM);
  if (faqId) next.set(FAQ_PARAM, faqId);
  const query = next.toString();
  return `${basePath.replace(/\/$/, '')}/${ADD_FAQ_SEGMENT}${query ? `?${query}` : ''}`;
}

/** Back from the add-faq route to `basePath`, keeping the selection and pages. */
export function listLocation(basePath: string, params: URLSearchParams): string {
  const next = new URLSearchParams(params);
  next.delete(FAQ_PARAM);
  const query = next.toString();
  return `${basePath}${query ? `?${query}` : ''}`;
}
