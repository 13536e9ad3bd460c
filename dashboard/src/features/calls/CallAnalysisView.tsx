import type { CallAnalysis } from '../../api/gen/model';

/** Field names are snake_case for files and columns; people read "Appointment day". */
export function fieldLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const OUTCOMES: Record<string, string> = {
  completed: 'Completed',
  forwarded: 'Forwarded to a person',
  'do-not-call': 'Asked not to be called again',
  incomplete: 'Ended before the flow did',
  'step-failed': 'A step failed',
  'no-response': 'No response',
};

/** The outcome in words; an outcome this build does not know is shown as sent. */
export function outcomeLabel(outcome: string): string {
  return OUTCOMES[outcome] ?? outcome;
}

/**
 * What a finished call left behind: its summary, outcome and the workflow's post-call fields the
 * customer answered, each with the turn of the transcript it came from (counted from 1, as people
 * read the transcript).
 */
export function CallAnalysisView({ analysis, showSummary = true }: { analysis: CallAnalysis; showSummary?: boolean }) {
  return (
    <div className="space-y-3" data-testid="call-analysis">
      {showSummary && <p className="text-sm whitespace-pre-wrap break-words text-fg">{analysis.summary}</p>}
      <p className="text-sm text-fg-muted">
        Outcome: <span className="text-fg">{outcomeLabel(analysis.outcome)}</span>
      </p>
      {analysis.fields.length === 0 ? (
        <p className="text-sm text-fg-muted">No post-call field was answered on this call.</p>
      ) : (
        <dl className="divide-y divide-line-soft" data-testid="call-fields">
          {analysis.fields.map((f) => (
            <div key={f.name} className="flex justify-between gap-3 py-1.5 text-sm" data-testid={`call-field-${f.name}`}>
              <dt className="text-fg-muted">{fieldLabel(f.name)}</dt>
              <dd className="min-w-0 text-right break-words text-fg">
                {f.value} <span className="text-xs text-fg-subtle">(turn {f.turn + 1})</span>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <p className="text-xs text-fg-subtle">
        {analysis.analysedBy === 'patterns' ? 'Fields read from the customer’s answers by Betty’s patterns.' : `Fields read by ${analysis.analysedBy}.`}
      </p>
    </div>
  );
}
