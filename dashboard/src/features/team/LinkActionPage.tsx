import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { buttonClasses } from '../../components/ui/button';
import { LoadingState, errorMessage } from '../../components/ui/states';
import type { TokenActionStatus } from '../../lib/useTokenAction';
import { AuthCard, FormAlert, textLinkClasses } from '../auth/AuthCard';

interface LinkActionPageProps {
  title: string;
  /** What the person is about to do, for the signed-out view. */
  pitch: string;
  missingToken: string;
  working: string;
  /** From useTokenAction, which waits until the person is signed in. */
  status: TokenActionStatus;
  error: unknown;
}

/**
 * The screen of an e-mailed link that acts for the signed-in user (an invitation, an ownership
 * transfer): signed out, it offers sign-in or sign-up and comes back here; signed in, it shows
 * the action running or why it failed. The page navigates away itself once the action is done.
 */
export function LinkActionPage({ title, pitch, missingToken, working, status, error }: LinkActionPageProps) {
  const location = useLocation();
  const next = encodeURIComponent(`${location.pathname}${location.search}`);

  let body: ReactNode;
  if (status === 'missing') {
    body = <FormAlert>{missingToken}</FormAlert>;
  } else if (status === 'waiting') {
    body = (
      <div className="space-y-4">
        <p className="text-sm text-fg-muted">{pitch}</p>
        <div className="flex flex-wrap gap-2">
          <Link to={`/sign-in?next=${next}`} className={buttonClasses('primary')}>
            Sign in
          </Link>
          <Link to={`/sign-up?next=${next}`} className={buttonClasses('secondary')}>
            Create an account
          </Link>
        </div>
      </div>
    );
  } else if (status === 'error') {
    body = (
      <div className="space-y-3 text-sm">
        <FormAlert>{errorMessage(error)}</FormAlert>
        <Link to="/dashboard" className={textLinkClasses}>
          Go to your dashboard
        </Link>
      </div>
    );
  } else {
    body = <LoadingState label={working} />;
  }
  return <AuthCard title={title}>{body}</AuthCard>;
}
