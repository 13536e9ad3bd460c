import type { Organization } from '../../api/gen/model';
import { JobHistory } from './JobHistory';
import { JobPanel } from './JobPanel';

/** A workflow's runs: the latest one live, then its history. */
export function RunsPanel({ team, workflowId, compact = false }: { team: Organization; workflowId: string; compact?: boolean }) {
  return (
    <div className="space-y-6">
      <JobPanel team={team} workflowId={workflowId} />
      <JobHistory workflowId={workflowId} compact={compact} />
    </div>
  );
}
