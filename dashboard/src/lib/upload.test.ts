import { describe, expect, it } from 'vitest';

import { UPLOAD_CHUNK_BYTES, UPLOAD_RETRY_DELAYS_MS, percentOf, uploadFingerprint, uploadIdFromUrl } from './upload';

describe('resumable uploads', () => {
  it('sends 6 MiB chunks and retries after 0, 3, 5, 10 and 20 s (spec section 9)', () => {
    expect(UPLOAD_CHUNK_BYTES).toBe(6 * 1024 * 1024);
    expect(UPLOAD_RETRY_DELAYS_MS).toEqual([0, 3_000, 5_000, 10_000, 20_000]);
  });

  it('remembers an upload per file, team and purpose, so a reload resumes only the same one', () => {
    const file = { name: 'manual.pdf', type: 'application/pdf', size: 1234, lastModified: 42 };
    const a = uploadFingerprint(file, 't1', 'knowledge-file');
    expect(a).toBe(uploadFingerprint({ ...file }, 't1', 'knowledge-file'));
    expect(a).not.toBe(uploadFingerprint(file, 't2', 'knowledge-file'));
    expect(a).not.toBe(uploadFingerprint(file, 't1', 'agent-file'));
    expect(a).not.toBe(uploadFingerprint({ ...file, size: 1235 }, 't1', 'knowledge-file'));
    expect(a).not.toBe(uploadFingerprint({ ...file, lastModified: 43 }, 't1', 'knowledge-file'));
  });

  it('reads progress and the upload id', () => {
    expect(percentOf({ sent: 50, total: 200 })).toBe(25);
    expect(percentOf({ sent: 0, total: 0 })).toBe(100);
    expect(uploadIdFromUrl('http://x/v1/uploads/u123')).toBe('u123');
  });
});
