import { describe, expect, it } from 'vitest';

import { editorState, withEditor } from './editorParams';

describe('agent editor URL state', () => {
  it('reads agentId before createAgent, and only createAgent=true', () => {
    expect(editorState(new URLSearchParams('agentId=a1&createAgent=true'))).toEqual({ mode: 'edit', agentId: 'a1' });
    expect(editorState(new URLSearchParams('createAgent=true'))).toEqual({ mode: 'create' });
    expect(editorState(new URLSearchParams('createAgent=1'))).toEqual({ mode: 'list' });
  });

  it('keeps the team and page while switching', () => {
    const created = withEditor(new URLSearchParams('teamId=t1&page=2&createAgent=true'), { mode: 'edit', agentId: 'a9' });
    expect(created.toString()).toBe('teamId=t1&page=2&agentId=a9');
    expect(withEditor(created, { mode: 'list' }).toString()).toBe('teamId=t1&page=2');
  });
});
