import { Database } from 'lucide-react';

import { Lead } from '../parts';
import { kindColor, type NodeKindSpec } from '../types';

function DataAccessView() {
  return <Lead lead="Data Access Trigger">Looks up what Betty knows about the caller before going on.</Lead>;
}

export const dataAccessNode: NodeKindSpec = {
  kind: 'data-access',
  label: 'Data Access',
  hint: 'Lets the agent read the contact’s data at this point.',
  color: kindColor('data-access'),
  icon: Database,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Data Access' }),
  View: DataAccessView,
  notEditable: 'Cannot edit Data Access Trigger',
  validate: () => ({}),
  addable: true,
};
