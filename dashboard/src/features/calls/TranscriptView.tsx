import { Bot, User } from 'lucide-react';

import type { TranscriptEntry } from '../../api/gen/model';
import { cn } from '../../lib/cn';
import { formatDuration } from './format';

/** A call's turns in order, each with who spoke and when (from the answer). Rendered as text, never HTML. */
export function TranscriptView({ entries, customerName = 'Customer', live = false }: { entries: readonly TranscriptEntry[]; customerName?: string; live?: boolean }) {
  return (
    <ol className="space-y-3" aria-label="Transcript" aria-live={live ? 'polite' : undefined} data-testid="transcript">
      {entries.map((e, i) => {
        const agent = e.speaker === 'agent';
        return (
          <li key={`${i}-${e.offsetSeconds}`} className={cn('flex gap-2.5', agent ? '' : 'flex-row-reverse text-right')} data-speaker={e.speaker}>
            <span aria-hidden="true" className={cn('mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full [&_svg]:size-3.5', agent ? 'bg-accent-subtle text-accent-fg' : 'bg-muted text-fg-soft')}>
              {agent ? <Bot /> : <User />}
            </span>
            <div className={cn('max-w-[85%] rounded-lg px-3 py-2 text-sm', agent ? 'bg-subtle text-fg' : 'bg-accent-subtle text-fg')}>
              <p className="text-xs text-fg-muted">
                <span className="font-semibold">{agent ? 'Agent' : customerName}</span> · {formatDuration(e.offsetSeconds)}
              </p>
              <p className="mt-0.5 whitespace-pre-wrap break-words">{e.text}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
