import type { Organization } from '../../api/gen/model';
import { JobHistory } from './JobHistory';
import { JobPanel } from './JobPanel';

/** A workflow's runs: the latest one live, then its history. */
export function RunsPanel({ team, workflowId }: { team: Organization; workflowId: string }) {
  return (
    <div className="space-y-6">
      <JobPanel team={team} workflowId={workflowId} />
      <JobHistory workflowId={workflowId} />
    </div>
  );
}
