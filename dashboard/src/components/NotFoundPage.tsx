import { Link, useLocation } from 'react-router';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-md px-4 py-20 text-center sm:px-6">
      <title>Page not found · Betty</title>
      <p className="text-sm font-semibold text-accent-fg">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-fg">Page not found</h1>
      <p className="mt-3 text-fg-muted">
        There is no page at <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm text-fg">{pathname}</code>.
      </p>
      <Link
        to="/"
        className="mt-8 inline-block rounded-md bg-accent px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-accent-hover"
      >
        Go to the start page
      </Link>
    </div>
  );
}
