import { useState, type FormEvent } from 'react';

import { isApiError } from '../../api/mutator';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/input';
import { errorMessage } from '../../components/ui/states';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';

/** Names a new knowledge base or renames one; the server's refusal (a name in use) shows in the dialog. */
export function KnowledgeBaseNameDialog({
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  initialName = '',
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  submitLabel: string;
  initialName?: string;
  onSubmit: (name: string) => Promise<unknown>;
}) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function change(next: boolean) {
    if (busy) return;
    if (next) setName(initialName);
    setError(undefined);
    setFailure(null);
    onOpenChange(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (!name.trim()) {
      setError('Give the knowledge base a name.');
      return focusFirstInvalid(form);
    }
    setError(undefined);
    setFailure(null);
    setBusy(true);
    try {
      await onSubmit(name.trim());
      setBusy(false);
      onOpenChange(false);
    } catch (e) {
      setBusy(false);
      const field = isApiError(e) ? e.errors.find((f) => f.field === 'name' || f.field.endsWith('.name')) : undefined;
      if (field) setError(field.message);
      else setFailure(errorMessage(e));
    }
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent title={title} description={description}>
        <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
          <Field label="Name" error={error}>
            {(ids) => <Input {...ids} value={name} maxLength={100} autoComplete="off" onChange={(e) => setName(e.target.value)} />}
          </Field>
          {failure && (
            <p role="alert" className="rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
              {failure}
            </p>
          )}
          <DialogFooter>
            <Button variant="secondary" onClick={() => change(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" busy={busy} busyLabel="Saving…">
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
