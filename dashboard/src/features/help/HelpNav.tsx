import { NavLink } from 'react-router';

import { cn } from '../../lib/cn';
import { GUIDES, HELP_SECTIONS, guidePreview } from './guides';

/** The help entries by section; used by the help sidebar and the docs pages. */
export function HelpNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Help">
      {HELP_SECTIONS.map((section) => (
        <div key={section} className="mb-5">
          <h2 className="px-2 text-xs font-semibold tracking-wider text-fg-subtle">{section}</h2>
          <ul className="mt-1.5 space-y-0.5">
            {GUIDES.filter((g) => g.section === section).map((guide) => (
              <li key={guide.slug}>
                <NavLink
                  to={`/docs/${guide.slug}`}
                  {...(onNavigate ? { onClick: onNavigate } : {})}
                  className={({ isActive }) =>
                    cn('block rounded-md px-2 py-1.5 text-sm', guide.child && 'ml-3 border-l border-line pl-3', isActive ? 'bg-accent-subtle font-medium text-accent-fg' : 'text-fg-soft hover:bg-muted')
                  }
                >
                  {guide.title}
                  {guidePreview(guide) && <span className="ml-1.5 text-xs font-normal text-fg-subtle">(soon)</span>}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
