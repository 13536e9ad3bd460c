import { LabelField } from '../parts';
import type { NodeEditProps, NodeKindSpec } from '../types';

function EndCallView() {
  return <p className="flex flex-1 items-center justify-center text-sm text-fg-muted">Triggers an End Call</p>;
}

function EndCallEdit(props: NodeEditProps) {
  return <LabelField {...props} />;
}

export const endCallNode: NodeKindSpec = {
  kind: 'end-call',
  label: 'End Call',
  hint: 'The agent says goodbye and hangs up.',
  color: '#dc2626',
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'End Call' }),
  View: EndCallView,
  Edit: EndCallEdit,
  validate: () => ({}),
  terminal: true,
  addable: true,
};
