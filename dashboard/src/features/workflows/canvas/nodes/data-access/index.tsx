import type { NodeKindSpec } from '../types';

function DataAccessView() {
  return <p className="flex flex-1 items-center justify-center text-sm text-fg-muted">Data Access Trigger</p>;
}

export const dataAccessNode: NodeKindSpec = {
  kind: 'data-access',
  label: 'Data Access',
  hint: 'Lets the agent read the contact’s data at this point.',
  color: '#9333ea',
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Data Access' }),
  View: DataAccessView,
  notEditable: 'Cannot edit Data Access Trigger',
  validate: () => ({}),
  addable: true,
};
