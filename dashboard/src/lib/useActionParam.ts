import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Runs `open` once when the URL asks for `?action=<name>` (the command palette's "Invite member"
 * lands on the members page that way), then takes the parameter out of the URL so a reload or
 * Back does not open the dialog again. Does nothing while `enabled` is false (the role may not).
 */
export function useActionParam(name: string, open: () => void, enabled = true): void {
  const [params, setParams] = useSearchParams();
  const asked = params.get('action') === name;
  useEffect(() => {
    if (!asked) return;
    if (enabled) open();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('action');
        return next;
      },
      { replace: true },
    );
  }, [asked, enabled, open, setParams]);
}
