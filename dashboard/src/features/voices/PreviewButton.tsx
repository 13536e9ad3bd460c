import { Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';

/** Plays (and stops) a voice's public MP3 sample; one sample plays at a time on a page. */
let playing: HTMLAudioElement | null = null;

export function PreviewButton({ url, name, size = 'sm' }: { url: string; name: string; size?: 'sm' | 'md' }) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [on, setOn] = useState(false);

  useEffect(
    () => () => {
      audio.current?.pause();
    },
    [],
  );

  function toggle() {
    if (on && audio.current) {
      audio.current.pause();
      setOn(false);
      return;
    }
    if (!audio.current) {
      audio.current = new Audio(url);
      audio.current.addEventListener('ended', () => setOn(false));
      audio.current.addEventListener('pause', () => setOn(false));
    }
    if (playing && playing !== audio.current) playing.pause();
    playing = audio.current;
    audio.current.currentTime = 0;
    setOn(true);
    audio.current.play().catch((error: unknown) => {
      setOn(false);
      if (error instanceof DOMException && error.name === 'AbortError') return;
      toast.error(`The sample of ${name} could not be played.`);
    });
  }

  return (
    <Button variant="secondary" size={size} onClick={toggle} aria-pressed={on} aria-label={on ? `Stop the sample of ${name}` : `Play the sample of ${name}`}>
      {on ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
      {on ? 'Stop' : 'Play'}
    </Button>
  );
}
