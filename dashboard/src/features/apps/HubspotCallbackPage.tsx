import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { buttonClasses } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../components/ui/states';
import { teamPath } from '../team/TeamContext';
import { finishHubspotMutationOptions } from './queries';

/**
 * /dashboard/apps/hubspot/callback?teamId=…&code=…&state=…: where the server's HubSpot callback sends
 * the browser. The page relays the code with the signed-in user's session, since only the user who
 * started the connection may finish it, then shows the outcome on the connected apps page.
 */
export default function HubspotCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const finish = useMutation(finishHubspotMutationOptions(queryClient));
  const teamId = params.get('teamId');
  const sent = useRef(false);
  useEffect(() => {
    // A code works once: send it once, even when React runs effects twice.
    if (sent.current) return;
    sent.current = true;
    finish.mutate(
      { code: params.get('code'), state: params.get('state'), teamId },
      {
        onSuccess: (app) =>
          navigate(teamPath(`/dashboard/connected-apps?${new URLSearchParams({ app: 'hubspot', result: 'connected', connectedAppId: app.id })}`, teamId), { replace: true }),
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="mx-auto w-full max-w-2xl">
      <PageHeader title="Connecting HubSpot" />
      {finish.isError ? (
        <>
          <ErrorState title="HubSpot was not connected" error={finish.error} />
          <Link to={teamPath('/dashboard/connected-apps', teamId)} className={`${buttonClasses('secondary')} mt-4`}>
            Go to Connected apps
          </Link>
        </>
      ) : (
        <LoadingState label="Finishing the HubSpot connection…" />
      )}
    </div>
  );
}
