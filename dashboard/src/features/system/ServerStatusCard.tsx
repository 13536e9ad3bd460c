import { Fragment } from 'react';

import { useGetHealth } from '../../api/gen/system/system';
import type { Health } from '../../api/gen/model';

// The card is a live indicator: it asks again every half minute while the page is open.
const REFRESH_INTERVAL_MS = 30_000;

/** The facts of a health answer, e.g. ["Server OK", "version 0.1.0", "database sqlite"]. */
export function serverStatusParts(health: Health): string[] {
  const parts = [health.ok ? 'Server OK' : 'Server not ready', `version ${health.version}`];
  if (health.database) {
    parts.push(`database ${health.database}`);
  }
  return parts;
}

export function ServerStatusCard() {
  const health = useGetHealth({ query: { refetchInterval: REFRESH_INTERVAL_MS } });

  let tone: 'pending' | 'ok' | 'bad';
  let headline: string[];
  let detail: string;
  if (health.isPending) {
    tone = 'pending';
    headline = ['Checking the server…'];
    detail = 'Asking /healthz whether the Betty server is up.';
  } else if (health.isError) {
    tone = 'bad';
    headline = [unreachable(health.error.status) ? 'Server unreachable' : `Server error (HTTP ${health.error.status})`];
    detail = health.error.message;
  } else {
    const data = health.data.data;
    tone = data.ok ? 'ok' : 'bad';
    headline = serverStatusParts(data);
    detail = data.ok ? 'The API, background workers and this dashboard are served from here.' : 'The server answered but says it is not healthy.';
  }

  return (
    <section aria-labelledby="server-status-heading" className="rounded-xl border border-line bg-surface p-5 shadow-sm">
      <div className="flex items-center justify-between gap-4">
        <h2 id="server-status-heading" className="text-sm font-semibold text-fg">
          Server status
        </h2>
        <button
          type="button"
          onClick={() => void health.refetch()}
          disabled={health.isFetching}
          className="rounded-md px-2 py-1 text-xs font-medium text-accent-fg hover:bg-accent-subtle disabled:cursor-default disabled:text-fg-faint disabled:hover:bg-transparent"
        >
          {health.isFetching ? 'Checking…' : 'Check again'}
        </button>
      </div>
      <div role="status" aria-live="polite" className="mt-3 flex items-start gap-3">
        <StatusDot tone={tone} />
        <div className="min-w-0 break-words">
          <p className="font-medium text-fg" data-testid="server-status">
            {/* Each fact stays on one line; a narrow card wraps between them. */}
            {headline.map((part, i) => (
              <Fragment key={part}>
                {i > 0 && ' · '}
                <span className="whitespace-nowrap">{part}</span>
              </Fragment>
            ))}
          </p>
          <p className="mt-1 text-sm text-fg-muted">{detail}</p>
        </div>
      </div>
    </section>
  );
}

/** No answer from Betty itself: the network, or a proxy in front of it, failed. */
function unreachable(status: number): boolean {
  return status === 0 || status === 502 || status === 504;
}

const DOT_CLASSES = {
  pending: 'bg-line-strong',
  ok: 'bg-emerald-500',
  bad: 'bg-red-500',
} as const;

function StatusDot({ tone }: { tone: keyof typeof DOT_CLASSES }) {
  return (
    <span aria-hidden="true" className="relative mt-1.5 flex size-2.5 shrink-0">
      {tone === 'ok' && <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60 motion-reduce:hidden" />}
      <span className={`relative inline-flex size-2.5 rounded-full ${DOT_CLASSES[tone]}`} />
    </span>
  );
}
