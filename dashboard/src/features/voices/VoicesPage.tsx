import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Mic, Plus, Trash2, Upload } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';

import type { Organization, VoiceGender, VoiceProfile } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input, Textarea } from '../../components/ui/input';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { Skeleton, SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState, errorMessage } from '../../components/ui/states';
import { DataTable, Pagination, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDate } from '../../lib/dates';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { can } from '../../lib/roles';
import { percentOf, uploadFile } from '../../lib/upload';
import { usePagedList } from '../../lib/usePagedList';
import { useCurrentTeam } from '../team/TeamContext';
import { PreviewButton } from './PreviewButton';
import { PRESETS_PAGE_SIZE, createVoiceMutationOptions, customVoicesQueryOptions, deleteVoiceMutationOptions, presetsQueryOptions } from './queries';
import { count } from '../../lib/plural';

const GENDERS: { value: VoiceGender; label: string }[] = [
  { value: 'female', label: 'Female' },
  { value: 'male', label: 'Male' },
  { value: 'neutral', label: 'Neutral' },
];
const AUDIO_ACCEPT = '.mp3,.wav,.m4a,.ogg,audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a,audio/ogg';
const MAX_SAMPLES = 10;

export default function VoicesPage() {
  const team = useCurrentTeam();
  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <PageHeader title="Voices" description="Preset voices every agent may use, and custom voices of your team." />
      <Presets />
      <CustomVoices key={team.id} team={team} />
    </div>
  );
}

function Presets() {
  const list = usePagedList((page) => presetsQueryOptions(page), { param: 'presetsPage' });
  const presets = list.query;
  let body;
  if (presets.isPending)
    body = (
      <div role="status" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <span className="sr-only">Loading preset voices…</span>
        {Array.from({ length: PRESETS_PAGE_SIZE }, (_, i) => (
          <Skeleton key={i} className="h-28 rounded-xl" />
        ))}
      </div>
    );
  else if (presets.isError) body = <ErrorState error={presets.error} onRetry={() => void presets.refetch()} />;
  else if (presets.data.data.length === 0) body = <EmptyState icon={<Mic />} title="This server offers no preset voices" />;
  else
    body = (
      <>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Preset voices">
          {presets.data.data.map((v) => (
            <Card as="li" key={v.id} className="flex flex-col justify-between gap-3 p-4">
              <div className="min-w-0">
                <p className="font-medium text-fg">{v.name}</p>
                <p className="text-xs text-fg-subtle">
                  {v.language} · {v.gender} · {v.engine}
                </p>
                {v.description && <p className="mt-1 line-clamp-2 text-sm text-fg-muted">{v.description}</p>}
              </div>
              <div>{v.previewUrl ? <PreviewButton url={v.previewUrl} name={v.name} /> : <span className="text-xs text-fg-subtle">No sample</span>}</div>
            </Card>
          ))}
        </ul>
        {presets.data.meta.totalPages > 1 && <Pagination info={presets.data.meta} onPageChange={list.setPage} />}
      </>
    );
  return (
    <section aria-labelledby="presets-heading">
      <h2 id="presets-heading" className="mb-3 text-lg font-semibold text-fg">
        Presets
      </h2>
      {body}
    </section>
  );
}

function CustomVoices({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const list = usePagedList((page) => customVoicesQueryOptions(team.id, page), { param: 'voicesPage' });
  const voices = list.query;
  const remove = useMutation(deleteVoiceMutationOptions(queryClient));
  const [createOpen, setCreateOpen] = useState(false);
  const [toDelete, setToDelete] = useState<VoiceProfile | null>(null);
  const edit = can(team.myRole, 'editCalling');

  const create = edit.allowed ? (
    <Button onClick={() => setCreateOpen(true)}>
      <Plus aria-hidden="true" />
      Create voice
    </Button>
  ) : undefined;

  const columns: Column<VoiceProfile>[] = [
    {
      key: 'name',
      header: 'Voice',
      cell: (v) => (
        <div className="min-w-0">
          <p className="font-medium text-fg">{v.name}</p>
          <p className="text-xs text-fg-subtle">
            {v.language} · {v.gender} · {count(v.audioUrls.length, 'sample')}
          </p>
          <p className="mt-1 text-xs text-fg-muted">{v.note}</p>
        </div>
      ),
    },
    { key: 'status', header: 'Status', hideOnMobile: true, cell: (v) => <Badge tone={v.status === 'approved' ? 'success' : v.status === 'rejected' ? 'declined' : 'info'}>{v.status === 'approved' ? 'Approved' : v.status === 'rejected' ? 'Rejected' : 'Pending'}</Badge> },
    { key: 'created', header: 'Created', hideOnMobile: true, cell: (v) => <span className="text-fg-muted">{formatDate(v.createdAt)}</span> },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-0 text-right',
      cell: (v) =>
        edit.allowed ? (
          <Button variant="ghost" size="sm" className="text-danger-fg" onClick={() => setToDelete(v)} aria-label={`Delete voice ${v.name}`}>
            <Trash2 aria-hidden="true" />
            <span className="hidden sm:inline">Delete</span>
          </Button>
        ) : null,
    },
  ];

  let body;
  if (voices.isPending) body = <SkeletonList label="Loading custom voices…" rows={2} columns={2} />;
  else if (voices.isError) body = <ErrorState error={voices.error} onRetry={() => void voices.refetch()} />;
  else if (voices.data.data.length === 0)
    body = (
      <EmptyState icon={<Mic />} title="No custom voices yet" action={create}>
        Give a name, a gender, a language and a few recordings. This server cannot clone a voice: a custom voice speaks with the preset nearest to its language and gender, and says which.
      </EmptyState>
    );
  else body = <DataTable caption={`Custom voices of ${team.name}`} columns={columns} rows={voices.data.data} rowKey={(v) => v.id} pageInfo={voices.data.meta} onPageChange={list.setPage} />;

  return (
    <section aria-labelledby="custom-heading">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="custom-heading" className="text-lg font-semibold text-fg">
          Custom voices
        </h2>
        {voices.data && voices.data.data.length > 0 && create}
      </div>
      {!edit.allowed && (
        <div className="mb-3">
          <RoleNotice>{edit.reason}</RoleNotice>
        </div>
      )}
      {body}
      {edit.allowed && <CreateVoiceDialog team={team} open={createOpen} onOpenChange={setCreateOpen} />}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={`Delete the voice "${toDelete?.name ?? ''}"?`}
        description="Its recordings go with it and a place under your team’s custom-voice limit is freed. A voice an agent still speaks with is not deleted."
        confirmLabel="Delete voice"
        busy={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(
            { id: toDelete.id, organizationId: team.id },
            {
              onSuccess: () => {
                toast.success(`The voice "${toDelete.name}" was deleted.`);
                setToDelete(null);
                list.afterDelete();
              },
              onError: (error) => toast.error(error),
            },
          )
        }
      />
    </section>
  );
}

function CreateVoiceDialog({ team, open, onOpenChange }: { team: Organization; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const create = useMutation(createVoiceMutationOptions(queryClient));
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [gender, setGender] = useState<VoiceGender>('female');
  const [language, setLanguage] = useState('en-US');
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<{ name?: string; files?: string; language?: string }>({});
  const [progress, setProgress] = useState<{ index: number; percent: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The voice just made: the dialog stays open on what it really sounds like here.
  const [created, setCreated] = useState<VoiceProfile | null>(null);
  const server = isApiError(create.error) ? create.error : undefined;
  const busy = progress !== null || create.isPending;

  function close(next: boolean) {
    if (!next && !busy) {
      setName('');
      setDescription('');
      setFiles([]);
      setErrors({});
      setFailure(null);
      setCreated(null);
      create.reset();
    }
    if (!busy) onOpenChange(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Give the voice a name.';
    if (!/^[a-z]{2,3}(-([A-Z]{2}|[0-9]{3}))?$/.test(language.trim())) found.language = 'A language tag like en-US or fr.';
    if (files.length === 0) found.files = 'Add at least one recording.';
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstInvalid(form);
    setFailure(null);
    try {
      const audioUrls: string[] = [];
      for (const [index, file] of files.entries()) {
        setProgress({ index, percent: 0 });
        const upload = await uploadFile(file, { organizationId: team.id, purpose: 'voice-sample', onProgress: (p) => setProgress({ index, percent: percentOf(p) }) });
        if (upload.fileUrl) audioUrls.push(upload.fileUrl);
      }
      setProgress(null);
      const voice = await create.mutateAsync({ organizationId: team.id, name: name.trim(), gender, language: language.trim(), description: description.trim(), audioUrls });
      setProgress(null);
      setCreated(voice);
    } catch (error) {
      setProgress(null);
      // The server's words as they are: the custom-voice limit names the tier that allows more.
      if (!(isApiError(error) && error.errors.length > 0)) setFailure(errorMessage(error));
    }
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={created ? `The voice "${created.name}" was created` : 'Create a custom voice'}
        description="Betty cannot clone a voice from recordings on this server: it speaks a custom voice with the preset nearest to its language and gender, and names that preset once the voice is made. The recordings are kept with the voice."
      >
        {created ? (
          <div className="space-y-4">
            <p role="status" className="rounded-md border border-line bg-muted px-3 py-2 text-sm text-fg">
              {created.note}
            </p>
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
            <Field label="Voice name" error={errors.name ?? server?.fieldError('body.name')}>
              {(ids) => <Input {...ids} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Gender">{(ids) => <Select {...ids} value={gender} onValueChange={setGender} options={GENDERS} />}</Field>
              <Field label="Language" error={errors.language ?? server?.fieldError('body.language')}>
                {(ids) => <Input {...ids} value={language} onChange={(e) => setLanguage(e.target.value)} maxLength={10} autoComplete="off" spellCheck={false} />}
              </Field>
            </div>
            <Field label="Description" description="Optional: how it sounds.">
              {(ids) => <Textarea {...ids} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} rows={2} />}
            </Field>
            <Field label="Recordings" description="1 to 10 files: MP3, WAV, M4A or OGG, up to 50 MiB each." error={errors.files ?? server?.fieldError('body.audioUrls')}>
              {(ids) => (
                <div>
                  <input {...ids} ref={input} type="file" tabIndex={-1} multiple accept={AUDIO_ACCEPT} className="sr-only" onChange={(e) => setFiles(Array.from(e.target.files ?? []).slice(0, MAX_SAMPLES))} />
                  <Button variant="secondary" onClick={() => input.current?.click()} disabled={busy}>
                    <Upload aria-hidden="true" />
                    Choose recordings
                  </Button>
                  {files.length > 0 && (
                    <ul className="mt-2 space-y-1 text-sm text-fg-soft">
                      {files.map((f, i) => (
                        <li key={`${f.name}-${i}`} className="truncate">
                          {f.name}
                          {progress?.index === i && ` — uploading ${progress.percent}%`}
                          {progress && progress.index > i && ' — uploaded'}
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              )}
            </Field>
            {progress && (
              <div role="progressbar" aria-label="Uploading recordings" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.percent} className="h-2 overflow-hidden rounded-full bg-muted">
                <div className="h-full bg-accent transition-[width]" style={{ width: `${progress.percent}%` }} />
              </div>
            )}
            {failure && (
              <p role="alert" className="rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
                {failure}
              </p>
            )}
            <DialogFooter>
              <Button variant="secondary" onClick={() => close(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" busy={busy} busyLabel={progress ? 'Uploading…' : 'Creating…'}>
                Create voice
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

