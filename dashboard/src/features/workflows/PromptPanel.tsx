import { useQuery } from '@tanstack/react-query';

import type { PromptStatus } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { SkeletonText } from '../../components/ui/skeleton';
import { workflowQueryOptions } from './queries';

const STATUS: Record<PromptStatus, { label: string; tone: 'success' | 'declined' | 'neutral' }> = {
  'in-progress': { label: 'Compiling…', tone: 'success' },
  success: { label: 'Up to date', tone: 'neutral' },
  error: { label: 'Could not compile', tone: 'declined' },
};

/** The readable prompt compiled from the graph; polled every 3 s while it compiles (spec §4). */
export function PromptPanel({ workflowId }: { workflowId: string }) {
  const workflow = useQuery(workflowQueryOptions(workflowId));
  const w = workflow.data;
  if (!w) return <SkeletonText label="Loading the prompt…" />;
  const status = STATUS[w.readablePromptStatus];
  return (
    <section aria-labelledby="prompt-title" className="flex h-full flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="prompt-title" className="text-sm font-semibold text-fg">
          Readable prompt
        </h2>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      <p className="text-xs text-fg-subtle">What the agent is told, compiled from the flow after every save.</p>
      {w.readablePrompt ? (
        <pre data-testid="readable-prompt" className="min-h-0 flex-1 overflow-auto rounded-md bg-muted p-3 font-sans text-xs whitespace-pre-wrap text-fg-soft">
          {w.readablePrompt}
        </pre>
      ) : (
        <p className="text-sm text-fg-muted">{w.readablePromptStatus === 'in-progress' ? 'The first compilation is running…' : 'No prompt yet: save the flow to compile one.'}</p>
      )}
    </section>
  );
}
