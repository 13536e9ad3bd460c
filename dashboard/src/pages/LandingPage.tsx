import { Link } from 'react-router';

import { ServerStatusCard } from '../features/system/ServerStatusCard';

const FEATURES = [
  {
    title: 'Call flows you can see',
    body: 'Draw what your agent says and does on a canvas: greetings, questions, transfers, bookings and follow-ups.',
  },
  {
    title: 'Inbound and outbound campaigns',
    body: 'Answer your numbers around the clock, or dial a contact list at the pace and hours you choose.',
  },
  {
    title: 'Agents that know your business',
    body: 'Give each agent a voice, a persona and knowledge bases built from your own documents and FAQs.',
  },
  {
    title: 'Every call on record',
    body: 'Transcripts, recordings and outcomes land in a shared team inbox, and flow on to your CRM.',
  },
] as const;

export default function LandingPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-20">
      <title>Betty · AI voice agents for phone calls</title>
      <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Self-hosted voice AI</p>
          <h1 className="mt-3 text-4xl font-semibold tracking-tight text-zinc-900 sm:text-5xl">
            AI voice agents for your team&apos;s phone calls
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-zinc-600">
            Betty runs AI agents that answer and place phone calls for your team. Design the conversation, point it at
            your numbers and contacts, and review every call afterwards, all on a server you run yourself.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/sign-up"
              className="rounded-md bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
            >
              Create an account
            </Link>
            <Link
              to="/sign-in"
              className="rounded-md border border-zinc-300 bg-white px-4 py-2.5 text-sm font-semibold text-zinc-800 shadow-sm hover:bg-zinc-50"
            >
              Sign in
            </Link>
          </div>
        </div>

        <aside aria-label="Server">
          <ServerStatusCard />
        </aside>
      </div>

      <section aria-labelledby="features-heading" className="mt-16 lg:mt-24">
        <h2 id="features-heading" className="text-lg font-semibold text-zinc-900">
          What your team gets
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-xl border border-zinc-200 bg-white p-5">
              <h3 className="font-medium text-zinc-900">{feature.title}</h3>
              <p className="mt-2 text-sm text-zinc-600">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
