import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, AudioLines, FileAudio, MessageSquareText, Plus, Trash2, Upload, Volume2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import type { AgentAudioFile, AgentAudioSummary, AgentProfile, Organization } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field, Input, Textarea } from '../../components/ui/input';
import { RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState, errorMessage } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { can } from '../../lib/roles';
import { percentOf, uploadFile, type UploadProgress } from '../../lib/upload';
import { knowledgeBaseChoicesQueryOptions } from '../knowledge/queries';
import { PreviewButton } from '../voices/PreviewButton';
import { customVoicesQueryOptions, presetsQueryOptions } from '../voices/queries';
import { faqErrors, faqFromEntries, moveEntry, orderedFaq, type FaqEntry } from './faq';
import { GREETING_FAILED, mp3Blob } from './greeting';
import {
  SUMMARY_POLL_MS,
  addTeachingAudioMutationOptions,
  agentQueryOptions,
  audioSummariesQueryOptions,
  createAgentMutationOptions,
  deleteAgentMutationOptions,
  invalidateAgents,
  saveFaqMutationOptions,
  speak,
  updateAgentMutationOptions,
} from './queries';
import { choiceOf, voiceFields, type VoiceChoice } from './voiceChoice';

/** Enough for every preset and custom voice on one picker. */
const PICKER_SIZE = 100;
/** The knowledge base picker's "none". */
const NO_KNOWLEDGE_BASE = 'none';
const LANGUAGE = /^[a-z]{2,3}(-[A-Z]{2})?$/;
const AUDIO_ACCEPT = '.mp3,.wav,.m4a,.ogg,audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a,audio/ogg';

interface AgentEditorProps {
  team: Organization;
  /** The agent to edit; null to create one. */
  agentId: string | null;
  /** The campaign a new agent joins. */
  campaignId?: string;
  onCreated: (agent: AgentProfile) => void;
  onDone: () => void;
}

/** The agent editor: profile and voice with greeting playback, FAQ, teaching audio, deletion. */
export function AgentEditor({ team, agentId, campaignId, onCreated, onDone }: AgentEditorProps) {
  const agent = useQuery({ ...agentQueryOptions(agentId ?? '', team.id), enabled: agentId !== null });
  const edit = can(team.myRole, 'editCalling');

  if (agentId === null)
    return (
      <div className="space-y-5">
        {!edit.allowed && <RoleNotice>{edit.reason}</RoleNotice>}
        <ProfileCard team={team} campaignId={campaignId} onSaved={onCreated} onCancel={onDone} readOnly={!edit.allowed} />
      </div>
    );
  if (agent.isPending) return <SkeletonText label="Loading the agent…" lines={8} />;
  if (agent.isError) return <ErrorState error={agent.error} onRetry={() => void agent.refetch()} />;
  return (
    <div className="space-y-5">
      {!edit.allowed && <RoleNotice>{edit.reason}</RoleNotice>}
      <ProfileCard key={agent.data.id} team={team} agent={agent.data} onSaved={() => undefined} onCancel={onDone} readOnly={!edit.allowed} />
      <FaqCard key={`faq-${agent.data.id}`} team={team} agent={agent.data} readOnly={!edit.allowed} />
      <TeachingAudioCard team={team} agent={agent.data} readOnly={!edit.allowed} />
      {edit.allowed && <DeleteAgent team={team} agent={agent.data} onDeleted={onDone} />}
    </div>
  );
}

function ProfileCard({ team, agent, campaignId, onSaved, onCancel, readOnly }: { team: Organization; agent?: AgentProfile; campaignId?: string | undefined; onSaved: (agent: AgentProfile) => void; onCancel: () => void; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const create = useMutation(createAgentMutationOptions(queryClient));
  const update = useMutation(updateAgentMutationOptions(queryClient));
  const presets = useQuery(presetsQueryOptions(1, PICKER_SIZE));
  const customs = useQuery(customVoicesQueryOptions(team.id, 1, PICKER_SIZE));
  const [name, setName] = useState(agent?.name ?? '');
  const [greeting, setGreeting] = useState(agent?.greeting ?? '');
  const [instructions, setInstructions] = useState(agent?.instructions ?? '');
  const [language, setLanguage] = useState(agent?.language ?? 'en-US');
  const [choice, setChoice] = useState<VoiceChoice>(choiceOf(agent));
  const knowledgeBases = useQuery(knowledgeBaseChoicesQueryOptions(team.id));
  const [knowledgeBase, setKnowledgeBase] = useState<string>(agent?.knowledgeBaseId ?? NO_KNOWLEDGE_BASE);
  const [errors, setErrors] = useState<{ name?: string; language?: string }>({});
  const failure = agent ? update.error : create.error;
  const server = isApiError(failure) ? failure : undefined;

  // A new agent starts on the first preset, so its greeting can be heard before it is saved.
  const firstPreset = presets.data?.data[0]?.id;
  useEffect(() => {
    if (!agent && choice === '' && firstPreset) setChoice(`preset:${firstPreset}`);
  }, [agent, choice, firstPreset]);

  const voiceOptions = [
    ...(choice === '' ? [{ value: '' as VoiceChoice, label: 'Platform default' }] : []),
    ...(presets.data?.data ?? []).map((v) => ({ value: `preset:${v.id}` as VoiceChoice, label: `${v.name} · ${v.language} · ${v.gender}` })),
    ...(customs.data?.data ?? []).map((v) => ({ value: `custom:${v.id}` as VoiceChoice, label: `${v.name} (custom) · ${v.language}` })),
  ];
  const preset = choice.startsWith('preset:') ? presets.data?.data.find((v) => `preset:${v.id}` === choice) : undefined;
  const custom = choice.startsWith('custom:') ? customs.data?.data.find((v) => `custom:${v.id}` === choice) : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Give the agent a name.';
    if (!LANGUAGE.test(language.trim())) found.language = 'A language tag like en-US, fr or pt-BR.';
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstInvalid(event.currentTarget);
    const fields = { organizationId: team.id, name: name.trim(), greeting: greeting.trim(), instructions, language: language.trim(), ...voiceFields(choice) };
    const knowledgeBaseId = knowledgeBase === NO_KNOWLEDGE_BASE ? null : knowledgeBase;
    const onError = (error: unknown) => {
      if (!(isApiError(error) && error.errors.length > 0)) toast.error(error);
    };
    if (agent)
      update.mutate(
        { id: agent.id, body: { ...fields, knowledgeBaseId } },
        {
          onSuccess: (saved) => {
            toast.success(`${saved.name} was saved.`);
            onSaved(saved);
          },
          onError,
        },
      );
    else
      create.mutate(
        { ...fields, ...(campaignId ? { campaignId } : {}), ...(knowledgeBaseId ? { knowledgeBaseId } : {}) },
        {
          onSuccess: (saved) => {
            toast.success(`${saved.name} was created. Add its FAQ and teaching audio below.`);
            onSaved(saved);
          },
          onError,
        },
      );
  }

  return (
    <Card>
      {/* On the Agents page the page itself is titled "New agent"; in a campaign's tab the card names it. */}
      <CardHeader title={!agent && campaignId ? 'New agent' : 'Profile and voice'} description="Who the agent is, the first thing it says, and the voice it says it in." icon={<AudioLines />} />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-4">
          <fieldset disabled={readOnly} className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Agent name" error={errors.name ?? server?.fieldError('body.name')}>
                {(ids) => <Input {...ids} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />}
              </Field>
              <Field label="Language" description="A tag like en-US or fr." error={errors.language ?? server?.fieldError('body.language')}>
                {(ids) => <Input {...ids} value={language} onChange={(e) => setLanguage(e.target.value)} maxLength={10} autoComplete="off" spellCheck={false} />}
              </Field>
            </div>
            <Field label="Voice" description={custom ? custom.note : preset ? `Spoken by ${preset.engine}.` : presets.isError ? errorMessage(presets.error) : undefined} error={server?.fieldError('body.voiceId') ?? server?.fieldError('body.voicePresetId')}>
              {(ids) => (
                <div className="flex gap-2">
                  <Select {...ids} value={choice} onValueChange={setChoice} options={voiceOptions} placeholder={presets.isPending ? 'Loading voices…' : 'Choose a voice'} className="min-w-0 flex-1" />
                  {preset?.previewUrl && <PreviewButton url={preset.previewUrl} name={preset.name} size="md" />}
                </div>
              )}
            </Field>
            <Field label="Greeting" description="The first sentence of every call." error={server?.fieldError('body.greeting')}>
              {(ids) => <Textarea {...ids} value={greeting} onChange={(e) => setGreeting(e.target.value)} maxLength={1000} rows={2} />}
            </Field>
            <GreetingPlayer team={team} agentId={agent?.id} text={greeting.trim()} choice={choice} />
            <Field label="Instructions" description="The agent’s role, tone and rules." error={server?.fieldError('body.instructions')}>
              {(ids) => <Textarea {...ids} value={instructions} onChange={(e) => setInstructions(e.target.value)} maxLength={20000} rows={5} />}
            </Field>
            <Field
              label="Knowledge base"
              description={
                (agent?.campaignId ?? campaignId)
                  ? 'What it answers questions from, beside its campaign’s active knowledge base.'
                  : 'What it answers questions from on every call it takes, such as calls to a number it is paired with.'
              }
              error={server?.fieldError('body.knowledgeBaseId')}
            >
              {(ids) => (
                <Select
                  {...ids}
                  value={knowledgeBase}
                  onValueChange={setKnowledgeBase}
                  placeholder={knowledgeBases.isPending ? 'Loading knowledge bases…' : 'Choose a knowledge base'}
                  options={[{ value: NO_KNOWLEDGE_BASE, label: 'None' }, ...(knowledgeBases.data?.data ?? []).map((kb) => ({ value: kb.id, label: kb.name }))]}
                />
              )}
            </Field>
          </fieldset>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onCancel}>
              {agent ? 'Back to agents' : 'Cancel'}
            </Button>
            {!readOnly && (
              <Button type="submit" busy={create.isPending || update.isPending} busyLabel="Saving…">
                {agent ? 'Save agent' : 'Create agent'}
              </Button>
            )}
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

/** Speaks the greeting as typed, with the voice as chosen, into an audio element with controls. */
function GreetingPlayer({ team, agentId, text, choice }: { team: Organization; agentId: string | undefined; text: string; choice: VoiceChoice }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
  const canSpeak = text !== '' && (choice !== '' || agentId !== undefined);

  useEffect(() => () => void (src && URL.revokeObjectURL(src)), [src]);

  async function play() {
    setBusy(true);
    setFailure(null);
    try {
      const base64 = await speak({ organizationId: team.id, text, ...(agentId ? { agentProfileId: agentId } : {}), ...voiceFields(choice) });
      const url = URL.createObjectURL(mp3Blob(base64));
      setSrc(url);
      // The element takes the new source on the next render; play once it has it.
      requestAnimationFrame(() => {
        audio.current?.play().catch(() => undefined);
      });
    } catch (error) {
      setSrc(null);
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="secondary" onClick={() => void play()} disabled={!canSpeak} busy={busy} busyLabel="Speaking…">
          <Volume2 aria-hidden="true" />
          Play greeting
        </Button>
        {!canSpeak && <span className="text-xs text-fg-subtle">Write a greeting and choose a voice to hear it.</span>}
        {src && <audio ref={audio} src={src} controls className="h-9 max-w-full" data-testid="greeting-audio" aria-label="Greeting audio" />}
      </div>
      {failure && (
        <p role="alert" className="text-sm text-danger-fg">
          <span className="font-medium">{GREETING_FAILED}.</span> {failure}
        </p>
      )}
    </div>
  );
}

function FaqCard({ team, agent, readOnly }: { team: Organization; agent: AgentProfile; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const save = useMutation(saveFaqMutationOptions(queryClient));
  const saved = orderedFaq(agent.faq);
  const [entries, setEntries] = useState<FaqEntry[]>(saved.length ? saved : []);
  const [checked, setChecked] = useState(false);
  const errors = faqErrors(entries);
  const dirty = JSON.stringify(faqFromEntries(entries)) !== JSON.stringify(faqFromEntries(saved));
  const listId = useId();

  function change(index: number, patch: Partial<FaqEntry>) {
    setEntries((list) => list.map((e, i) => (i === index ? { ...e, ...patch } : e)));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    if (errors.size > 0) return focusFirstInvalid(event.currentTarget);
    save.mutate(
      { id: agent.id, organizationId: team.id, faq: faqFromEntries(entries) },
      {
        onSuccess: (updated) => {
          setEntries(orderedFaq(updated.faq));
          setChecked(false);
          toast.success('The FAQ was saved.');
        },
        onError: (error) => toast.error(error),
      },
    );
  }

  return (
    <Card>
      <CardHeader title="FAQ" description="Questions callers ask and the answers the agent gives, in the order shown." icon={<MessageSquareText />} />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-4">
          {entries.length === 0 ? (
            <p className="text-sm text-fg-muted">No questions yet.</p>
          ) : (
            <ol id={listId} className="space-y-4">
              {entries.map((entry, index) => {
                const error = checked ? errors.get(index) : undefined;
                return (
                  <li key={index} className="rounded-lg border border-line p-3">
                    <div className="mb-2 flex items-center justify-between gap-2">
                      <span className="text-xs font-medium text-fg-subtle">Question {index + 1}</span>
                      {!readOnly && (
                        <div className="flex gap-1">
                          <Button variant="ghost" size="sm" aria-label={`Move question ${index + 1} up`} disabled={index === 0} onClick={() => setEntries((l) => moveEntry(l, index, index - 1))}>
                            <ArrowUp aria-hidden="true" />
                          </Button>
                          <Button variant="ghost" size="sm" aria-label={`Move question ${index + 1} down`} disabled={index === entries.length - 1} onClick={() => setEntries((l) => moveEntry(l, index, index + 1))}>
                            <ArrowDown aria-hidden="true" />
                          </Button>
                          <Button variant="ghost" size="sm" aria-label={`Remove question ${index + 1}`} onClick={() => setEntries((l) => l.filter((_, i) => i !== index))}>
                            <X aria-hidden="true" />
                          </Button>
                        </div>
                      )}
                    </div>
                    <fieldset disabled={readOnly} className="space-y-2">
                      <Field label={`Question ${index + 1}`} className="[&>label]:sr-only" error={error}>
                        {(ids) => <Input {...ids} placeholder="What callers ask" value={entry.question} maxLength={490} onChange={(e) => change(index, { question: e.target.value })} />}
                      </Field>
                      <Field label={`Answer ${index + 1}`} className="[&>label]:sr-only">
                        {(ids) => <Textarea {...ids} placeholder="What the agent answers" value={entry.answer} maxLength={5000} rows={2} onChange={(e) => change(index, { answer: e.target.value })} />}
                      </Field>
                    </fieldset>
                  </li>
                );
              })}
            </ol>
          )}
          {!readOnly && (
            <div className="flex flex-wrap justify-between gap-2">
              <Button variant="secondary" onClick={() => setEntries((l) => [...l, { question: '', answer: '' }])} disabled={entries.length >= 200}>
                <Plus aria-hidden="true" />
                Add question
              </Button>
              <Button type="submit" busy={save.isPending} busyLabel="Saving…" disabled={!dirty}>
                Save FAQ
              </Button>
            </div>
          )}
        </form>
      </CardBody>
    </Card>
  );
}

function TeachingAudioCard({ team, agent, readOnly }: { team: Organization; agent: AgentProfile; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const add = useMutation(addTeachingAudioMutationOptions(queryClient));
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<(UploadProgress & { name: string }) | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const waiting = agent.audioFiles.filter((f) => f.summaryStatus === 'in-progress').map((f) => f.id);
  const summaries = useQuery({ ...audioSummariesQueryOptions(team.id, waiting), enabled: waiting.length > 0, refetchInterval: SUMMARY_POLL_MS });
  const byId = new Map<string, AgentAudioSummary>((summaries.data ?? []).map((s) => [s.id, s]));
  const stillWaiting = waiting.some((id) => (byId.get(id)?.status ?? 'in-progress') === 'in-progress');

  // When every summary asked for has finished, the agent is read again for the final text.
  useEffect(() => {
    if (waiting.length > 0 && summaries.data && !stillWaiting) void invalidateAgents(queryClient, agent);
  }, [waiting.length, summaries.data, stillWaiting, queryClient, agent]);

  async function send(file: File) {
    setFailure(null);
    setProgress({ name: file.name, sent: 0, total: file.size });
    try {
      const upload = await uploadFile(file, { organizationId: team.id, purpose: 'agent-audio', onProgress: (p) => setProgress({ name: file.name, ...p }) });
      if (!upload.fileUrl) throw new Error('The upload finished without a file address.');
      await add.mutateAsync({ agentId: agent.id, organizationId: team.id, url: upload.fileUrl, fileName: file.name });
      toast.success(`${file.name} was added; its summary is being made.`);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <Card>
      <CardHeader
        title="Teaching audio"
        description="Recordings of good calls; each is transcribed and summarised into what the agent learns."
        icon={<FileAudio />}
        action={
          !readOnly ? (
            <>
              <input ref={input} type="file" tabIndex={-1} accept={AUDIO_ACCEPT} className="sr-only" id={`audio-${agent.id}`} aria-label="Choose a teaching audio file" onChange={(e) => e.target.files?.[0] && void send(e.target.files[0])} />
              <Button variant="secondary" size="sm" onClick={() => input.current?.click()} disabled={progress !== null}>
                <Upload aria-hidden="true" />
                Upload audio
              </Button>
            </>
          ) : undefined
        }
      />
      <CardBody className="space-y-3">
        {progress && (
          <div>
            <p className="text-sm text-fg-soft">
              Uploading {progress.name}… {percentOf(progress)}%
            </p>
            <div role="progressbar" aria-label={`Uploading ${progress.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percentOf(progress)} className="mt-1.5 h-2 overflow-hidden rounded-full bg-muted">
              <div className="h-full bg-accent transition-[width]" style={{ width: `${percentOf(progress)}%` }} />
            </div>
          </div>
        )}
        {failure && (
          <p role="alert" className="rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
            {failure}
          </p>
        )}
        {agent.audioFiles.length === 0 ? (
          <p className="text-sm text-fg-muted">No teaching audio yet. MP3, WAV, M4A or OGG, up to 50 MiB.</p>
        ) : (
          <ul className="divide-y divide-line-soft">
            {agent.audioFiles.map((file) => (
              <AudioFileRow key={file.id} file={file} summary={byId.get(file.id)} />
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function AudioFileRow({ file, summary }: { file: AgentAudioFile; summary: AgentAudioSummary | undefined }) {
  const status = summary?.status ?? file.summaryStatus;
  const text = summary?.summary ?? file.summary;
  return (
    <li className="py-2.5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate text-sm font-medium text-fg">{file.fileName}</span>
        <span className="flex items-center gap-2 text-xs text-fg-subtle">
          {formatDateTime(file.createdAt)}
          <Badge tone={status === 'success' ? 'success' : status === 'error' ? 'declined' : 'info'}>{status === 'success' ? 'Summarised' : status === 'error' ? 'Failed' : 'Summarising…'}</Badge>
        </span>
      </div>
      {status === 'success' && text && <p className="mt-1 text-sm text-fg-muted">{text}</p>}
      {status === 'error' && <p className="mt-1 text-sm text-danger-fg">{summary?.error ?? 'The summary could not be made.'}</p>}
    </li>
  );
}

function DeleteAgent({ team, agent, onDeleted }: { team: Organization; agent: AgentProfile; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation(deleteAgentMutationOptions(queryClient));
  const [open, setOpen] = useState(false);
  return (
    <div className="flex justify-end">
      <Button variant="ghost" className="text-danger-fg" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden="true" />
        Delete agent
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete the agent "${agent.name}"?`}
        description="Its FAQ, knowledge-file links and teaching audio go with it, and a number paired with it stops being answered by it. An agent a workflow still uses is not deleted."
        confirmLabel="Delete agent"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(
            { id: agent.id, organizationId: team.id },
            {
              onSuccess: () => {
                toast.success(`${agent.name} was deleted.`);
                setOpen(false);
                onDeleted();
              },
              onError: (error) => toast.error(error),
            },
          )
        }
      />
    </div>
  );
}
