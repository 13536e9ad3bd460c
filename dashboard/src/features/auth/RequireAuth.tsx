import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { signedOutOnPurpose, useSignedIn } from './session';

/** Renders its children while signed in; otherwise goes to sign-in and back here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  const location = useLocation();
  if (!signedIn) {
    if (signedOutOnPurpose()) return <Navigate to="/" replace />;
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return children;
}
