// The Contacts node fed by HubSpot (the node's contacts from a connected portal, refreshed every
// 10 s; a search picks more) or by Zapier (contacts arrive from zaps). Queries run only while a
// node with that source is on the canvas, so a canvas without one pays nothing.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { isApiError } from '../../../../../api/mutator';
import { setWorkflowContacts } from '../../../../../api/gen/workflows/workflows';
import type { ConnectedApp, Contact } from '../../../../../api/gen/model';
import { Button, buttonClasses } from '../../../../../components/ui/button';
import { Field, Input } from '../../../../../components/ui/input';
import { Select } from '../../../../../components/ui/select';
import { toast } from '../../../../../components/ui/toast-store';
import { count } from '../../../../../lib/plural';
import { useDebouncedValue } from '../../../../../lib/useDebouncedValue';
import { connectedAppsQueryOptions, connectedHubspotApps, hubspotContactsQueryOptions, hubspotSearchQueryOptions, invalidateHubspotContacts, pickHubspotContactsMutationOptions } from '../../../../apps/queries';
import { teamPath, useCurrentTeam } from '../../../../team/TeamContext';
import { str, type Data } from '../../../graph';
import { useCanvas } from '../../context';
import { ContactStatus } from './ContactStatus';
import { ContactsPager } from './Pager';

const SEARCH_DEBOUNCE_MS = 500;

function fullName(c: Contact): string {
  return [c.firstName, c.lastName].filter(Boolean).join(' ') || 'N/A';
}

/** The HubSpot app a node reads: the one stored on it, else the team's only connected portal. */
function useNodeHubspotApp(data: Data): { appId: string; apps: ConnectedApp[]; loading: boolean } {
  const team = useCurrentTeam();
  const apps = useQuery(connectedAppsQueryOptions(team.id));
  const hubspot = connectedHubspotApps(apps.data);
  const stored = str(data, 'connectedAppId');
  const appId = stored || (hubspot.length === 1 ? hubspot[0]!.id : '');
  return { appId, apps: hubspot, loading: apps.isPending };
}

/** Why a HubSpot read failed, in words for the card. */
function hubspotProblem(error: unknown): string {
  if (isApiError(error) && error.status === 422) return 'This HubSpot connection is disconnected. Reconnect it on the Connected apps page.';
  if (isApiError(error) && error.status === 503) return 'HubSpot could not be reached; retrying every 10 seconds.';
  return 'The contacts could not be loaded; retrying every 10 seconds.';
}

export function HubspotTable({ id, data }: { id: string; data: Data }) {
  const team = useCurrentTeam();
  const canvas = useCanvas();
  const [page, setPage] = useState(1);
  const { appId, loading } = useNodeHubspotApp(data);
  const contacts = useQuery({ ...hubspotContactsQueryOptions(team.id, appId, { nodeId: id, workflowId: canvas.workflowId }, page), enabled: appId !== '', retry: false, placeholderData: keepPreviousData });
  const rows = contacts.data?.data ?? [];
  const meta = contacts.data?.meta;
  const source = contacts.data?.source;
  const listId = source?.listId ?? (str(data, 'listId') || null);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2" data-testid="hubspot-contacts">
      <div className="flex items-center justify-between gap-2">
        <p className="truncate text-sm text-fg-muted">
          {listId ? `HubSpot list ${listId}` : 'HubSpot contacts'}
          {meta && ` · ${count(meta.totalSize, 'contact')}`}
        </p>
        {source?.status === 'parsing' ? <span className="text-sm text-fg-subtle">Reading the list...</span> : contacts.isFetching && <span className="text-sm text-fg-subtle">Syncing...</span>}
      </div>
      {source?.status === 'error' && source.error && (
        <p role="alert" className="text-sm text-danger-fg">
          {source.error}
        </p>
      )}
      <div className="nowheel min-h-0 flex-1 overflow-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-fg-subtle">
            <tr>
              <th className="py-1 font-medium">Status</th>
              <th className="py-1 font-medium">Name</th>
              <th className="py-1 font-medium">Phone Number</th>
              <th className="py-1 font-medium">Email</th>
              <th className="py-1 font-medium">Lead/Life Cycle Stage</th>
            </tr>
          </thead>
          <tbody className="text-fg-soft">
            {rows.map((r) => (
              <tr key={r.id} className="border-t border-line">
                <td className="py-1">
                  <ContactStatus status={r.betty_metadata.status} />
                </td>
                <td className="py-1">{fullName(r)}</td>
                <td className="py-1 tabular-nums">{r.phone}</td>
                <td className="py-1">{r.email ?? 'N/A'}</td>
                <td className="py-1">{r.lifecycleStage ?? 'N/A'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && !contacts.isPending && (
          <div className="mt-4 flex flex-col items-center gap-2 text-center">
            <p className="text-sm text-fg-muted">No Records Found</p>
            {contacts.isError ? (
              <p className="text-sm text-fg-subtle">{hubspotProblem(contacts.error)}</p>
            ) : appId === '' && !loading ? (
              <p className="text-sm text-fg-subtle">Choose a connected HubSpot portal for this node.</p>
            ) : listId ? (
              <p className="text-sm text-fg-subtle">{source?.status === 'parsing' ? 'The list is being read from HubSpot.' : 'The list has no members yet; people added to it in HubSpot appear here within a minute.'}</p>
            ) : (
              !canvas.readOnly && <p className="text-sm text-fg-subtle">Open the node and search HubSpot to pick the contacts to call.</p>
            )}
            {!canvas.readOnly && !listId && (
              <Button variant="secondary" className="nodrag" onClick={() => canvas.edit(id)}>
                Search contacts
              </Button>
            )}
          </div>
        )}
      </div>
      {meta && meta.totalPages > 1 && <ContactsPager meta={meta} page={page} setPage={setPage} />}
    </div>
  );
}

export function ZapierNote() {
  const team = useCurrentTeam();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-2 text-center">
      <p className="text-sm text-fg-muted">Contacts data will come from Zapier</p>
      <Link to={teamPath('/dashboard/zapier', team.id)} className={buttonClasses('secondary', 'sm', 'nodrag')}>
        Configure Zapier
      </Link>
      <p className="text-sm text-fg-subtle">A zap with Betty&apos;s Add contacts action sends contacts here, with this workflow&apos;s and this node&apos;s ids.</p>
    </div>
  );
}

type SourceChoice = { source: 'hubspot' | 'zapier'; connectedAppId?: string; listId?: string };

function setSourceMessage(p: SourceChoice): string {
  if (p.source === 'zapier') return 'This node now takes its contacts from Zapier.';
  if (p.listId) return `This node now calls the members of HubSpot list ${p.listId}; they are being read.`;
  return 'This node now calls HubSpot contacts. Search HubSpot to pick them.';
}

/** Sets the node's source on the server (a save cannot), then mirrors it into the node's data. */
function useSetSource(nodeId: string, onDone: (p: SourceChoice) => void) {
  const canvas = useCanvas();
  const team = useCurrentTeam();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: SourceChoice) =>
      setWorkflowContacts({ nodeId, workflowId: canvas.workflowId, organizationId: team.id, source: p.source, ...(p.connectedAppId ? { connectedAppId: p.connectedAppId } : {}), ...(p.listId ? { listId: p.listId } : {}) }),
    onSuccess: async (_r, p) => {
      canvas.patchData(nodeId, { contactsSource: p.source, ...(p.connectedAppId ? { connectedAppId: p.connectedAppId } : {}), listId: p.listId ?? '' });
      onDone(p);
      await invalidateHubspotContacts(queryClient);
      toast.success(setSourceMessage(p), 'Contact source set');
    },
    onError: (e) => toast.error(e),
  });
}

function HubspotSearch({ nodeId, appId }: { nodeId: string; appId: string }) {
  const team = useCurrentTeam();
  const canvas = useCanvas();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const match = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const results = useQuery({ ...hubspotSearchQueryOptions(team.id, appId, match), enabled: match.trim() !== '', retry: false });
  const pick = useMutation(pickHubspotContactsMutationOptions(queryClient));
  const found = results.data?.data ?? [];
  return (
    <div className="space-y-2">
      <Field label="Search HubSpot" description="Name, e-mail or phone number. Picked contacts are added to this node; picking one twice adds it once.">
        {(ids) => (
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-fg-subtle" />
            <Input {...ids} type="search" className="pl-8" maxLength={200} value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="e.g. lovelace" />
          </div>
        )}
      </Field>
      {results.isFetching && <p className="text-xs text-fg-subtle">Searching HubSpot…</p>}
      {results.isError && <p className="text-xs text-danger-fg">{hubspotProblem(results.error)}</p>}
      {match.trim() !== '' && results.isSuccess && (
        <div className="space-y-2">
          {found.length === 0 ? (
            <p className="text-xs text-fg-muted">No HubSpot contact matches.</p>
          ) : (
            <ul aria-label="HubSpot matches" className="max-h-48 divide-y divide-line overflow-auto rounded-md border border-line text-xs">
              {found.map((c) => (
                <li key={c.id} className="flex justify-between gap-2 px-2 py-1.5">
                  <span className="truncate">{fullName(c)}</span>
                  <span className="shrink-0 text-fg-muted tabular-nums">{c.phone}</span>
                </li>
              ))}
            </ul>
          )}
          {found.length > 0 && (
            <Button
              size="sm"
              busy={pick.isPending}
              disabled={canvas.readOnly}
              onClick={() =>
                pick.mutate(
                  { organizationId: team.id, connectedAppId: appId, match, nodeId, workflowId: canvas.workflowId },
                  {
                    onSuccess: (r) => toast.success(`${r.data.length === 1 ? '1 contact is' : `${r.data.length} contacts are`} on this node now.`, 'Contacts picked'),
                    onError: (e) => toast.error(e),
                  },
                )
              }
            >
              Add {found.length === 1 ? 'this contact' : `these ${found.length} contacts`}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** The edit panel's part for the HubSpot and Zapier sources: which portal, the search, or Zapier's note. */
export function IntegrationSourceEdit({ nodeId, data, source, onChange }: { nodeId: string; data: Data; source: 'hubspot' | 'zapier'; onChange: (patch: Data) => void }) {
  const team = useCurrentTeam();
  // The panel edits a draft of the node; the source set on the server is remembered here too.
  const [setTo, setSetTo] = useState<{ source: string; appId: string; listId: string } | null>(null);
  const setSource = useSetSource(nodeId, (p) => {
    setSetTo({ source, appId: p.connectedAppId ?? '', listId: p.listId ?? '' });
    setChosenApp(undefined);
    // The panel's draft follows, so Apply keeps what the server stored.
    onChange({ contactsSource: source, ...(p.connectedAppId ? { connectedAppId: p.connectedAppId } : {}), listId: p.listId ?? '' });
  });
  const node = useNodeHubspotApp(data);
  const { apps, loading } = node;
  const appId = setTo?.source === 'hubspot' && setTo.appId ? setTo.appId : node.appId;
  const [chosenApp, setChosenApp] = useState<string | undefined>(undefined);
  const stored = setTo?.source ?? str(data, 'contactsSource');
  const saved = stored === source && (source === 'zapier' || appId !== '');
  const storedList = setTo ? setTo.listId : str(data, 'listId');
  const [typedList, setTypedList] = useState<string | undefined>(undefined);
  const list = (typedList ?? storedList).trim();
  if (source === 'zapier')
    return (
      <div className="space-y-2 text-xs text-fg-subtle">
        <p>Contacts arrive from your zaps through Betty&apos;s Add contacts action (with an API key), checked like CSV rows.</p>
        {!saved && (
          <Button size="sm" busy={setSource.isPending} onClick={() => setSource.mutate({ source: 'zapier' })}>
            Take contacts from Zapier
          </Button>
        )}
        <Link to={teamPath('/dashboard/zapier', team.id)} className="block text-accent-fg underline underline-offset-2">
          Configure Zapier
        </Link>
      </div>
    );
  if (loading) return <p className="text-xs text-fg-subtle">Loading connected HubSpot portals…</p>;
  if (apps.length === 0)
    return (
      <p className="text-xs text-fg-subtle">
        No HubSpot portal is connected.{' '}
        <Link to={teamPath('/dashboard/connected-apps', team.id)} className="text-accent-fg underline underline-offset-2">
          Connect HubSpot
        </Link>{' '}
        first (developers, admins and the owner can).
      </p>
    );
  const portal = chosenApp ?? (appId || undefined);
  return (
    <div className="space-y-4">
      <Field label="HubSpot portal">
        {(ids) => <Select {...ids} value={portal} onValueChange={setChosenApp} options={apps.map((a) => ({ value: a.id, label: a.name || a.accountId || a.id }))} placeholder="Choose a connected portal" />}
      </Field>
      <Field label="HubSpot list (optional)" description="The number at the end of the list's address in HubSpot. The node then calls the list's members, kept in step with it; leave it empty to pick contacts with a search.">
        {(ids) => <Input {...ids} inputMode="numeric" maxLength={20} value={typedList ?? storedList} onChange={(e) => setTypedList(e.target.value)} placeholder="e.g. 42" />}
      </Field>
      {(!saved || (chosenApp !== undefined && chosenApp !== appId) || list !== storedList) && (
        <Button
          size="sm"
          disabled={!portal}
          busy={setSource.isPending}
          onClick={() => portal && setSource.mutate({ source: 'hubspot', connectedAppId: portal, ...(list ? { listId: list } : {}) }, { onSuccess: () => setTypedList(undefined) })}
        >
          {list ? 'Call this list' : 'Call contacts from this portal'}
        </Button>
      )}
      {saved && appId && storedList && list === storedList && <p className="text-xs text-fg-subtle">This node calls the members of HubSpot list {storedList}. Members who join are added and those who leave are dropped (unless already called), checked every minute while the canvas is open and every 15 minutes otherwise.</p>}
      {saved && appId && !storedList && <HubspotSearch nodeId={nodeId} appId={appId} />}
    </div>
  );
}
