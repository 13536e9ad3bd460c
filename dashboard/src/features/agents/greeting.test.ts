import { describe, expect, it } from 'vitest';

import { NO_AUDIO, mp3Blob } from './greeting';

describe('greeting audio', () => {
  it('decodes base64 into an MP3 blob', async () => {
    const blob = mp3Blob(btoa('ID3abc'));
    expect(blob.type).toBe('audio/mpeg');
    expect(blob.size).toBe(6);
  });

  it('says no audio data came back for an empty or unreadable answer', () => {
    expect(() => mp3Blob('')).toThrow(NO_AUDIO);
    expect(() => mp3Blob(undefined)).toThrow(NO_AUDIO);
    expect(() => mp3Blob('%%%')).toThrow(NO_AUDIO);
  });
});
