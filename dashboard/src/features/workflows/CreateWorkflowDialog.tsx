import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import type { WorkflowTemplate, WorkflowType } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { toast } from '../../components/ui/toast-store';
import { cn } from '../../lib/cn';
import { agentsQueryOptions } from '../agents/queries';
import { createCampaignWorkflowMutationOptions, createWorkflowMutationOptions, templatesQueryOptions, TEMPLATES_PAGE_SIZE } from './queries';

/** The agent choice that lets the server use the campaign's active agent. */
const CAMPAIGN_AGENT = 'campaign-agent';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizationId: string;
  /** In a campaign the workflow's type is the campaign's, and its agent defaults to the campaign's. */
  campaign?: { id: string; type: WorkflowType };
  onCreated: (workflowId: string) => void;
}

/** New workflow: blank or from a template (6 a page, by type), asking for the template's placeholders. */
export function CreateWorkflowDialog({ open, onOpenChange, organizationId, campaign, onCreated }: Props) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState<WorkflowType>(campaign?.type ?? 'outbound');
  const [agentId, setAgentId] = useState<string | undefined>(undefined);
  const [templatePage, setTemplatePage] = useState(1);
  const [template, setTemplate] = useState<WorkflowTemplate | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const templates = useQuery({ ...templatesQueryOptions(type, templatePage), enabled: open });
  const agents = useQuery({ ...agentsQueryOptions(organizationId, 1, 100), enabled: open });
  const create = useMutation(createWorkflowMutationOptions(queryClient));
  const createInCampaign = useMutation(createCampaignWorkflowMutationOptions(queryClient));

  // A workflow needs an agent: the first one is chosen for you (in a campaign, its active agent).
  const firstAgent = agents.data?.data[0]?.id;
  useEffect(() => {
    if (!agentId && open) setAgentId(campaign ? CAMPAIGN_AGENT : firstAgent);
  }, [agentId, campaign, firstAgent, open]);
  const chosenAgent = agentId === CAMPAIGN_AGENT ? undefined : agentId;

  const nameError = submitted && !name.trim() ? 'Give the workflow a name.' : undefined;
  const agentError = !campaign && agents.isSuccess && agents.data.data.length === 0 ? 'Create an agent first: a workflow needs one to speak in it.' : submitted && !campaign && !agentId ? 'Choose the agent that speaks in it.' : undefined;
  const templateValues = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim()));

  const submit = async () => {
    setSubmitted(true);
    if (!name.trim() || (!campaign && !chosenAgent)) return;
    try {
      const common = { name: name.trim(), ...(template ? { workflowTemplate: template.id, templateValues } : {}) };
      const id = campaign
        ? (await createInCampaign.mutateAsync({ campaignId: campaign.id, ...common, ...(chosenAgent ? { agentId: chosenAgent } : {}) })).id
        : (await create.mutateAsync({ organizationId, agentId: chosenAgent!, workflowType: type, ...common })).id;
      toast.success(`${name.trim()} is ready to draw.`, 'Workflow created');
      onOpenChange(false);
      onCreated(id);
    } catch (e) {
      toast.error(e);
    }
  };

  const meta = templates.data?.meta;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="New workflow" description="Start from a blank canvas or a template." className="max-w-2xl">
        <form
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Field label="Name" error={nameError}>
            {(ids) => <Input {...ids} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Customer support line" />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            {!campaign && (
              <Field label="Direction">
                {(ids) => (
                  <Select
                    {...ids}
                    value={type}
                    onValueChange={(v: WorkflowType) => {
                      setType(v);
                      setTemplate(null);
                      setTemplatePage(1);
                    }}
                    options={[
                      { value: 'inbound', label: 'Inbound: answers calls to its number' },
                      { value: 'outbound', label: 'Outbound: calls contacts' },
                    ]}
                  />
                )}
              </Field>
            )}
            <Field label="Agent" error={agentError}>
              {(ids) => (
                <Select
                  {...ids}
                  value={agentId}
                  onValueChange={setAgentId}
                  placeholder={agents.isPending ? 'Loading agents…' : 'Choose an agent'}
                  options={[...(campaign ? [{ value: CAMPAIGN_AGENT, label: 'The campaign’s active agent' }] : []), ...(agents.data?.data ?? []).map((a) => ({ value: a.id, label: a.name }))]}
                />
              )}
            </Field>
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-fg">Start from</legend>
            <ul className="mt-2 grid gap-2 sm:grid-cols-2">
              <li>
                <TemplateChoice selected={template === null} onSelect={() => setTemplate(null)} title="Blank" description={type === 'outbound' ? 'A Start and a Contacts node.' : 'A Start node.'} />
              </li>
              {(templates.data?.data ?? []).map((t) => (
                <li key={t.id}>
                  <TemplateChoice
                    selected={template?.id === t.id}
                    onSelect={() => {
                      setTemplate(t);
                      setValues({});
                    }}
                    title={t.name}
                    description={t.description}
                  />
                </li>
              ))}
            </ul>
            {meta && meta.totalPages > 1 && (
              <div className="mt-2 flex items-center justify-end gap-2 text-xs text-fg-muted">
                <Button size="sm" variant="ghost" disabled={!meta.hasPrevious} onClick={() => setTemplatePage(templatePage - 1)}>
                  Previous
                </Button>
                Page {meta.page} - {meta.totalPages}
                <Button size="sm" variant="ghost" disabled={!meta.hasNext} onClick={() => setTemplatePage(templatePage + 1)}>
                  Next
                </Button>
              </div>
            )}
            {templates.isError && <p className="mt-2 text-xs text-danger-fg">The templates could not be loaded; you can still start blank.</p>}
            <p className="sr-only">{TEMPLATES_PAGE_SIZE} templates a page.</p>
          </fieldset>
          {template && template.placeholders.length > 0 && (
            <fieldset className="space-y-3">
              <legend className="text-sm font-medium text-fg">Fill in the template</legend>
              <p className="text-xs text-fg-subtle">Blank values stay as {'{{placeholders}}'} in the steps for you to edit later.</p>
              <div className="grid gap-3 sm:grid-cols-2">
                {template.placeholders.map((p) => (
                  <Field key={p.key} label={p.label}>
                    {(ids) => <Input {...ids} value={values[p.key] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [p.key]: e.target.value }))} />}
                  </Field>
                ))}
              </div>
            </fieldset>
          )}
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" busy={create.isPending || createInCampaign.isPending} busyLabel="Creating…">
              Create workflow
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function TemplateChoice({ selected, onSelect, title, description }: { selected: boolean; onSelect: () => void; title: string; description: string }) {
  return (
    <button type="button" aria-pressed={selected} onClick={onSelect} className={cn('h-full w-full rounded-lg border p-3 text-left hover:bg-muted', selected ? 'border-accent ring-2 ring-accent/30' : 'border-line')}>
      <span className="block text-sm font-semibold text-fg">{title}</span>
      <span className="mt-0.5 line-clamp-2 block text-xs text-fg-muted">{description}</span>
    </button>
  );
}
