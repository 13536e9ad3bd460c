import type { ReactNode } from 'react';

import { Button } from '../../../../components/ui/button';
import { Field, Input, Textarea } from '../../../../components/ui/input';
import type { Data } from '../../graph';
import { str } from '../../graph';
import { useCanvas } from '../context';

/** A card's empty state: what is missing and the button that adds it (opens the edit panel). */
export function EmptyNote({ id, message, action }: { id: string; message: string; action?: string }) {
  const canvas = useCanvas();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-2 text-center">
      <p className="text-sm text-fg-muted">{message}</p>
      {action && !canvas.readOnly && (
        <Button size="sm" variant="secondary" className="nodrag" onClick={() => canvas.edit(id)}>
          {action}
        </Button>
      )}
    </div>
  );
}

export function Clamp({ children }: { children: ReactNode }) {
  return <p className="line-clamp-3 text-sm whitespace-pre-line text-fg-soft">{children}</p>;
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
