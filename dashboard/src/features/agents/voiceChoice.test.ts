import { describe, expect, it } from 'vitest';

import { choiceOf, voiceFields } from './voiceChoice';

describe('voice choice', () => {
  it('reads an agent’s voice and sends it back as the contract names it', () => {
    expect(choiceOf({ voiceId: 'v1', voicePresetId: null })).toBe('custom:v1');
    expect(choiceOf({ voiceId: null, voicePresetId: 'en-us-f' })).toBe('preset:en-us-f');
    expect(choiceOf(undefined)).toBe('');
    expect(voiceFields('custom:v1')).toEqual({ voiceId: 'v1' });
    expect(voiceFields('preset:en:us')).toEqual({ voicePresetId: 'en:us' });
    expect(voiceFields('')).toEqual({});
  });
});
