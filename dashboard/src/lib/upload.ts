// Resumable uploads (tus 1.0.0) to the server's /v1/uploads, the one way a screen sends a file.
// The contract asks for 6 MiB chunks and retries after 0, 3, 5, 10 and 20 seconds; each request
// carries the session's current tokens, so a token renewed by another request is picked up.
// With `resumable`, tus-js-client keeps each upload's URL in localStorage under a fingerprint of
// the file, the team and the purpose, so choosing the same file again after a reload (or a lost
// connection) continues from the bytes the server already has instead of starting over.

import { Upload as TusUpload } from 'tus-js-client';

import { getUpload } from '../api/gen/uploads/uploads';
import type { Upload, UploadPurpose } from '../api/gen/model';
import { apiUrl } from '../api/mutator';
import { getTokens } from '../api/session';

export const UPLOAD_CHUNK_BYTES = 6_291_456;
export const UPLOAD_RETRY_DELAYS_MS = [0, 3_000, 5_000, 10_000, 20_000];

export interface UploadProgress {
  sent: number;
  total: number;
}

export interface UploadOptions {
  organizationId: string;
  purpose: UploadPurpose;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Resume an unfinished upload of the same file (same team and purpose) after a reload. */
  resumable?: boolean;
}

/** The key a resumable upload is remembered under: the file as the browser knows it, the team and the purpose. */
export function uploadFingerprint(file: Pick<File, 'name' | 'type' | 'size' | 'lastModified'>, organizationId: string, purpose: UploadPurpose): string {
  return ['betty-upload', organizationId, purpose, file.name, file.type, file.size, file.lastModified].join('/');
}

/** Whole percent of an upload, 0 to 100 (an empty total counts as done). */
export function percentOf({ sent, total }: UploadProgress): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.floor((sent / total) * 100));
}

/** The upload id at the end of the `Location` the server answered (`…/v1/uploads/{id}`). */
export function uploadIdFromUrl(url: string): string {
  const id = new URL(url, 'http://localhost').pathname.split('/').filter(Boolean).at(-1);
  if (!id) throw new Error(`no upload id in ${url}`);
  return id;
}

/**
 * Sends `file` in chunks and resolves with the finished upload, whose `fileUrl` other operations
 * take. Rejects with the server's words when it refuses the file (type, size, purpose).
 */
export function uploadFile(file: File, { organizationId, purpose, onProgress, signal, resumable = false }: UploadOptions): Promise<Upload> {
  return new Promise<Upload>((resolve, reject) => {
    const upload = new TusUpload(file, {
      endpoint: apiUrl('/v1/uploads'),
      chunkSize: UPLOAD_CHUNK_BYTES,
      retryDelays: UPLOAD_RETRY_DELAYS_MS,
      metadata: { filename: file.name, filetype: file.type, organizationId, purpose },
      // Without `resumable` every file is its own upload: resuming across page loads is not offered.
      storeFingerprintForResuming: resumable,
      removeFingerprintOnSuccess: true,
      fingerprint: (f) => Promise.resolve(uploadFingerprint(f as File, organizationId, purpose)),
      onBeforeRequest: (request) => {
        const tokens = getTokens();
        if (tokens) {
          request.setHeader('Authorization', `Bearer ${tokens.accessToken}`);
          request.setHeader('X-RefreshToken', tokens.refreshToken);
        }
      },
      onProgress: (sent, total) => onProgress?.({ sent, total }),
      onError: (error) => reject(new Error(tusErrorMessage(error))),
      onSuccess: () => {
        if (!upload.url) return reject(new Error('The server did not say where the upload went.'));
        getUpload(uploadIdFromUrl(upload.url))
          .then((response) => resolve(response.data))
          .catch(reject);
      },
    });
    signal?.addEventListener('abort', () => {
      void upload.abort(true);
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    if (!resumable) return upload.start();
    // An upload the server no longer knows (expired, deleted) is started afresh by tus-js-client.
    upload
      .findPreviousUploads()
      .then((previous) => {
        const newest = previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
        if (newest) upload.resumeFromPreviousUpload(newest);
      })
      .catch(() => undefined)
      .finally(() => upload.start());
  });
}

/** The server's problem detail from a failed tus request, else tus-js-client's own message. */
function tusErrorMessage(error: Error): string {
  const body = (error as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  if (body) {
    try {
      const problem = JSON.parse(body) as { detail?: string; title?: string };
      if (problem.detail || problem.title) return problem.detail || problem.title || '';
    } catch {
      // not JSON: fall through
    }
  }
  return 'The file could not be uploaded. Check your connection and try again.';
}
