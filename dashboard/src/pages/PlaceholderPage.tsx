import { Link } from 'react-router';

interface PlaceholderPageProps {
  title: string;
  description: string;
}

/** Stands in for a screen that is not built yet, so links to it never dead-end. */
export default function PlaceholderPage({ title, description }: PlaceholderPageProps) {
  return (
    <div className="mx-auto max-w-md px-4 py-20 text-center sm:px-6">
      <title>{`${title} · Betty`}</title>
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      <p className="mt-3 text-zinc-600">{description}</p>
      <Link to="/" className="mt-8 inline-block rounded-md text-sm font-semibold text-brand-700 hover:text-brand-800">
        Back to the start page
      </Link>
    </div>
  );
}
