import { Link, useParams } from 'react-router';

import { Badge } from '../../components/ui/badge';
import NotFoundPage from '../../components/NotFoundPage';
import { GUIDES, HELP_SECTIONS, guideBySlug, guidePreview, neighbours, type Guide } from './guides';
import { HelpNav } from './HelpNav';

const GETTING_STARTED = GUIDES.filter((g) => g.section === 'GETTING STARTED');

function DocsFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[15rem_minmax(0,1fr)]">
      <div className="order-2 lg:order-1">
        <HelpNav />
      </div>
      <article className="order-1 min-w-0 lg:order-2">{children}</article>
    </div>
  );
}

function PrevNext({ previous, next, base = '/docs' }: { previous?: Guide | undefined; next?: Guide | undefined; base?: string }) {
  return (
    <nav aria-label="Previous and next" className="mt-10 grid gap-3 border-t border-line pt-6 sm:grid-cols-2">
      {previous ? (
        <Link to={`${base}/${previous.slug}`} rel="prev" className="rounded-lg border border-line bg-surface p-3 hover:border-accent-line">
          <span className="block text-xs text-fg-subtle">Previous</span>
          <span className="font-medium text-fg">{previous.title}</span>
        </Link>
      ) : (
        <span />
      )}
      {next && (
        <Link to={`${base}/${next.slug}`} rel="next" className="rounded-lg border border-line bg-surface p-3 text-right hover:border-accent-line">
          <span className="block text-xs text-fg-subtle">Next</span>
          <span className="font-medium text-fg">{next.title}</span>
        </Link>
      )}
    </nav>
  );
}

export function DocsIndexPage() {
  return (
    <DocsFrame>
      <title>Docs · Betty</title>
      <h1 className="text-3xl font-semibold tracking-tight text-fg">Betty docs</h1>
      <p className="mt-3 text-fg-muted">
        Short guides to every part of Betty, from your first call to API keys.
        {GUIDES.some((g) => guidePreview(g)) && ' Guides marked Coming soon preview parts of Betty that are still being built.'}
      </p>
      {HELP_SECTIONS.map((section) => (
        <section key={section} className="mt-8">
          <h2 className="text-xs font-semibold tracking-wider text-fg-subtle">{section}</h2>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {GUIDES.filter((g) => g.section === section && !g.child).map((g) => (
              <li key={g.slug}>
                <Link to={`/docs/${g.slug}`} className="block h-full rounded-lg border border-line bg-surface p-4 hover:border-accent-line">
                  <span className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium text-fg">{g.title}</span>
                    {guidePreview(g) && <Badge>Coming soon</Badge>}
                  </span>
                  <span className="mt-1 block text-sm text-fg-muted">{g.summary}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <PrevNext next={GUIDES[0]} />
    </DocsFrame>
  );
}

export function GettingStartedPage() {
  return (
    <DocsFrame>
      <title>Getting started · Betty</title>
      <h1 className="text-3xl font-semibold tracking-tight text-fg">Getting started</h1>
      <p className="mt-3 text-fg-muted">From a new account to your agent answering its first call, in six short steps.</p>
      {GETTING_STARTED.some((g) => guidePreview(g)) && (
        <p className="mt-3 rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg">
          Some of these steps need parts of Betty that are still being built; the steps marked Coming soon preview what is on its way.
        </p>
      )}
      <ol className="mt-6 space-y-3">
        {GETTING_STARTED.map((g, index) => (
          <li key={g.slug}>
            <Link to={`/docs/${g.slug}`} className="flex gap-3 rounded-lg border border-line bg-surface p-4 hover:border-accent-line">
              <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent-subtle text-sm font-semibold text-accent-fg">
                {index + 1}
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-fg">{g.title}</span>
                  {guidePreview(g) && <Badge>Coming soon</Badge>}
                </span>
                <span className="mt-0.5 block text-sm text-fg-muted">{g.summary}</span>
              </span>
            </Link>
          </li>
        ))}
      </ol>
      <PrevNext next={GETTING_STARTED[0]} />
    </DocsFrame>
  );
}

export default function GuidePage() {
  const slug = useParams()['*'] ?? '';
  const guide = guideBySlug(slug.replace(/\/+$/, ''));
  if (!guide) return <NotFoundPage />;
  const { previous, next } = neighbours(guide.slug);
  const preview = guidePreview(guide);
  return (
    <DocsFrame>
      <title>{`${guide.title} · Betty docs`}</title>
      <p className="text-xs font-semibold tracking-wider text-accent-fg">{guide.section}</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-fg">{guide.title}</h1>
      <p className="mt-3 text-lg text-fg-muted">{guide.summary}</p>
      {preview && (
        <div role="note" aria-label="Coming soon" className="mt-5 rounded-lg border border-warning-line bg-warning-subtle px-4 py-3 text-sm text-warning-fg">
          <p className="font-semibold">Coming soon: a preview of what is on its way</p>
          <p className="mt-1">This guide describes a part of Betty that this server does not have yet, so its steps cannot be followed today. {preview}.</p>
        </div>
      )}
      {guide.steps && (
        <ol className="mt-6 list-decimal space-y-2 pl-5 text-fg">
          {guide.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      )}
      <div className="mt-6 space-y-4 text-fg">
        {guide.body.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      {guide.action && (
        <Link to={guide.action.to} className="mt-6 inline-block rounded-md bg-accent px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-accent-hover">
          {guide.action.label}
        </Link>
      )}
      <p className="mt-8 text-xs text-fg-subtle">Last updated 2025-03-31</p>
      <PrevNext previous={previous} next={next} />
    </DocsFrame>
  );
}
