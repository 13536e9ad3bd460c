import type { ReactNode } from 'react';

import { Button } from '../../../../components/ui/button';
import { Field, Input, Textarea } from '../../../../components/ui/input';
import { cn } from '../../../../lib/cn';
import type { Data } from '../../graph';
import { str } from '../../graph';
import { useCanvas } from '../context';

/**
 * A card's empty state: what is missing and the button that adds it (opens the edit panel). When
 * the card's warning line already says what stops the step, the note only offers the fix.
 */
export function EmptyNote({ id, message, action }: { id: string; message?: string; action?: string }) {
  const canvas = useCanvas();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-2 text-center">
      {message && !canvas.problems.has(id) && <p className="text-sm text-fg-muted">{message}</p>}
      {action && !canvas.readOnly && (
        <Button variant="secondary" className="nodrag" onClick={() => canvas.edit(id)}>
          {action}
        </Button>
      )}
    </div>
  );
}

export function Clamp({ children, lines = 3 }: { children: ReactNode; lines?: 2 | 3 }) {
  return <p className={cn('text-sm whitespace-pre-line text-fg-soft', lines === 2 ? 'line-clamp-2' : 'line-clamp-3')}>{children}</p>;
}

/** The first lines of a card's text under a small lead ("Says", "Does", "When the customer"). */
export function Lead({ lead, children, lines }: { lead: string; children: ReactNode; lines?: 2 | 3 }) {
  return (
    <div className="min-h-0">
      <p className="text-sm font-medium text-fg-subtle">{lead}</p>
      <Clamp {...(lines ? { lines } : {})}>{children}</Clamp>
    </div>
  );
}

/** A step's spoken line on its card, in quotes, or nothing when it has none. */
export function SpokenLine({ data, lines }: { data: Data; lines?: 2 | 3 }) {
  const say = str(data, 'say').trim();
  if (!say) return null;
  return <Lead lead="Says" {...(lines ? { lines } : {})}>{`“${say}”`}</Lead>;
}

export function TextField({ label, data, field, onChange, multiline, placeholder, error, description }: { label: string; data: Data; field: string; onChange: (patch: Data) => void; multiline?: boolean; placeholder?: string; error?: string | undefined; description?: string }) {
  return (
    <Field label={label} error={error} {...(description ? { description } : {})}>
      {(ids) =>
        multiline ? (
          <Textarea {...ids} rows={6} value={str(data, field)} placeholder={placeholder} onChange={(e) => onChange({ [field]: e.target.value })} />
        ) : (
          <Input {...ids} value={str(data, field)} placeholder={placeholder} onChange={(e) => onChange({ [field]: e.target.value })} />
        )
      }
    </Field>
  );
}

export function LabelField(props: { data: Data; onChange: (patch: Data) => void }) {
  return <TextField label="Title" field="nodeLabel" placeholder="A short name for this step" {...props} />;
}

/** The spoken line of an Agent, End Call or Forward Call step (`say`). */
export function SpokenLineField({ data, onChange, placeholder }: { data: Data; onChange: (patch: Data) => void; placeholder: string }) {
  return (
    <TextField
      label="Spoken line"
      field="say"
      multiline
      data={data}
      onChange={onChange}
      placeholder={placeholder}
      description="Said as written when no language model is configured; with one, the model's example of what to say. Placeholders such as {{firstName}} are filled in."
    />
  );
}
