/** How a workflow's readable-prompt status reads in lists. */
export const PROMPT_STATUS_LABELS: Record<string, string> = { 'in-progress': 'Compiling', done: 'Ready', error: 'Prompt error' };
