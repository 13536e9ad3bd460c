import { Link, useLocation } from 'react-router';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-md px-4 py-20 text-center sm:px-6">
      <title>Page not found · Betty</title>
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
      <p className="mt-3 text-zinc-600">
        There is no page at <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-sm text-zinc-800">{pathname}</code>.
      </p>
      <Link
        to="/"
        className="mt-8 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
      >
        Go to the start page
      </Link>
    </div>
  );
}
