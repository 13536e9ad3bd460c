import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useCallback, useState, type FormEvent } from 'react';

import { isApiError } from '../../api/mutator';
import type { ApiKey, AssignableTeamRole, CreatedApiKey, Organization } from '../../api/gen/model';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { copyText } from '../../lib/clipboard';
import { formatDate } from '../../lib/dates';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { ROLE_LABELS, assignableRoles, can } from '../../lib/roles';
import { useActionParam } from '../../lib/useActionParam';
import { useCurrentTeam } from '../team/TeamContext';
import { apiKeysQueryOptions, createApiKeyMutationOptions, deleteApiKeyMutationOptions } from './queries';

/** The rule the server keeps between a key and its maker, said once beside the keys. */
export const KEY_RULE = 'A key never does more than the member who made it: demoting them lowers their keys; removing them revokes their keys unless you keep them.';

export default function ApiKeysPage() {
  const team = useCurrentTeam();
  const permission = can(team.myRole, 'manageApiKeys');
  return (
    <div className="mx-auto max-w-5xl">
      <ApiKeysContent key={team.id} team={team} allowed={permission.allowed} reason={permission.reason} />
    </div>
  );
}

function ApiKeysContent({ team, allowed, reason }: { team: Organization; allowed: boolean; reason: string }) {
  const queryClient = useQueryClient();
  const keys = useQuery({ ...apiKeysQueryOptions(team.id), enabled: allowed });
  const remove = useMutation(deleteApiKeyMutationOptions(queryClient));
  const [createOpen, setCreateOpen] = useState(false);
  const [toDelete, setToDelete] = useState<ApiKey | null>(null);
  const openCreate = useCallback(() => setCreateOpen(true), []);
  useActionParam('create', openCreate, allowed);

  const columns: Column<ApiKey>[] = [
    {
      key: 'name',
      header: 'Name',
      sortValue: (k) => k.name,
      cell: (k) => (
        <div className="min-w-0">
          <span className="font-medium text-fg">{k.name}</span>
          {/* The key and maker columns are hidden on narrow screens; both still show here. */}
          <code className="mt-0.5 block font-mono text-xs text-fg-muted sm:hidden">{k.prefix}…</code>
          <span className="mt-0.5 block text-xs text-fg-subtle sm:hidden">
            <Maker apiKey={k} />
          </span>
        </div>
      ),
    },
    { key: 'prefix', header: 'Key', hideOnMobile: true, cell: (k) => <code className="font-mono text-xs text-fg-soft">{k.prefix}…</code> },
    { key: 'role', header: 'Role', sortValue: (k) => k.role, cell: (k) => ROLE_LABELS[k.role] },
    { key: 'createdBy', header: 'Created by', hideOnMobile: true, sortValue: (k) => (k.createdBy ? (k.createdBy.name ?? k.createdBy.email) : null), cell: (k) => <span className="text-fg-muted"><Maker apiKey={k} /></span> },
    { key: 'lastUsed', header: 'Last used', hideOnMobile: true, sortValue: (k) => k.lastUsedAt, cell: (k) => <span className="text-fg-muted">{k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never'}</span> },
    { key: 'created', header: 'Created', hideOnMobile: true, sortValue: (k) => k.createdAt, cell: (k) => <span className="text-fg-muted">{formatDate(k.createdAt)}</span> },
    {
      key: 'actions',
      header: 'Actions',
      className: 'text-right',
      cell: (k) => (
        <Button variant="ghost" size="sm" className="text-danger-fg" onClick={() => setToDelete(k)} aria-label={`Delete API key ${k.name}`}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      ),
    },
  ];

  let content;
  if (!allowed) content = <RoleNotice>{reason}</RoleNotice>;
  else if (keys.isPending) content = <SkeletonList label="Loading API keys…" columns={3} />;
  else if (keys.isError) content = <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  else if (keys.data.length === 0)
    content = (
      <EmptyState
        icon={<KeyRound />}
        title="No API keys yet"
        action={
          <Button onClick={() => setCreateOpen(true)}>
            <Plus aria-hidden="true" />
            Create API key
          </Button>
        }
      >
        Create a key to let your own code use Betty's API for this team.
      </EmptyState>
    );
  else
    content = (
      <>
        <p className="mb-3 text-sm text-fg-muted">{KEY_RULE}</p>
        <DataTable caption={`API keys of ${team.name}`} columns={columns} rows={keys.data} rowKey={(k) => k.id} pageSize={10} initialSort={[{ column: 'created', direction: 'desc' }]} />
      </>
    );

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let your own code call Betty's API for this team, with the role you choose."
        actions={allowed && keys.data && keys.data.length > 0 ? (
            <Button onClick={() => setCreateOpen(true)}>
              <Plus aria-hidden="true" />
              Create API key
            </Button>
          ) : undefined}
      />
      {content}
      {allowed && <CreateKeyDialog team={team} open={createOpen} onOpenChange={setCreateOpen} />}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={`Delete the key "${toDelete?.name ?? ''}"?`}
        description="Anything still using it stops working at once. This cannot be undone."
        confirmLabel="Delete key"
        busy={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(
            { id: toDelete.id, organizationId: team.id },
            {
              onSuccess: () => {
                toast.success(`The key "${toDelete.name}" was deleted.`);
                setToDelete(null);
              },
              onError: (error) => toast.error(error),
            },
          )
        }
      />
    </>
  );
}

/** Who made a key, and a badge when they have left the team (the key outlived them on purpose). */
function Maker({ apiKey }: { apiKey: ApiKey }) {
  const maker = apiKey.createdBy ? (apiKey.createdBy.name ?? apiKey.createdBy.email) : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span>{maker ?? 'Unknown'}</span>
      {apiKey.createdByStatus === 'removed' && (
        <span title={`${maker ?? 'Its maker'} has left the team; the key was kept when they were removed.`}>
          <Badge tone="warning">Maker left</Badge>
        </span>
      )}
    </span>
  );
}

function CreateKeyDialog({ team, open, onOpenChange }: { team: Organization; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const create = useMutation(createApiKeyMutationOptions(queryClient));
  const roles = assignableRoles(team.myRole).map((r) => ({ value: r as AssignableTeamRole, label: ROLE_LABELS[r] }));
  const [name, setName] = useState('');
  const [role, setRole] = useState<AssignableTeamRole>('developer');
  const [nameError, setNameError] = useState<string | undefined>();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const serverError = isApiError(create.error) ? create.error : undefined;

  function close(next: boolean) {
    if (!next) {
      setName('');
      setRole('developer');
      setCreated(null);
      setCopied(false);
      create.reset();
    }
    onOpenChange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Give the key a name, for example the app that uses it.');
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    }
    setNameError(undefined);
    create.mutate(
      { organizationId: team.id, name: name.trim(), role },
      {
        onSuccess: (key) => setCreated(key),
        onError: (error) => {
          if (!(isApiError(error) && error.errors.length > 0)) toast.error(error);
        },
      },
    );
  }

  async function copy(secret: string) {
    if (await copyText(secret, 'The key is on your clipboard.')) setCopied(true);
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      {created ? (
        <DialogContent title="Copy your new API key" description="This is the only time the full key is shown. Store it somewhere safe now.">
          <label htmlFor="new-api-key" className="block text-sm font-medium text-fg">
            {created.name}
          </label>
          <div className="mt-1.5 flex gap-2">
            <input id="new-api-key" readOnly value={created.key} data-testid="new-api-key" className="min-w-0 flex-1 rounded-md border border-line-strong bg-subtle px-3 py-2 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <Button variant="secondary" onClick={() => void copy(created.key)}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <DialogFooter>
            <Button onClick={() => close(false)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      ) : (
        <DialogContent title="Create an API key" description="The key acts for this team with the role you choose; never above your own.">
          <form onSubmit={submit} className="space-y-4" noValidate>
            <Field label="Name" description="Something to tell keys apart, like the app that uses it." error={nameError ?? serverError?.fieldError('name')}>
              {(ids) => <Input {...ids} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />}
            </Field>
            <Field label="Role" error={serverError?.fieldError('role')}>
              {(ids) => <Select {...ids} value={role} onValueChange={setRole} options={roles} />}
            </Field>
            <DialogFooter>
              <Button variant="secondary" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" busy={create.isPending} busyLabel="Creating…">
                Create key
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
