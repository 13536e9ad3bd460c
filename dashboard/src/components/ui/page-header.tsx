import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  /** Omitted for the page itself, the last crumb. */
  to?: string;
}

/** Where a page sits: "Acme › Members". The last crumb is the current page, not a link. */
export function Breadcrumbs({ items, className }: { items: readonly Crumb[]; className?: string }) {
  if (items.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className={className}>
      <ol className="flex min-w-0 items-center gap-1 text-sm text-fg-subtle">
        {items.map((crumb, index) => {
          const last = index === items.length - 1;
          return (
            <li key={`${crumb.label}-${index}`} className="flex min-w-0 items-center gap-1">
              {index > 0 && <ChevronRight aria-hidden="true" className="size-3.5 shrink-0 text-fg-faint" />}
              {crumb.to && !last ? (
                <Link to={crumb.to} className="truncate rounded-sm hover:text-fg">
                  {crumb.label}
                </Link>
              ) : (
                <span className={last ? 'truncate font-medium text-fg' : 'truncate'} {...(last ? { 'aria-current': 'page' as const } : {})}>
                  {crumb.label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** Buttons on the right: one primary action at most. */
  actions?: ReactNode;
  /** Parents of a nested page; top-level pages have theirs in the top bar. */
  breadcrumbs?: readonly Crumb[];
}

/** Every screen's title (also the document title), a line on what it is for, and its actions. */
export function PageHeader({ title, description, actions, breadcrumbs }: PageHeaderProps) {
  return (
    <div className="mb-6 space-y-2 sm:mb-8">
      <title>{`${title} · Betty`}</title>
      {breadcrumbs && <Breadcrumbs items={[...breadcrumbs, { label: title }]} />}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight text-fg">{title}</h1>
          {description && <p className="mt-1 max-w-2xl text-sm text-fg-muted">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
    </div>
  );
}

/** Says why a control is not offered to this role. */
export function RoleNotice({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-line bg-subtle px-3 py-2 text-sm text-fg-muted">{children}</p>;
}
