import { useState } from 'react';

import { Button } from '../../../components/ui/button';
import type { Data, Graph } from '../graph';
import { specOf } from './nodes/registry';

export function EditPanel({ nodeId, graph, onApply, onClose }: { nodeId: string; graph: Graph; onApply: (data: Data) => void; onClose: () => void }) {
  const n = graph.nodes.find((x) => x.id === nodeId);
  const [draft, setDraft] = useState<Data>(() => ({ ...(n?.data ?? {}) }));
  if (!n) return null;
  const spec = specOf(n.type);
  const Edit = spec.Edit;
  const problems = spec.validate(draft);
  return (
    <aside aria-label={`Edit ${spec.label}`} className="absolute top-0 right-0 z-10 flex h-full w-full max-w-sm flex-col border-l border-line bg-surface shadow-xl">
      <div className="flex items-center justify-between border-b border-line px-4 py-3">
        <h2 className="text-sm font-semibold text-fg">
          <span className="mr-2 inline-block size-2 rounded-full" style={{ background: spec.color }} aria-hidden="true" />
          Edit {spec.label}
        </h2>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">{Edit && <Edit nodeId={nodeId} data={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} />}</div>
      <div className="flex justify-end gap-2 border-t border-line px-4 py-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          onClick={() => onApply(draft)}
          // A value the server refuses cannot be applied; a missing one can (it only stops a run).
          disabled={Object.keys(problems).some((f) => !['instruction', 'description', 'destinationPhoneNumber', 'webhookUrl', 'lifeCycleStage', 'contactsSource'].includes(f) || !!draft[f])}
        >
          Apply
        </Button>
      </div>
    </aside>
  );
}
