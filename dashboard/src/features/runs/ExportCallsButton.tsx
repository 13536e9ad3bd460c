import { useMutation } from '@tanstack/react-query';
import { Download } from 'lucide-react';

import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { saveTextFile } from '../../lib/download';
import { exportJobCallsMutationOptions } from './queries';

/** "Download calls (CSV)": a run's calls with their outcome, summary and post-call fields. */
export function ExportCallsButton({ jobId, label }: { jobId: string; label?: string }) {
  const download = useMutation({
    ...exportJobCallsMutationOptions(),
    onSuccess: (text) => saveTextFile(`calls-${jobId}.csv`, text),
    onError: (e) => toast.error(e),
  });
  return (
    <Button variant="ghost" size="sm" disabled={download.isPending} onClick={() => download.mutate(jobId)} aria-label={label} data-testid="job-export-calls">
      <Download aria-hidden="true" />
      Download calls (CSV)
    </Button>
  );
}
