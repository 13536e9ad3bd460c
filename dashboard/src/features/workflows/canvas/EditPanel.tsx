import { useState } from 'react';

import { Button } from '../../../components/ui/button';
import type { Data, Graph } from '../graph';
import { specOf } from './nodes/registry';
import { SidePanel } from './SidePanel';

/** Fields that may be empty when applied: an empty one only stops a run, the server stores it. */
const MAY_BE_MISSING = ['instruction', 'description', 'destinationPhoneNumber', 'webhookUrl', 'lifeCycleStage', 'contactsSource'];

/** The step panel: edits a draft of a node's data, applied as one undoable edit. */
export function EditPanel({ nodeId, graph, onApply, onClose }: { nodeId: string; graph: Graph; onApply: (data: Data) => void; onClose: () => void }) {
  const n = graph.nodes.find((x) => x.id === nodeId);
  const [draft, setDraft] = useState<Data>(() => ({ ...(n?.data ?? {}) }));
  if (!n) return null;
  const spec = specOf(n.type);
  const Edit = spec.Edit;
  const problems = spec.validate(draft);
  return (
    <SidePanel
      label={`Edit ${spec.label}`}
      title={
        <>
          <span className="mr-2 inline-block size-2 rounded-full" style={{ background: spec.color }} aria-hidden="true" />
          Edit {spec.label}
        </>
      }
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => onApply(draft)}
            // A value the server refuses cannot be applied; a missing one can (it only stops a run).
            disabled={Object.keys(problems).some((f) => !MAY_BE_MISSING.includes(f) || !!draft[f])}
          >
            Apply
          </Button>
        </>
      }
    >
      {Edit && <Edit nodeId={nodeId} data={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} />}
    </SidePanel>
  );
}
