import { Bot } from 'lucide-react';

import { str } from '../../../graph';
import { dataProblems } from '../fieldRules';
import { EmptyNote, LabelField, Lead, SpokenLine, SpokenLineField, TextField } from '../parts';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';

/** What the agent says (its spoken line) if it has one, else what it does (its instruction). */
function AgentView({ id, data }: NodeViewProps) {
  const instruction = str(data, 'instruction').trim();
  if (str(data, 'say').trim()) return <SpokenLine data={data} />;
  if (!instruction) return <EmptyNote id={id} message="No spoken line or instruction yet" action="Add Agent Response" />;
  return <Lead lead="Does">{instruction}</Lead>;
}

function AgentEdit({ data, onChange }: NodeEditProps) {
  const errors = validate(data);
  return (
    <div className="space-y-4">
      <LabelField data={data} onChange={onChange} />
      <TextField label="Instruction" field="instruction" multiline data={data} onChange={onChange} error={errors['instruction']} placeholder="Greet the caller and ask how you can help." description="What the agent does at this step, written to the agent. A language model follows it; it is never read aloud." />
      <SpokenLineField data={data} onChange={onChange} placeholder="Hi {{firstName}}, this is {{agentName}}. How can I help you today?" />
    </div>
  );
}

function validate(data: Parameters<typeof dataProblems>[1]) {
  const out = dataProblems('agent', data);
  if (!str(data, 'instruction').trim()) out['instruction'] ??= 'No Agent Response: say what the agent says or does.';
  return out;
}

export const agentNode: NodeKindSpec = {
  kind: 'agent',
  label: 'Agent',
  hint: 'What the agent says or does at this step.',
  color: kindColor('agent'),
  icon: Bot,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Agent', instruction: '' }),
  View: AgentView,
  Edit: AgentEdit,
  validate,
  addable: true,
};
