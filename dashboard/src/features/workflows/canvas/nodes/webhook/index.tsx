import * as RadixTabs from '@radix-ui/react-tabs';

import { Field, Textarea } from '../../../../../components/ui/input';
import { Select } from '../../../../../components/ui/select';
import { METHODS, str, type Data, type Json } from '../../../graph';
import { dataProblems } from '../fieldRules';
import { EmptyNote, LabelField, TextField } from '../parts';
import type { NodeEditProps, NodeKindSpec, NodeViewProps } from '../types';

type Pairs = Record<string, string>;

function webhookData(data: Data): { params: Pairs; headers: Pairs; body: Record<string, Json> | null } {
  const wd = data['webhookData'];
  const obj = wd && typeof wd === 'object' && !Array.isArray(wd) ? (wd as Record<string, Json>) : {};
  const pairs = (x: Json | undefined): Pairs => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Pairs) : {});
  const body = obj['body'];
  return { params: pairs(obj['params']), headers: pairs(obj['headers']), body: body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, Json>) : null };
}

function PairsTable({ pairs, empty }: { pairs: Pairs; empty: string }) {
  const entries = Object.entries(pairs);
  if (entries.length === 0) return <p className="text-xs text-fg-subtle">{empty}</p>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
      {entries.slice(0, 3).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-fg-soft">{k}</dt>
          <dd className="truncate text-fg-muted">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const TAB = 'nodrag rounded px-2 py-0.5 text-xs font-medium text-fg-muted data-[state=active]:bg-muted data-[state=active]:text-fg disabled:cursor-not-allowed disabled:opacity-50';

function WebhookView({ id, data }: NodeViewProps) {
  const url = str(data, 'webhookUrl');
  const method = str(data, 'webhookMethod') || 'POST';
  if (!url) return <EmptyNote id={id} message="No webhook URL yet." action="Add Webhook URL" />;
  const wd = webhookData(data);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <p className="flex items-center gap-2 text-sm">
        <span className="rounded bg-muted px-1.5 py-0.5 text-xs font-semibold text-fg">{method}</span>
        <span className="truncate text-fg-soft">{url}</span>
      </p>
      <RadixTabs.Root defaultValue="params" className="min-h-0 flex-1">
        <RadixTabs.List aria-label="Webhook request (read only)" className="flex gap-1">
          <RadixTabs.Trigger value="params" className={TAB}>
            Params
          </RadixTabs.Trigger>
          <RadixTabs.Trigger value="headers" className={TAB}>
            Header
          </RadixTabs.Trigger>
          <RadixTabs.Trigger value="body" className={TAB} disabled={method === 'GET'} title={method === 'GET' ? 'A GET request has no body' : undefined}>
            Body
          </RadixTabs.Trigger>
        </RadixTabs.List>
        <RadixTabs.Content value="params" className="pt-1.5">
          <PairsTable pairs={wd.params} empty="No query parameters." />
        </RadixTabs.Content>
        <RadixTabs.Content value="headers" className="pt-1.5">
          <PairsTable pairs={wd.headers} empty="No headers." />
        </RadixTabs.Content>
        <RadixTabs.Content value="body" className="pt-1.5">
          {wd.body && Object.keys(wd.body).length > 0 ? <pre className="line-clamp-3 text-xs whitespace-pre-wrap text-fg-muted">{JSON.stringify(wd.body, null, 1)}</pre> : <p className="text-xs text-fg-subtle">No body.</p>}
        </RadixTabs.Content>
      </RadixTabs.Root>
    </div>
  );
}

function linesToPairs(text: string): Pairs {
  const out: Pairs = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf('=');
    if (i <= 0) continue;
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

const pairsToLines = (p: Pairs) =>
  Object.entries(p)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

function validate(data: Data) {
  const out = dataProblems('webhook', data);
  if (!str(data, 'webhookUrl')) out['webhookUrl'] ??= 'A webhook needs an http or https URL.';
  return out;
}

function WebhookEdit({ data, onChange }: NodeEditProps) {
  const errors = validate(data);
  const wd = webhookData(data);
  const method = str(data, 'webhookMethod') || 'POST';
  const setWd = (patch: Partial<ReturnType<typeof webhookData>>) => {
    const next = { ...wd, ...patch };
    const value: Record<string, Json> = { params: next.params, headers: next.headers };
    if (method !== 'GET' && next.body) value['body'] = next.body;
    onChange({ webhookData: value });
  };
  return (
    <div className="space-y-4">
      <LabelField data={data} onChange={onChange} />
      <TextField label="URL" field="webhookUrl" data={data} onChange={onChange} error={errors['webhookUrl']} placeholder="https://example.com/hooks/call" />
      <Field label="Method" error={errors['webhookMethod']}>
        {(ids) => (
          <Select
            {...ids}
            value={method}
            onValueChange={(v) => {
              // A GET has no body: switching to GET drops it rather than sending a graph the server refuses.
              const value: Record<string, Json> = { params: wd.params, headers: wd.headers };
              if (v !== 'GET' && wd.body) value['body'] = wd.body;
              onChange({ webhookMethod: v, webhookData: value });
            }}
            options={METHODS.map((m) => ({ value: m, label: m }))}
          />
        )}
      </Field>
      <Field label="Params" description="One name=value a line.">
        {(ids) => <Textarea {...ids} rows={3} defaultValue={pairsToLines(wd.params)} onChange={(e) => setWd({ params: linesToPairs(e.target.value) })} />}
      </Field>
      <Field label="Headers" description="One name=value a line.">
        {(ids) => <Textarea {...ids} rows={3} defaultValue={pairsToLines(wd.headers)} onChange={(e) => setWd({ headers: linesToPairs(e.target.value) })} />}
      </Field>
      <Field label="Body (JSON object)" description={method === 'GET' ? 'A GET request has no body.' : undefined} error={errors['webhookData.body']}>
        {(ids) => (
          <Textarea
            {...ids}
            rows={4}
            disabled={method === 'GET'}
            defaultValue={wd.body ? JSON.stringify(wd.body, null, 2) : ''}
            onChange={(e) => {
              try {
                const parsed = e.target.value.trim() ? (JSON.parse(e.target.value) as unknown) : null;
                if (parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed))) setWd({ body: parsed as Record<string, Json> | null });
              } catch {
                // keep the last valid body while the text is being typed
              }
            }}
          />
        )}
      </Field>
    </div>
  );
}

export const webhookNode: NodeKindSpec = {
  kind: 'webhook',
  label: 'Webhook',
  hint: 'Calls your HTTP endpoint during the call.',
  color: '#0d9488',
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Webhook', webhookMethod: 'POST', webhookUrl: '', webhookData: { params: {}, headers: {} } }),
  View: WebhookView,
  Edit: WebhookEdit,
  validate,
  addable: true,
};
