import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';

import type { User } from '../../api/gen/model';
import { buttonClasses, Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { updateProfileMutationOptions } from '../auth/queries';

/**
 * The preference that remembers the notice was dismissed. Decision (issue 21): it is kept on
 * the server, in the user's profile preferences, so a site administrator is told once per
 * account, not once per browser.
 */
export const NOTICE_DISMISSED = 'siteAdminNoticeDismissed';

/** Tells a site administrator, until they dismiss it, that they are one and what it allows. */
export function SiteAdminNotice({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const update = useMutation(updateProfileMutationOptions(queryClient));
  const preferences = user.profile.preferences ?? {};
  if (!user.isSiteAdmin || preferences[NOTICE_DISMISSED] === true || update.isPending) return null;

  function dismiss() {
    update.mutate({ preferences: { ...preferences, [NOTICE_DISMISSED]: true } }, { onError: (e) => toast.error(e) });
  }

  return (
    <section aria-labelledby="site-admin-notice" className="mb-6 flex flex-col gap-3 rounded-xl border border-accent-line bg-accent-subtle p-4 sm:flex-row sm:items-start">
      <ShieldCheck aria-hidden="true" className="size-5 shrink-0 text-accent-fg" />
      <div className="flex-1 text-sm text-fg">
        <h2 id="site-admin-notice" className="font-semibold">
          You are this server's site administrator
        </h2>
        <p className="mt-1 text-fg-muted">
          On the Site admin page you can find any user and team, grant a team credits, set its tier and verification level, and read the mail
          this server wrote. Calls through the simulator are free; credits pay for calls through a real carrier.
        </p>
      </div>
      <div className="flex gap-2">
        <Link to="/admin" className={buttonClasses('primary', 'sm')}>
          Open Site admin
        </Link>
        <Button size="sm" variant="secondary" onClick={dismiss}>
          Dismiss
        </Button>
      </div>
    </section>
  );
}
