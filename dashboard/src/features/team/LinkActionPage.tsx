import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { buttonClasses } from '../../components/ui/button';
import { LoadingState, errorMessage } from '../../components/ui/states';
import { AuthCard, FormAlert, textLinkClasses } from '../auth/AuthCard';
import { useSignedIn } from '../auth/session';

interface LinkActionPageProps {
  title: string;
  /** What the person is about to do, for the signed-out view. */
  pitch: string;
  token: string;
  missingToken: string;
  run: (token: string) => void;
  status: 'idle' | 'pending' | 'success' | 'error';
  error: unknown;
  working: string;
}

/**
 * An e-mailed link that acts for the signed-in user (an invitation, an ownership transfer):
 * signed out, it offers sign-in or sign-up and comes back here; signed in, it acts once.
 */
export function LinkActionPage({ title, pitch, token, missingToken, run, status, error, working }: LinkActionPageProps) {
  const signedIn = useSignedIn();
  const location = useLocation();
  const started = useRef(false);
  const next = encodeURIComponent(`${location.pathname}${location.search}`);

  useEffect(() => {
    if (!signedIn || !token || started.current) return;
    started.current = true;
    run(token);
  }, [signedIn, token, run]);

  let body: ReactNode;
  if (!token) {
    body = <FormAlert>{missingToken}</FormAlert>;
  } else if (!signedIn) {
    body = (
      <div className="space-y-4">
        <p className="text-sm text-zinc-600">{pitch}</p>
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
