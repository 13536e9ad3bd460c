// Playing speech the server answers as base64 MP3: decoded into a Blob and handed to an audio
// element by URL. An empty answer is the spec's "No audio data received", which the screen
// shows as "Failed to play greeting".

export const NO_AUDIO = 'No audio data received';
export const GREETING_FAILED = 'Failed to play greeting';

/** The MP3 bytes of a base64 string; throws NO_AUDIO when there are none. */
export function mp3Blob(base64: string | null | undefined): Blob {
  const clean = (base64 ?? '').replace(/\s+/g, '');
  if (!clean) throw new Error(NO_AUDIO);
  let binary: string;
  try {
    binary = atob(clean);
  } catch {
    throw new Error(NO_AUDIO);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: 'audio/mpeg' });
}
