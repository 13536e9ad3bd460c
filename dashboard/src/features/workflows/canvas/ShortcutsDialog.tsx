import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { SHORTCUTS } from './useCanvasKeys';

/** What the canvas's keys do (the header's "Keyboard shortcuts" tool opens it). */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Keyboard shortcuts" description="On the canvas, outside text fields.">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map((s) => (
            <div key={s.keys} className="contents">
              <dt className="font-medium text-fg">{s.keys}</dt>
              <dd className="text-fg-muted">{s.what}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
