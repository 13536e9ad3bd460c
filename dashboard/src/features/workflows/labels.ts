import type { PromptStatus } from '../../api/gen/model';

/** How a workflow's readable-prompt status reads in lists. */
export const PROMPT_STATUS_LABELS: Record<PromptStatus, string> = { 'in-progress': 'Compiling', success: 'Ready', error: 'Prompt error' };
