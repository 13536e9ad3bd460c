import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserPlus, Users } from 'lucide-react';
import { useCallback, useState, type FormEvent } from 'react';

import { isApiError } from '../../api/mutator';
import type { AssignableTeamRole, Organization, TeamMember } from '../../api/gen/model';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { Field, Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { Tabs, TabsContent, TabsList } from '../../components/ui/tabs';
import { toast } from '../../components/ui/toast-store';
import { NO_DATE, formatDate } from '../../lib/dates';
import { emailError } from '../../lib/email';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLE_RANK, assignableRoles, can } from '../../lib/roles';
import { useActionParam } from '../../lib/useActionParam';
import { usePagedList } from '../../lib/usePagedList';
import { OutboxExplanation, mailWords, useMailDelivery } from '../system/mail';
import { useCurrentTeam, useTeamContext } from '../team/TeamContext';
import { changeRoleMutationOptions, inviteMemberMutationOptions, membersQueryOptions, transferOwnershipMutationOptions } from './queries';
import { RemoveMemberDialog } from './RemoveMemberDialog';

type ActionKind = 'remove' | 'leave' | 'transfer' | 'resend';
type PendingAction = { kind: ActionKind; member: TeamMember } | null;

export default function MembersPage() {
  const team = useCurrentTeam();
  const { user } = useTeamContext();
  const queryClient = useQueryClient();
  const list = usePagedList((page) => membersQueryOptions(team.id, page));
  const members = list.query;
  const words = mailWords(useMailDelivery());
  const changeRole = useMutation(changeRoleMutationOptions(queryClient));
  const transfer = useMutation(transferOwnershipMutationOptions());
  const resend = useMutation(inviteMemberMutationOptions(queryClient));

  function act(action: PendingAction) {
    if (action?.kind !== 'resend') return setPending(action);
    const { member } = action;
    resend.mutate(
      { email: member.email, organizationId: team.id, role: member.role === 'owner' ? 'admin' : member.role },
      { onSuccess: () => toast.success(words.reinvited(member.email)), onError: (e) => toast.error(e) },
    );
  }
  const [inviteOpen, setInviteOpen] = useState(false);
  const [pending, setPending] = useState<PendingAction>(null);
  const openInvite = useCallback(() => setInviteOpen(true), []);

  const manage = can(team.myRole, 'manageMembers');
  useActionParam('invite', openInvite, manage.allowed);

  const columns: Column<TeamMember>[] = [
    {
      key: 'name',
      header: 'Member',
      sortValue: (m) => m.name ?? m.email,
      cell: (m) => (
        <div className="min-w-0">
          <p className="truncate font-medium text-fg">
            {m.name ?? m.email}
            {m.email === user.email && <span className="ml-1.5 text-xs font-normal text-fg-subtle">(you)</span>}
          </p>
          {m.name && <p className="truncate text-xs text-fg-subtle">{m.email}</p>}
          {/* The status column is hidden on narrow screens; an unusual status still shows here. */}
          {m.status !== 'active' && <span className="mt-1 inline-block sm:hidden"><MemberStatusBadge status={m.status} /></span>}
        </div>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      sortValue: (m) => -ROLE_RANK[m.role],
      cell: (m) => <RoleCell team={team} member={m} userEmail={user.email} onChange={(role) => changeRole.mutate({ organizationId: team.id, email: m.email, role }, { onSuccess: () => toast.success(`${m.name ?? m.email} is now ${ROLE_LABELS[role]}.`), onError: (e) => toast.error(e) })} />,
    },
    {
      key: 'status',
      header: 'Status',
      hideOnMobile: true,
      sortValue: (m) => m.status,
      cell: (m) => <MemberStatusBadge status={m.status} />,
    },
    {
      key: 'joined',
      header: 'Joined',
      hideOnMobile: true,
      sortValue: (m) => (m.status === 'active' ? m.joinedAt : m.status === 'invited' ? m.invitedAt : null),
      cell: (m) => <span className="text-fg-muted">{joinedLabel(m)}</span>,
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-0 text-right',
      cell: (m) => <MemberActions team={team} member={m} userEmail={user.email} onAction={act} />,
    },
  ];

  let content;
  if (members.isPending) content = <SkeletonList label="Loading members…" columns={3} />;
  else if (members.isError) content = <ErrorState error={members.error} onRetry={() => void members.refetch()} />;
  else if (members.data.data.length === 0) content = <EmptyState icon={<Users />} title="No members yet" />;
  else
    content = (
      <DataTable caption={`Members of ${team.name}`} columns={columns} rows={members.data.data} rowKey={(m) => m.id} sortMode="multi" pageInfo={members.data.meta} onPageChange={list.setPage} />
    );

  const target = pending?.member;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Members"
        description={`People in ${team.name} and what each may do.`}
        actions={manage.allowed ? <Button onClick={() => setInviteOpen(true)}>
              <UserPlus aria-hidden="true" />
              Invite member
            </Button> : undefined}
      />
      <Tabs defaultValue="members">
        <TabsList
          label="Members views"
          tabs={[
            { value: 'members', label: 'Members' },
            { value: 'roles', label: 'Roles and permissions' },
          ]}
        />
        <TabsContent value="members" className="pt-4 focus:outline-none">
          {!manage.allowed && <div className="mb-4"><RoleNotice>{manage.reason}</RoleNotice></div>}
          {content}
        </TabsContent>
        <TabsContent value="roles" className="pt-4 focus:outline-none">
          <RolesTable />
        </TabsContent>
      </Tabs>
      <InviteDialog team={team} open={inviteOpen} onOpenChange={setInviteOpen} />
      {(pending?.kind === 'remove' || pending?.kind === 'leave') && (
        <RemoveMemberDialog
          key={pending.member.id}
          team={team}
          member={pending.member}
          leaving={pending.kind === 'leave'}
          onClose={() => setPending(null)}
          onRemoved={() => list.afterDelete()}
        />
      )}
      <ConfirmDialog
        open={pending?.kind === 'transfer'}
        onOpenChange={(open) => !open && setPending(null)}
        title={`Make ${target?.name ?? target?.email ?? ''} the owner?`}
        description={
          words.mode === 'smtp' ? (
            <>
              We e-mail <strong>{target?.email}</strong> a link. Ownership moves when they open it and confirm; until then you stay the owner.
            </>
          ) : (
            <>
              <p>
                Betty makes a link for <strong>{target?.email}</strong>. Ownership moves when they open it and confirm; until then you stay the owner.
              </p>
              {words.mode === 'outbox' && (
                <p className="mt-2">
                  <OutboxExplanation will /> Pass the link on to them yourself.
                </p>
              )}
            </>
          )
        }
        confirmLabel="Send transfer link"
        destructive={false}
        busy={transfer.isPending}
        onConfirm={() =>
          target &&
          transfer.mutate(
            { organizationId: team.id, newOwnerEmail: target.email },
            {
              onSuccess: () => {
                toast.success(words.transferSent(target.email));
                setPending(null);
              },
              onError: (error) => toast.error(error),
            },
          )
        }
      />
    </div>
  );
}

const ROLE_ORDER = ['owner', 'admin', 'developer', 'member', 'readonly'] as const;

function RolesTable() {
  return (
    <div className="overflow-hidden rounded-xl border border-line bg-surface">
      <dl className="divide-y divide-line-soft">
        {ROLE_ORDER.map((role) => (
          <div key={role} className="grid gap-1 px-4 py-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
            <dt className="font-medium text-fg">{ROLE_LABELS[role]}</dt>
            <dd className="text-sm text-fg-muted">{ROLE_DESCRIPTIONS[role]}</dd>
          </div>
        ))}
      </dl>
      <p className="border-t border-line-soft px-4 py-3 text-xs text-fg-subtle">
        Each role can do everything the roles below it can. Anyone may leave a team; the owner transfers ownership first.
      </p>
    </div>
  );
}

function MemberStatusBadge({ status }: { status: TeamMember['status'] }) {
  if (status === 'invited') return <Badge tone="warning">Invited</Badge>;
  if (status === 'active') return <Badge tone="success">Active</Badge>;
  return <Badge tone="declined">Removed</Badge>;
}

function RoleCell({ team, member, userEmail, onChange }: { team: Organization; member: TeamMember; userEmail: string; onChange: (role: AssignableTeamRole) => void }) {
  const manage = can(team.myRole, 'manageMembers');
  const label = ROLE_LABELS[member.role];
  if (member.role === 'owner') return <span title="The owner's role cannot be changed; transfer ownership instead.">{label}</span>;
  if (!manage.allowed || member.status === 'removed' || member.email === userEmail) {
    return <span title={member.email === userEmail ? 'You cannot change your own role.' : manage.reason}>{label}</span>;
  }
  const options = assignableRoles(team.myRole).map((r) => ({ value: r as AssignableTeamRole, label: ROLE_LABELS[r] }));
  return (
    <Select<AssignableTeamRole>
      size="sm"
      className="w-28 sm:w-32"
      aria-label={`Role of ${member.name ?? member.email}`}
      value={member.role as AssignableTeamRole}
      options={options}
      onValueChange={(role) => role !== member.role && onChange(role)}
    />
  );
}

function MemberActions({ team, member, userEmail, onAction }: { team: Organization; member: TeamMember; userEmail: string; onAction: (action: PendingAction) => void }) {
  const self = member.email === userEmail;
  const manage = can(team.myRole, 'manageMembers').allowed;
  const isOwner = team.myRole === 'owner';
  const items: { label: string; kind: ActionKind; danger?: boolean }[] = [];
  if (manage && !self && member.status === 'invited') items.push({ label: 'Resend invitation', kind: 'resend' });
  if (member.role !== 'owner' && member.status !== 'removed') {
    if (self) items.push({ label: 'Leave team', kind: 'leave', danger: true });
    else if (manage) items.push({ label: member.status === 'invited' ? 'Cancel invitation' : 'Remove from team', kind: 'remove', danger: true });
    if (isOwner && !self && member.status === 'active') items.push({ label: 'Transfer ownership', kind: 'transfer' });
  }
  if (items.length === 0) return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="rounded-md px-2 py-1 text-sm font-medium text-fg-muted hover:bg-muted" aria-label={`Actions for ${member.name ?? member.email}`}>
        •••
      </DropdownMenuTrigger>
      <DropdownMenuContent label={`Actions for ${member.email}`}>
        {items.map((item) => (
          <DropdownMenuItem key={item.kind} danger={item.danger ?? false} onSelect={() => onAction({ kind: item.kind, member })}>
            {item.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function InviteDialog({ team, open, onOpenChange }: { team: Organization; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const invite = useMutation(inviteMemberMutationOptions(queryClient));
  const words = mailWords(useMailDelivery());
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableTeamRole>('member');
  const [badEmail, setBadEmail] = useState<string | undefined>();
  const serverError = isApiError(invite.error) ? invite.error : undefined;
  const roles = assignableRoles(team.myRole).map((r) => ({ value: r as AssignableTeamRole, label: ROLE_LABELS[r] }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = emailError(email);
    setBadEmail(problem);
    if (problem) return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    invite.mutate(
      { email: email.trim(), organizationId: team.id, role },
      {
        onSuccess: () => {
          toast.success(words.invited(email.trim()));
          setEmail('');
          setRole('member');
          invite.reset();
          onOpenChange(false);
        },
        onError: (error) => {
          if (!(isApiError(error) && error.errors.length > 0)) toast.error(error);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Invite a member"
        description={
          words.mode === 'smtp'
            ? `They get an e-mail with a link to join ${team.name}, with or without an account.`
            : `Betty makes a link to join ${team.name} that works with or without an account.`
        }
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          {words.mode === 'outbox' && (
            <p className="rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg">
              <OutboxExplanation will /> Pass it on to them yourself.
            </p>
          )}
          <Field label="E-mail" error={badEmail ?? serverError?.fieldError('email')}>
            {(ids) => <Input {...ids} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />}
          </Field>
          <Field label="Role" error={serverError?.fieldError('role')}>
            {(ids) => <Select {...ids} value={role} onValueChange={setRole} options={roles} />}
          </Field>
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" busy={invite.isPending} busyLabel={words.mode === 'smtp' ? 'Sending…' : 'Creating…'}>
              {words.mode === 'smtp' ? 'Send invitation' : 'Create invitation'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** When an active member joined; "Invited <date>" for someone who has not joined yet. */
function joinedLabel(member: TeamMember): string {
  if (member.status === 'active') return formatDate(member.joinedAt);
  if (member.status === 'invited' && member.invitedAt) return `Invited ${formatDate(member.invitedAt)}`;
  return NO_DATE;
}
