import type { ReactNode } from 'react';

import { cn } from '../../lib/cn';

/** A surface that groups one thing: a section of a page, a tile, a form. */
export function Card({ children, className, as: Tag = 'div', ...rest }: { children: ReactNode; className?: string; as?: 'div' | 'section' | 'article' | 'li'; 'aria-labelledby'?: string }) {
  return (
    <Tag className={cn('rounded-xl border border-line bg-surface shadow-card', className)} {...rest}>
      {children}
    </Tag>
  );
}

/** A card's title row: the heading (with its id for aria-labelledby), a line under it and an action. */
export function CardHeader({ id, title, description, icon, action, level = 2 }: { id?: string; title: ReactNode; description?: ReactNode; icon?: ReactNode; action?: ReactNode; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="flex items-start justify-between gap-3 border-b border-line-soft px-5 py-4">
      <div className="flex min-w-0 items-start gap-3">
        {icon && (
          <span aria-hidden="true" className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent-subtle text-accent-fg [&_svg]:size-4">
            {icon}
          </span>
        )}
        <div className="min-w-0">
          <Heading id={id} className="font-semibold text-fg">
            {title}
          </Heading>
          {description && <p className="mt-0.5 text-sm text-fg-muted">{description}</p>}
        </div>
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}

export function CardBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('px-5 py-4', className)}>{children}</div>;
}
