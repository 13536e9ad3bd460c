import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileUp, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { isApiError } from '../../api/mutator';
import type { DoNotCallImport } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/input';
import { errorMessage } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { addDoNotCallMutationOptions, DNC_IMPORT_MAX_BYTES, importDoNotCallMutationOptions } from './queries';

/** Adds one number, with why. */
export function AddNumberDialog({ open, onOpenChange, organizationId }: { open: boolean; onOpenChange: (open: boolean) => void; organizationId: string }) {
  const queryClient = useQueryClient();
  const add = useMutation(addDoNotCallMutationOptions(queryClient));
  const [phoneNumber, setPhoneNumber] = useState('');
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const close = (next: boolean) => {
    if (!next) {
      setPhoneNumber('');
      setReason('');
      setMissing(false);
      add.reset();
    }
    onOpenChange(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (phoneNumber.trim().length < 3) {
      setMissing(true);
      return;
    }
    add.mutate(
      { organizationId, phoneNumber: phoneNumber.trim(), ...(reason.trim() ? { reason: reason.trim() } : {}) },
      {
        onSuccess: (entry) => {
          toast.success(`${entry.phoneNumber} will never be called.`);
          close(false);
        },
      },
    );
  };
  const numberError = missing ? 'Enter the number.' : isApiError(add.error) ? add.error.fieldError('body.phoneNumber') : undefined;
  const otherError = add.isError && !numberError ? errorMessage(add.error) : '';
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title="Add a number" description="No job of the team dials it from now on; contacts with it end as suppressed.">
        <form noValidate onSubmit={submit} className="space-y-4">
          <Field label="Phone number" description="International (+14155550123) or a US national number." error={numberError}>
            {(ids) => <Input {...ids} type="tel" autoComplete="off" maxLength={32} value={phoneNumber} onChange={(e) => setPhoneNumber(e.target.value)} />}
          </Field>
          <Field label="Reason (optional)" description="Why this number must not be called, for whoever reads the list later." error={isApiError(add.error) ? add.error.fieldError('body.reason') : undefined}>
            {(ids) => <Input {...ids} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
          </Field>
          {otherError && (
            <p role="alert" className="text-sm text-danger-fg">
              {otherError}
            </p>
          )}
          <DialogFooter>
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" busy={add.isPending} busyLabel="Adding…">
              <Plus aria-hidden="true" />
              Add number
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Imports a CSV (a `phone` or `phoneNumber` column, an optional `reason` column) and shows the rows it refused. */
export function ImportDialog({ open, onOpenChange, organizationId }: { open: boolean; onOpenChange: (open: boolean) => void; organizationId: string }) {
  const queryClient = useQueryClient();
  const upload = useMutation(importDoNotCallMutationOptions(queryClient));
  const [file, setFile] = useState<File | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState('');
  const [result, setResult] = useState<DoNotCallImport | null>(null);
  const close = (next: boolean) => {
    if (!next) {
      setFile(null);
      setReason('');
      setProblem('');
      setResult(null);
      upload.reset();
    }
    onOpenChange(next);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return setProblem('Choose a CSV file.');
    if (file.size > DNC_IMPORT_MAX_BYTES) return setProblem('The file is over 2 MiB: split it and import each part.');
    setProblem('');
    const csv = await file.text();
    upload.mutate({ organizationId, csv, reason }, { onSuccess: setResult });
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title="Import numbers" description="A CSV file whose first row names the columns: phone (or phoneNumber) and, optionally, reason." className="max-w-xl">
        {result ? (
          <div className="space-y-4" data-testid="dnc-import-result">
            <p className="text-sm text-fg" role="status">
              {result.added} {result.added === 1 ? 'number was' : 'numbers were'} added; {result.alreadyListed} {result.alreadyListed === 1 ? 'was' : 'were'} on the list already
              {result.rejected.length > 0 ? `; ${result.rejected.length} ${result.rejected.length === 1 ? 'row was' : 'rows were'} refused.` : '.'}
            </p>
            {result.rejected.length > 0 && (
              <div className="max-h-64 overflow-y-auto rounded-lg border border-line">
                <table className="min-w-full divide-y divide-line text-sm">
                  <caption className="sr-only">Rows not added</caption>
                  <thead className="bg-subtle text-left text-xs text-fg-muted uppercase">
                    <tr>
                      <th scope="col" className="px-3 py-2">
                        Row
                      </th>
                      <th scope="col" className="px-3 py-2">
                        Value
                      </th>
                      <th scope="col" className="px-3 py-2">
                        Why
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-line-soft">
                    {result.rejected.map((r) => (
                      <tr key={r.row}>
                        <td className="px-3 py-2 tabular-nums">{r.row}</td>
                        <td className="px-3 py-2 font-mono text-xs break-all">{r.value || '(empty)'}</td>
                        <td className="px-3 py-2">{r.reason}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
            <Field label="CSV file" description="At most 2 MiB. Numbers without a country code are read as US numbers." error={problem || undefined}>
              {(ids) => <Input {...ids} type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />}
            </Field>
            <Field label="Reason for rows without one (optional)">{(ids) => <Input {...ids} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}</Field>
            {upload.isError && (
              <p role="alert" className="text-sm text-danger-fg">
                {errorMessage(upload.error)}
              </p>
            )}
            <DialogFooter>
              <Button variant="secondary" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" busy={upload.isPending} busyLabel="Importing…">
                <FileUp aria-hidden="true" />
                Import
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
