import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Search, SearchX } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';

import type { SubscriptionTier, UserOrganizations, VerificationLevel } from '../../api/gen/model';
import { PageHeader } from '../../components/ui/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { Pagination } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { LEVEL_NAMES, TIER_NAMES } from '../../lib/plans';
import { ROLE_LABELS } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { useTeamContext } from '../team/TeamContext';
import { GrantCreditsDialog } from './GrantCreditsDialog';
import { OutgoingMail } from './OutgoingMail';
import { adminSearchQueryOptions, updateLevelMutationOptions, updateTierMutationOptions } from './queries';

const LEVEL_OPTIONS = (Object.keys(LEVEL_NAMES) as VerificationLevel[]).map((value) => ({ value, label: LEVEL_NAMES[value] }));
const TIER_OPTIONS = (Object.keys(TIER_NAMES) as SubscriptionTier[]).map((value) => ({ value, label: TIER_NAMES[value] }));

export default function AdminPage() {
  const { user } = useTeamContext();
  if (!user.isSiteAdmin) return <Navigate to="/dashboard" replace />;
  return <AdminContent />;
}

function AdminContent() {
  const [params, setParams] = useSearchParams();
  const email = params.get('email') ?? '';
  const [draft, setDraft] = useState(email);
  const search = usePagedList((page) => adminSearchQueryOptions(email, page));
  const results = search.query;
  const usersHeading = 'users-and-teams';
  const mailHeading = 'outgoing-mail';

  function submit(event: FormEvent) {
    event.preventDefault();
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (draft.trim()) updated.set('email', draft.trim());
      else updated.delete('email');
      updated.delete('page');
      return updated;
    });
  }

  let content;
  if (results.isPending) content = <SkeletonList label="Searching…" rows={3} />;
  else if (results.isError) content = <ErrorState error={results.error} onRetry={() => void results.refetch()} />;
  else if (results.data.data.length === 0) content = <EmptyState icon={<SearchX />} title="No users found">Try another part of the e-mail address.</EmptyState>;
  else
    content = (
      <>
        <ul className={results.isPlaceholderData ? 'space-y-4 opacity-60' : 'space-y-4'} aria-busy={results.isPlaceholderData}>
          {results.data.data.map((entry) => (
            <UserCard key={entry.user.id} entry={entry} />
          ))}
        </ul>
        {results.data.meta.totalPages > 1 && <Pagination info={results.data.meta} onPageChange={search.setPage} />}
      </>
    );

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Site admin" description="Find users and their teams by e-mail, grant a team credits, change its verification level and tier, and read the mail the server wrote." />
      <nav aria-label="On this page" className="-mt-3 mb-6 flex flex-wrap gap-3 text-sm">
        <a href={`#${usersHeading}`} className="font-medium text-accent-fg hover:underline">
          Users and teams
        </a>
        <a href={`#${mailHeading}`} className="font-medium text-accent-fg hover:underline">
          Outgoing mail
        </a>
      </nav>
      <section aria-labelledby={usersHeading}>
      <h2 id={usersHeading} className="mb-3 text-lg font-semibold text-fg">
        Users and teams
      </h2>
      <form onSubmit={submit} role="search" className="mb-6 flex gap-2">
        <label htmlFor="admin-search" className="sr-only">
          E-mail address
        </label>
        <Input id="admin-search" type="search" placeholder="Search by e-mail" value={draft} onChange={(e) => setDraft(e.target.value)} className="max-w-sm" />
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>
      {content}
      </section>
      <OutgoingMail headingId={mailHeading} />
    </div>
  );
}

function UserCard({ entry }: { entry: UserOrganizations }) {
  const queryClient = useQueryClient();
  const level = useMutation(updateLevelMutationOptions(queryClient));
  const tier = useMutation(updateTierMutationOptions(queryClient));
  return (
    <li className="rounded-xl border border-line bg-surface p-4">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-medium text-fg">{entry.user.name ?? entry.user.email}</p>
        <p className="text-sm text-fg-subtle">{entry.user.email}</p>
        {entry.isSiteAdmin && <Badge tone="info">Site admin</Badge>}
        {entry.isInternal && <Badge>Internal</Badge>}
      </div>
      {entry.organizations.length === 0 ? (
        <p className="mt-2 text-sm text-fg-muted">In no team.</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="min-w-full text-sm">
            <caption className="sr-only">Teams of {entry.user.email}</caption>
            <thead>
              <tr className="text-left text-xs text-fg-subtle uppercase">
                <th scope="col" className="py-1 pr-3">Team</th>
                <th scope="col" className="py-1 pr-3">Role</th>
                <th scope="col" className="py-1 pr-3">Verification</th>
                <th scope="col" className="py-1 pr-3">Tier</th>
                <th scope="col" className="py-1">Credits</th>
              </tr>
            </thead>
            <tbody>
              {entry.organizations.map((org) => (
                <tr key={org.organizationId} className="border-t border-line-soft">
                  <td className="py-2 pr-3">
                    <span className="font-medium text-fg">{org.name}</span>
                    {org.companyName && <span className="block text-xs text-fg-subtle">{org.companyName}</span>}
                  </td>
                  <td className="py-2 pr-3">{ROLE_LABELS[org.role]}</td>
                  <td className="py-2 pr-3">
                    <Select<VerificationLevel>
                      size="sm"
                      className="w-36"
                      aria-label={`Verification level of ${org.name}`}
                      value={org.verificationLevel}
                      options={LEVEL_OPTIONS}
                      onValueChange={(value) =>
                        level.mutate({ organizationId: org.organizationId, verificationLevel: value }, { onSuccess: () => toast.success(`${org.name} is now ${LEVEL_NAMES[value]}.`), onError: (e) => toast.error(e) })
                      }
                    />
                  </td>
                  <td className="py-2 pr-3">
                    <Select<SubscriptionTier>
                      size="sm"
                      className="w-40"
                      aria-label={`Tier of ${org.name}`}
                      value={org.subscriptionTier}
                      options={TIER_OPTIONS}
                      onValueChange={(value) =>
                        tier.mutate({ organizationId: org.organizationId, subscriptionTier: value }, { onSuccess: () => toast.success(`${org.name} is now on ${TIER_NAMES[value]}.`), onError: (e) => toast.error(e) })
                      }
                    />
                  </td>
                  <td className="py-2">
                    <GrantCreditsDialog organizationId={org.organizationId} name={org.name} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}
