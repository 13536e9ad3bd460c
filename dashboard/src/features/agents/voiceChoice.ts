// The voice picker holds one value for two kinds of voice: "preset:<id>" or "custom:<id>"; empty
// is the platform's default preset. The contract takes them as voicePresetId or voiceId.

import type { AgentProfile } from '../../api/gen/model';

export type VoiceChoice = '' | `preset:${string}` | `custom:${string}`;

export function choiceOf(agent: Pick<AgentProfile, 'voiceId' | 'voicePresetId'> | undefined): VoiceChoice {
  if (agent?.voiceId) return `custom:${agent.voiceId}`;
  if (agent?.voicePresetId) return `preset:${agent.voicePresetId}`;
  return '';
}

/** The request fields for a choice (none for the default voice). */
export function voiceFields(choice: VoiceChoice): { voiceId?: string; voicePresetId?: string } {
  if (choice.startsWith('custom:')) return { voiceId: choice.slice('custom:'.length) };
  if (choice.startsWith('preset:')) return { voicePresetId: choice.slice('preset:'.length) };
  return {};
}
