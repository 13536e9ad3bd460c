// Which agent the editor shows lives in the URL (spec section 2): `agentId` edits that agent,
// `createAgent=true` opens a new one; neither shows the list. Other parameters (the team, the
// list's page) are kept.

export type EditorState = { mode: 'list' } | { mode: 'create' } | { mode: 'edit'; agentId: string };

export function editorState(params: URLSearchParams): EditorState {
  const agentId = params.get('agentId');
  if (agentId) return { mode: 'edit', agentId };
  if (params.get('createAgent') === 'true') return { mode: 'create' };
  return { mode: 'list' };
}

export function withEditor(params: URLSearchParams, state: EditorState): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('agentId');
  next.delete('createAgent');
  if (state.mode === 'edit') next.set('agentId', state.agentId);
  if (state.mode === 'create') next.set('createAgent', 'true');
  return next;
}
