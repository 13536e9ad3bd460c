import { FlaskConical, Play } from 'lucide-react';
import { useState } from 'react';

import type { Job, Organization, Workflow } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { can } from '../../lib/roles';
import { RunDialog } from './RunDialog';
import { TestRunDialog } from './TestRunDialog';

/**
 * Test run and Run for one workflow: Run (outbound workflows only; inbound ones run when calls
 * come in) asks for confirmation first; Test run asks whom to call. Read-only members see neither.
 */
export function RunControls({ team, workflow, onStarted, size = 'md', unsaved = false }: { team: Organization; workflow: Workflow; onStarted?: (job: Job) => void; size?: 'sm' | 'md'; /** The canvas has changes not saved yet: the run would use the saved graph. */ unsaved?: boolean }) {
  const [running, setRunning] = useState(false);
  const [testing, setTesting] = useState(false);
  if (!can(team.myRole, 'editCalling').allowed) return null;
  return (
    <>
      <Button variant="secondary" size={size} onClick={() => setTesting(true)}>
        <FlaskConical aria-hidden="true" />
        Test run
      </Button>
      {workflow.workflowType === 'outbound' && (
        <Button size={size} onClick={() => setRunning(true)}>
          <Play aria-hidden="true" />
          Run
        </Button>
      )}
      {running && <RunDialog open={running} onOpenChange={setRunning} team={team} workflow={workflow} unsaved={unsaved} {...(onStarted ? { onStarted } : {})} />}
      {testing && <TestRunDialog open={testing} onOpenChange={setTesting} team={team} workflow={workflow} />}
    </>
  );
}
