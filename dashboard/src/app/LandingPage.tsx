import { Link } from 'react-router';

import { Badge } from '../components/ui/badge';
import { useSignedIn } from '../features/auth/session';
import { ServerStatusCard } from '../features/system/ServerStatusCard';
import { AVAILABLE_AREAS, COMING_SOON_AREAS } from '../lib/features';

const primary = 'rounded-md bg-accent px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-accent-hover';
const secondary = 'rounded-md border border-line-strong bg-surface px-4 py-2.5 text-sm font-semibold text-fg shadow-sm hover:bg-subtle';

export default function LandingPage() {
  // A signed-in visitor is on their way back in, not a newcomer to sign up.
  const signedIn = useSignedIn();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-20">
      <title>Betty · AI voice agents for phone calls</title>
      <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div>
          <p className="text-sm font-semibold tracking-wide text-accent-fg uppercase">Self-hosted voice AI</p>
          <h1 className="mt-3 text-4xl font-semibold tracking-tight text-fg sm:text-5xl">
            AI voice agents for your team&apos;s phone calls
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-fg-muted">
            Betty runs AI agents that answer and place phone calls for your team: design the conversation, point it at
            your numbers and contacts, and review every call afterwards, all on a server you run yourself.
            {COMING_SOON_AREAS.length > 0 && ' Today it runs the team side, ready for the agents that are on their way.'}
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            {signedIn ? (
              <Link to="/dashboard" className={primary}>
                Open dashboard
              </Link>
            ) : (
              <>
                <Link to="/sign-up" className={primary}>
                  Create an account
                </Link>
                <Link to="/sign-in" className={secondary}>
                  Sign in
                </Link>
              </>
            )}
          </div>
        </div>

        <aside aria-label="Server">
          <ServerStatusCard />
        </aside>
      </div>

      <section aria-labelledby="available-heading" className="mt-16 lg:mt-24">
        <h2 id="available-heading" className="text-lg font-semibold text-fg">
          What works today
        </h2>
        <p className="mt-1 text-sm text-fg-muted">Sign up, create a team, and run voice agents on calls: every part below works on this server.</p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {AVAILABLE_AREAS.map((a) => (
            <li key={a.id} className="rounded-xl border border-line bg-surface p-5">
              <h3 className="font-medium text-fg">{a.label}</h3>
              <p className="mt-2 text-sm text-fg-muted">{a.summary}</p>
            </li>
          ))}
        </ul>
      </section>

      {COMING_SOON_AREAS.length > 0 && (
        <section aria-labelledby="coming-soon-heading" className="mt-12">
          <h2 id="coming-soon-heading" className="text-lg font-semibold text-fg">
            Coming soon
          </h2>
          <p className="mt-1 text-sm text-fg-muted">The voice-agent side of Betty is being built. This server does not have these parts yet.</p>
          <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="coming-soon">
            {COMING_SOON_AREAS.map((a) => (
              <li key={a.id} className="rounded-xl border border-dashed border-line-strong bg-surface/60 p-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-medium text-fg-soft">{a.label}</h3>
                  <Badge>Coming soon</Badge>
                </div>
                <p className="mt-1.5 text-sm text-fg-muted">{a.summary}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
