import { toast } from '../components/ui/toast-store';

/** Copies `text` and says so; where the browser refuses (no permission, no secure context) it says how to copy by hand. */
export async function copyText(text: string, done: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done);
    return true;
  } catch {
    toast.warning('Could not copy here; select the text and copy it by hand.');
    return false;
  }
}
