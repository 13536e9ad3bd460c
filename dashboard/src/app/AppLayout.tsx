import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';

import { useSignedIn } from '../features/auth/session';
import { BettyMark } from '../components/BettyMark';
import { ThemeToggle } from '../components/ThemeToggle';
import { PageSkeleton } from '../components/ui/states';
import { useFocusMainOnNavigation } from '../components/useFocusMainOnNavigation';

export function AppLayout() {
  useFocusMainOnNavigation();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-md focus:bg-surface focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-accent-fg focus:shadow"
      >
        Skip to content
      </a>

      <header className="border-b border-line bg-surface/80 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
          <Link to="/" className="-mx-1.5 flex items-center gap-2 rounded-lg px-1.5 py-1 text-lg font-semibold tracking-tight text-fg">
            <BettyMark className="size-8" />
            <span className="sr-only sm:not-sr-only">Betty</span>
          </Link>
          <AccountNav />
        </div>
      </header>

      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>

      <footer className="border-t border-line bg-surface">
        <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-6 text-sm text-fg-subtle sm:flex-row sm:justify-between sm:px-6">
          <p>Betty · AI voice agents for phone calls, on your own server</p>
          <p>
            Runs as one binary: <code className="font-mono text-[0.8125rem] text-fg-muted">betty serve</code>
          </p>
        </div>
      </footer>
    </div>
  );
}

function PageLoading() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <PageSkeleton />
    </div>
  );
}

/** Pages an e-mailed link opens: signing in from the header comes back to them. */
const RETURN_PATHS = ['/invite', '/transfer-ownership'];

function AccountNav() {
  const signedIn = useSignedIn();
  const location = useLocation();
  const next = RETURN_PATHS.includes(location.pathname) ? `?next=${encodeURIComponent(location.pathname + location.search)}` : '';
  return (
    <nav aria-label="Account">
      <ul className="flex items-center gap-1 sm:gap-2">
        <li>
          <ThemeToggle />
        </li>
        <li>
          <Link to="/docs" className="rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap text-fg-soft hover:bg-muted hover:text-fg sm:px-3">
            Docs
          </Link>
        </li>
        {signedIn ? (
          <li>
            <Link to="/dashboard" className="rounded-md bg-accent px-3 py-2 text-sm font-medium whitespace-nowrap text-white shadow-sm hover:bg-accent-hover">
              Open dashboard
            </Link>
          </li>
        ) : (
          <>
            <li>
              <Link to={`/sign-in${next}`} className="rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap text-fg-soft hover:bg-muted hover:text-fg sm:px-3">
                Sign in
              </Link>
            </li>
            <li>
              <Link to={`/sign-up${next}`} className="rounded-md bg-accent px-3 py-2 text-sm font-medium whitespace-nowrap text-white shadow-sm hover:bg-accent-hover">
                Create account
              </Link>
            </li>
          </>
        )}
      </ul>
    </nav>
  );
}
