import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';

import { buttonClasses } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../components/ui/states';
import { teamPath, useTeamContext } from '../team/TeamContext';
import { Notice } from '../apps/Notice';
import { completeZapierMutationOptions } from './queries';

/** /dashboard/zapier/callback?code=…&state=…: where Zapier sends the browser back; finishes the connection for the selected team. */
export default function ZapierCallbackPage() {
  const { team } = useTeamContext();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const complete = useMutation(completeZapierMutationOptions(queryClient));
  const code = params.get('code');
  const teamId = team?.id ?? null;
  const sent = useRef(false);
  useEffect(() => {
    // A code is single-use: send it once, even when React runs effects twice.
    if (sent.current) return;
    sent.current = true;
    complete.mutate({ code, teamId, state: params.get('state') });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="mx-auto w-full max-w-2xl">
      <PageHeader title="Connecting Zapier" />
      {complete.isPending || complete.isIdle ? (
        <LoadingState label="Finishing the Zapier connection…" />
      ) : complete.isError ? (
        <ErrorState title="Zapier was not connected" error={complete.error} />
      ) : (
        <Notice tone="success" title="Zapier connected">
          {team ? `${team.name}'s zaps that use Betty now show on the Zapier page.` : 'Your zaps that use Betty now show on the Zapier page.'}
        </Notice>
      )}
      {!complete.isPending && (
        <Link to={teamPath('/dashboard/zapier', teamId)} className={`${buttonClasses('secondary')} mt-4`}>
          Go to the Zapier page
        </Link>
      )}
    </div>
  );
}
