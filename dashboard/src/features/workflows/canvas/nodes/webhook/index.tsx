import { Webhook } from 'lucide-react';

import { Field, Textarea } from '../../../../../components/ui/input';
import { Select } from '../../../../../components/ui/select';
import { METHODS, str, type Data, type Json } from '../../../graph';
import { dataProblems } from '../fieldRules';
import { EmptyNote, LabelField, TextField } from '../parts';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';
import { hostOf, requestSummary, webhookData, type Pairs } from './request';

function WebhookView({ id, data }: NodeViewProps) {
  const url = str(data, 'webhookUrl');
  const method = str(data, 'webhookMethod') || 'POST';
  if (!url) return <EmptyNote id={id} message="No webhook URL yet." action="Add Webhook URL" />;
  return (
    <div className="flex min-h-0 flex-col gap-1">
      <p className="flex min-w-0 items-center gap-2 text-sm">
        <span className="rounded bg-muted px-1.5 py-0.5 text-sm font-semibold text-fg">{method}</span>
        <span className="truncate font-medium text-fg" title={url}>
          {hostOf(url)}
        </span>
      </p>
      <p className="text-sm text-fg-muted">{requestSummary(data)}</p>
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
  color: kindColor('webhook'),
  icon: Webhook,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Webhook', webhookMethod: 'POST', webhookUrl: '', webhookData: { params: {}, headers: {} } }),
  View: WebhookView,
  Edit: WebhookEdit,
  validate,
  addable: true,
};
