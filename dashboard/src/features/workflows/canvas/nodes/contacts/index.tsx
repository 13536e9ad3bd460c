import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, RefreshCw, Users } from 'lucide-react';
import { useState } from 'react';

import { downloadRejectedContacts, setWorkflowContacts } from '../../../../../api/gen/workflows/workflows';
import { Button } from '../../../../../components/ui/button';
import { Checkbox } from '../../../../../components/ui/checkbox';
import { Field } from '../../../../../components/ui/input';
import { Select } from '../../../../../components/ui/select';
import { toast } from '../../../../../components/ui/toast-store';
import { count } from '../../../../../lib/plural';
import { uploadFile, percentOf } from '../../../../../lib/upload';
import { useCurrentTeam } from '../../../../team/TeamContext';
import { SOURCES, str, type Data } from '../../../graph';
import { CSV_POLL_MS, CSV_POLL_PARSING_MS, csvQueryOptions } from '../../../queries';
import { useCanvas } from '../../context';
import { ContactStatus } from './ContactStatus';
import { ContactsPager } from './Pager';
import { dataProblems } from '../fieldRules';
import { EmptyNote } from '../parts';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';
import { HubspotTable, IntegrationSourceEdit, ZapierNote } from './hubspot';
import { saveTextFile } from '../../../../../lib/download';

const SOURCE_LABELS: Record<string, string> = { csv: 'CSV file', hubspot: 'HubSpot', zapier: 'Zapier' };

/**
 * The CSV contacts on the card: the file and how many, the rejected rows' download on the left
 * (where nothing on the canvas sits over it), then a page of contacts with the call status first.
 * The e-mail stays in the file; the card shows what a person scans for: who, which number, how
 * the call went.
 */
function CsvTable({ id }: { id: string }) {
  const canvas = useCanvas();
  const [page, setPage] = useState(1);
  const csv = useQuery({
    ...csvQueryOptions(canvas.workflowId, id, page),
    refetchInterval: (q) => (q.state.data?.data.status === 'parsing' ? CSV_POLL_PARSING_MS : CSV_POLL_MS),
    retry: false,
  });
  const meta = csv.data?.meta;
  const rows = csv.data?.data.rows ?? [];
  const syncing = csv.isFetching || csv.data?.data.status === 'parsing';
  const rejected = csv.data?.data.status === 'parsing' ? 0 : (csv.data?.data.rowsRejected ?? 0);
  const fileName = csv.data?.data.nodeFile.fileName;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <p className="flex min-w-0 items-center gap-1.5 text-sm text-fg-soft">
          <FileText aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
          <span className="truncate font-medium text-fg">{fileName ?? 'CSV file'}</span>
          {meta && <span className="shrink-0 text-fg-muted">· {count(meta.totalSize, 'contact')}</span>}
        </p>
        <div className="flex shrink-0 items-center gap-2">
          {syncing && <span className="text-sm text-fg-subtle">Syncing...</span>}
          <Button size="icon" variant="ghost" className="nodrag" aria-label="Refresh contacts" onClick={() => void csv.refetch()}>
            <RefreshCw aria-hidden="true" />
          </Button>
        </div>
      </div>
      {rejected > 0 && (
        <p className="flex items-center gap-2 text-sm text-fg-muted">
          {count(rejected, 'row')} could not be imported.
          <RejectedLink workflowId={canvas.workflowId} nodeId={id} count={rejected} fileName={fileName ?? 'contacts.csv'} />
        </p>
      )}
      {csv.isError ? (
        <EmptyNote id={id} message="No Contacts Found" {...(canvas.readOnly ? {} : { action: 'Add Contact' })} />
      ) : rows.length === 0 && !csv.isPending ? (
        <EmptyNote id={id} message={csv.data?.data.status === 'error' ? (csv.data.data.error ?? 'The file could not be read.') : 'No Contacts Found'} action="Add Contact" />
      ) : (
        <div className="nowheel min-h-0 flex-1 overflow-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-fg-subtle">
              <tr>
                <th className="w-28 py-1 font-medium">Call Status</th>
                <th className="py-1 font-medium">Name</th>
                <th className="py-1 font-medium">Phone Number</th>
              </tr>
            </thead>
            <tbody className="text-fg-soft">
              {rows.map((r) => (
                <tr key={r.id} className="border-t border-line">
                  <td className="py-0.5">
                    <ContactStatus status={r.betty_metadata.status} />
                  </td>
                  <td className="truncate py-0.5">{[r.firstName, r.lastName].filter(Boolean).join(' ') || 'N/A'}</td>
                  <td className="py-0.5 tabular-nums">{r.phone}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {meta && meta.totalSize > 0 && <ContactsPager meta={meta} page={page} setPage={setPage} />}
    </div>
  );
}

/** The file name the rejected rows are saved under: the CSV's own, with "-rejected". */
function rejectedFileName(fileName: string): string {
  return `${fileName.replace(/\.csv$/i, '')}-rejected.csv`;
}

/**
 * "Download rejected rows (N)": the rows the import rejected, as the server writes them (the
 * file's own rows with a reason column). The API wants the session's token, so the file is
 * fetched and handed to the browser as a download rather than linked.
 */
function RejectedLink({ workflowId, nodeId, count, fileName }: { workflowId: string; nodeId: string; count: number; fileName: string }) {
  const download = useMutation({
    mutationFn: () => downloadRejectedContacts(nodeId, { workflowId }),
    onSuccess: (text) => saveTextFile(rejectedFileName(fileName), text),
    onError: (e) => toast.error(e),
  });
  return (
    <button type="button" className="nodrag font-medium text-accent-fg underline underline-offset-2 disabled:opacity-60" disabled={download.isPending} onClick={() => download.mutate()}>
      Download rejected rows ({count})
    </button>
  );
}

function ContactsView({ id, data }: NodeViewProps) {
  const source = str(data, 'contactsSource');
  if (!source) return <EmptyNote id={id} message="No contact source added. Please add a contact source to run your workflow." action="Add Contact" />;
  if (source === 'csv') return <CsvTable id={id} />;
  if (source === 'hubspot') return <HubspotTable id={id} data={data} />;
  return <ZapierNote />;
}

function validate(data: Data) {
  const out = dataProblems('contacts', data);
  if (!str(data, 'contactsSource')) out['contactsSource'] ??= 'No contact source added. Please add a contact source to run your workflow.';
  return out;
}

function CsvUpload({ nodeId }: { nodeId: string }) {
  const canvas = useCanvas();
  const team = useCurrentTeam();
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState<number | null>(null);
  const [convertLetters, setConvertLetters] = useState(false);
  const attach = useMutation({
    mutationFn: async (file: File) => {
      const upload = await uploadFile(file, { organizationId: team.id, purpose: 'contacts-csv', onProgress: (p) => setPercent(percentOf(p)) });
      if (!upload.fileUrl) throw new Error('The upload finished without a file address; try again.');
      return setWorkflowContacts({ nodeId, workflowId: canvas.workflowId, organizationId: team.id, source: 'csv', fileUrl: upload.fileUrl, fileName: file.name, convertLetters });
    },
    onSuccess: async () => {
      setPercent(null);
      // The server wrote the source into the node; the canvas keeps it so its next save does too.
      canvas.patchData(nodeId, { contactsSource: 'csv' });
      await queryClient.invalidateQueries({ queryKey: csvQueryOptions(canvas.workflowId, nodeId, 1).queryKey.slice(0, 1) });
      toast.success('The file is being read; its contacts appear in the node as they are parsed.', 'Contacts uploaded');
    },
    onError: (e) => {
      setPercent(null);
      toast.error(e);
    },
  });
  return (
    <Field label="CSV file" description="Columns by header: phone, firstName, lastName, email, lifecycleStage; other columns are kept as metadata. Save the workflow first so the node exists on the server.">
      {(ids) => (
        <div className="space-y-1">
          <input {...ids} type="file" accept=".csv,text/csv" className="text-sm" disabled={attach.isPending} onChange={(e) => e.target.files?.[0] && attach.mutate(e.target.files[0])} />
          {percent !== null && <p className="text-xs text-fg-muted">Uploading… {percent}%</p>}
          <Checkbox
            label="Read letters in numbers as keypad digits"
            description="For vanity numbers like 1-800-FLOWERS (ABC = 2 … WXYZ = 9). Off, a number with letters is rejected, never guessed."
            checked={convertLetters}
            disabled={attach.isPending}
            onCheckedChange={setConvertLetters}
          />
          <a href="/contacts-template.csv" download="contacts-template.csv" className="text-xs text-accent-fg underline underline-offset-2">
            Download a sample CSV
          </a>
        </div>
      )}
    </Field>
  );
}

function ContactsEdit({ data, onChange, nodeId }: NodeEditProps) {
  const errors = validate(data);
  const stored = str(data, 'contactsSource');
  // HubSpot and Zapier are set on the server before the node shows them (a save cannot set a source).
  const [wanted, setWanted] = useState(stored);
  const source = wanted || stored;
  return (
    <div className="space-y-4">
      <Field label="Contact source" error={source ? undefined : errors['contactsSource']}>
        {(ids) => (
          <Select
            {...ids}
            value={source || undefined}
            onValueChange={(v) => {
              setWanted(v);
              if (v === 'csv') onChange({ contactsSource: v });
            }}
            options={SOURCES.map((s) => ({ value: s, label: SOURCE_LABELS[s]! }))}
          />
        )}
      </Field>
      {source === 'csv' && <CsvUpload nodeId={nodeId} />}
      {(source === 'hubspot' || source === 'zapier') && <IntegrationSourceEdit nodeId={nodeId} data={data} source={source} onChange={onChange} />}
    </div>
  );
}

export const contactsNode: NodeKindSpec = {
  kind: 'contacts',
  label: 'Contacts',
  hint: 'Who an outbound workflow calls.',
  color: kindColor('contacts'),
  icon: Users,
  width: 700,
  height: 375,
  defaults: () => ({ nodeLabel: 'Contacts' }),
  View: ContactsView,
  Edit: ContactsEdit,
  validate,
  addable: false,
};
