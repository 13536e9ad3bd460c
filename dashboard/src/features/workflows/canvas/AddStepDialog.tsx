import { Dialog, DialogContent } from '../../../components/ui/dialog';
import type { Kind } from '../graph';
import { NODE_KINDS } from './nodes/registry';

/** Where a new step goes: after a node, or in the middle of an edge. */
export type StepTarget = { after: string } | { edge: string };

export function AddStepDialog({ target, onClose, onPick }: { target: StepTarget | null; onClose: () => void; onPick: (kind: Kind) => void }) {
  const kinds = Object.values(NODE_KINDS).filter((k) => k.addable);
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Add a step" description="Choose what happens next in the call.">
        <ul className="grid gap-2 sm:grid-cols-2">
          {kinds.map((k) => (
            <li key={k.kind}>
              <button type="button" className="w-full rounded-lg border-2 bg-surface p-3 text-left hover:bg-muted" style={{ borderColor: k.color }} onClick={() => onPick(k.kind)}>
                <span className="block text-sm font-semibold text-fg">{k.label}</span>
                <span className="block text-xs text-fg-muted">{k.hint}</span>
              </button>
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
