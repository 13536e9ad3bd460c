import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';

import type { FieldError, PostCallField, PostCallFieldType } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input, inputClasses } from '../../components/ui/input';

const TYPES: { value: PostCallFieldType; label: string }[] = [
  { value: 'text', label: 'Text (the answer as said)' },
  { value: 'yes-no', label: 'Yes or no' },
  { value: 'email', label: 'E-mail address' },
  { value: 'phone', label: 'Phone number' },
  { value: 'date', label: 'Day, date or time' },
  { value: 'number', label: 'Number' },
  { value: 'choice', label: 'One of a few options' },
];

/** The contract bounds a workflow's fields (PostCallField, SaveWorkflowRequest.postCallFields). */
export const MAX_POST_CALL_FIELDS = 20;

interface Draft {
  name: string;
  type: PostCallFieldType;
  description: string;
  /** A choice's options, comma-separated while typed. */
  options: string;
}

function toDraft(f: PostCallField): Draft {
  return { name: f.name, type: f.type, description: f.description, options: (f.options ?? []).join(', ') };
}

/** The fields as the API takes them: options only for a choice, split on commas. */
export function fromDrafts(drafts: Draft[]): PostCallField[] {
  return drafts.map((d) => {
    const f: PostCallField = { name: d.name.trim(), type: d.type, description: d.description.trim() };
    if (d.type === 'choice') f.options = d.options.split(',').map((o) => o.trim()).filter(Boolean);
    return f;
  });
}

/** The server's message for a field's property, if the last save was refused for it. */
function errorOf(errors: FieldError[], index: number, prop: string): string | undefined {
  return errors.find((e) => e.field === `postCallFields[${index}].${prop}`)?.message;
}

/**
 * The workflow's post-call fields: what the analysis reads from each finished call (name, type,
 * the question that gathers it). Saved with the graph; the server checks them and a refusal
 * names the field, shown beside it.
 */
export function PostCallFieldsDialog({
  open,
  onOpenChange,
  fields,
  errors,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fields: PostCallField[];
  errors: FieldError[];
  onSave: (fields: PostCallField[]) => void;
}) {
  const [drafts, setDrafts] = useState<Draft[]>(() => fields.map(toDraft));
  const change = (i: number, patch: Partial<Draft>) => setDrafts((ds) => ds.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const listError = errors.find((e) => e.field === 'postCallFields')?.message;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Post-call fields"
        className="max-w-2xl"
        description="What Betty reads from each finished call of this workflow, with the turn it came from: shown in the call, the inbox, the CSV export of a run and the Zapier payload. A field the customer did not answer stays empty."
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onSave(fromDrafts(drafts));
          }}
          className="space-y-4"
        >
          {drafts.length === 0 && <p className="text-sm text-fg-muted">No field yet: add one, such as appointment_day or email.</p>}
          {listError && (
            <p role="alert" className="text-sm text-danger-fg">
              {listError}
            </p>
          )}
          <ol className="space-y-4">
            {drafts.map((d, i) => (
              <li key={i} className="space-y-3 rounded-lg border border-line-soft p-3" data-testid={`post-call-field-${i}`}>
                <div className="grid gap-3 sm:grid-cols-2">
                  <Field label="Name" description="snake_case, such as appointment_day" error={errorOf(errors, i, 'name')}>
                    {(ids) => <Input {...ids} value={d.name} required maxLength={40} onChange={(e) => change(i, { name: e.target.value })} />}
                  </Field>
                  <Field label="Type" error={errorOf(errors, i, 'type')}>
                    {(ids) => (
                      <select {...ids} className={inputClasses} value={d.type} onChange={(e) => change(i, { type: e.target.value as PostCallFieldType })}>
                        {TYPES.map((t) => (
                          <option key={t.value} value={t.value}>
                            {t.label}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                </div>
                <Field label="Question" description="The question the agent asks for it, or what it holds: Betty finds the answer by it." error={errorOf(errors, i, 'description')}>
                  {(ids) => <Input {...ids} value={d.description} required maxLength={300} onChange={(e) => change(i, { description: e.target.value })} />}
                </Field>
                {d.type === 'choice' && (
                  <Field label="Options" description="2 to 20, separated by commas" error={errorOf(errors, i, 'options')}>
                    {(ids) => <Input {...ids} value={d.options} onChange={(e) => change(i, { options: e.target.value })} />}
                  </Field>
                )}
                <Button type="button" variant="ghost" size="sm" className="text-danger-fg" onClick={() => setDrafts((ds) => ds.filter((_, j) => j !== i))}>
                  <Trash2 aria-hidden="true" />
                  Remove {d.name || 'this field'}
                </Button>
              </li>
            ))}
          </ol>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={drafts.length >= MAX_POST_CALL_FIELDS}
            onClick={() => setDrafts((ds) => [...ds, { name: '', type: 'text', description: '', options: '' }])}
          >
            <Plus aria-hidden="true" />
            Add a field
          </Button>
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit">Save fields</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
