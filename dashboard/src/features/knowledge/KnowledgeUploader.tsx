import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileUp, X } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';

import type { Organization } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../components/ui/states';
import { cn } from '../../lib/cn';
import { percentOf, uploadFile } from '../../lib/upload';
import { addKnowledgeFileMutationOptions } from './queries';

/** What the server reads (spec: PDF, DOCX, TXT, Markdown, CSV, HTML; it checks the bytes itself). */
export const KNOWLEDGE_ACCEPT = '.pdf,.docx,.txt,.md,.markdown,.csv,.html,.htm,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/plain,text/markdown,text/csv,text/html';

interface Sending {
  key: string;
  name: string;
  percent: number;
  /** The server's words when the upload or the add failed. */
  error?: string;
  controller: AbortController;
}

/**
 * Drop files (or choose them) to add them to a knowledge base: each is sent over tus (resumable
 * after a reload: choose the same file again), then added as a knowledge file, which the list
 * shows as parsing until the server has read it.
 */
export function KnowledgeUploader({ team, knowledgeBaseId, onAdded }: { team: Organization; knowledgeBaseId: string; onAdded: (fileId: string) => void }) {
  const queryClient = useQueryClient();
  const add = useMutation(addKnowledgeFileMutationOptions(queryClient, team.id));
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [sending, setSending] = useState<Sending[]>([]);

  const update = (key: string, change: Partial<Sending>) => setSending((all) => all.map((s) => (s.key === key ? { ...s, ...change } : s)));
  const drop = (key: string) => setSending((all) => all.filter((s) => s.key !== key));

  async function send(file: File) {
    const key = `${file.name}-${file.size}-${file.lastModified}-${Math.random()}`;
    const controller = new AbortController();
    setSending((all) => [...all, { key, name: file.name, percent: 0, controller }]);
    try {
      const upload = await uploadFile(file, { organizationId: team.id, purpose: 'knowledge-file', resumable: true, signal: controller.signal, onProgress: (p) => update(key, { percent: percentOf(p) }) });
      if (!upload.fileUrl) throw new Error('The server did not say where the file went.');
      const entry = await add.mutateAsync({ knowledgeBaseId, fileUrl: upload.fileUrl, fileName: file.name });
      onAdded(entry.id);
      drop(key);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return drop(key);
      update(key, { error: errorMessage(error) });
    }
  }

  function sendAll(files: FileList | null) {
    for (const file of Array.from(files ?? [])) void send(file);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    sendAll(event.dataTransfer.files);
  }

  return (
    <div className="space-y-2">
      <div
        data-testid="knowledge-dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn('flex flex-col items-center gap-2 rounded-xl border border-dashed px-4 py-6 text-center text-sm transition-colors', over ? 'border-accent bg-accent-subtle' : 'border-line-strong bg-subtle')}
      >
        <FileUp aria-hidden="true" className="size-6 text-fg-subtle" />
        <p className="text-fg-muted">
          Drop PDF, DOCX, TXT, Markdown, CSV or HTML files here (up to 50 MiB each), or
        </p>
        <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
          Choose files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={KNOWLEDGE_ACCEPT}
          aria-label="Choose files to add to the knowledge base"
          className="sr-only"
          tabIndex={-1}
          onChange={(e) => {
            sendAll(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </div>
      {sending.length > 0 && (
        <ul aria-label="Uploads" className="space-y-2">
          {sending.map((s) => (
            <li key={s.key} className="rounded-lg border border-line bg-surface px-3 py-2 text-sm">
              <div className="flex items-center justify-between gap-2">
                <span className="min-w-0 truncate font-medium text-fg">{s.name}</span>
                {s.error ? (
                  <Button variant="ghost" size="icon" aria-label={`Dismiss ${s.name}`} onClick={() => drop(s.key)}>
                    <X aria-hidden="true" />
                  </Button>
                ) : (
                  <Button variant="ghost" size="sm" aria-label={`Cancel the upload of ${s.name}`} onClick={() => s.controller.abort()}>
                    Cancel
                  </Button>
                )}
              </div>
              {s.error ? (
                <p role="alert" className="mt-1 text-xs font-medium text-danger-fg">
                  {s.error}
                </p>
              ) : (
                <div className="mt-1.5 flex items-center gap-2">
                  <div role="progressbar" aria-label={`Uploading ${s.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={s.percent} className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted">
                    <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${s.percent}%` }} />
                  </div>
                  <span className="w-10 text-right text-xs text-fg-muted tabular-nums">{s.percent}%</span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
