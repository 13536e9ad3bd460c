import { useQuery } from '@tanstack/react-query';
import { ClipboardList, FileAudio, MessageSquareText, PhoneIncoming, PhoneOutgoing } from 'lucide-react';
import { Link } from 'react-router';

import type { CallLog, Organization } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { formatDateTime } from '../../lib/dates';
import { useStreamStatus } from '../../lib/events';
import { teamPath } from '../team/TeamContext';
import { CallAnalysisView } from './CallAnalysisView';
import { callStatus, formatCost, formatDuration, SIMULATED_HINT } from './format';
import { callLogQueryOptions, LIVE_TRANSCRIPT_MS, recordingQueryOptions, transcriptQueryOptions } from './queries';
import { TranscriptView } from './TranscriptView';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-1.5 text-sm">
      <dt className="text-fg-muted">{label}</dt>
      <dd className="min-w-0 text-right break-words text-fg">{children}</dd>
    </div>
  );
}

/** The recording of an ended call: an audio player on the signed URL, or why there is none. */
function Recording({ team, call }: { team: Organization; call: CallLog }) {
  const recording = useQuery({ ...recordingQueryOptions(team.id, call.id), enabled: call.endTime !== null && call.hasRecording });
  if (call.endTime === null) return <p className="text-sm text-fg-muted">The recording is ready when the call ends.</p>;
  if (!call.hasRecording) return <p className="text-sm text-fg-muted">No call recording exists.</p>;
  if (recording.isPending) return <SkeletonText label="Loading the recording…" lines={1} />;
  if (recording.isError) return <ErrorState error={recording.error} onRetry={() => void recording.refetch()} />;
  if (!recording.data) return <p className="text-sm text-fg-muted">No call recording exists.</p>;
  return (
    <div className="space-y-2">
      {/* The signed URL serves the MP3 with Range support, so the player can seek. */}
      <audio controls preload="metadata" src={recording.data.url} className="w-full" data-testid="call-recording" aria-label={`Recording of the call with ${call.direction === 'outbound' ? call.to : call.from}`} />
      <a className="text-xs text-accent-fg underline" href={recording.data.url} download>
        Download the MP3
      </a>
    </div>
  );
}

/** One call: who, when, how it went, what it cost, what was said and the recording. */
export function CallDetail({ team, callLogId }: { team: Organization; callLogId: string }) {
  const stream = useStreamStatus();
  const call = useQuery({
    ...callLogQueryOptions(team.id, callLogId),
    // A call in progress is followed: the stream says when it changes, else it is read again.
    refetchInterval: (q) => (stream !== 'open' && q.state.data && q.state.data.endTime === null ? LIVE_TRANSCRIPT_MS : false),
  });
  const data = call.data;
  const live = !!data && data.endTime === null;
  const transcript = useQuery({
    ...transcriptQueryOptions(team.id, data?.callControlId ?? ''),
    enabled: !!data && (data.hasTranscript || live),
    // Each turn said publishes call.updated (app/liveEvents.ts refreshes the transcript); without
    // the stream, a call in progress is read again.
    refetchInterval: live && stream !== 'open' ? LIVE_TRANSCRIPT_MS : false,
  });

  if (call.isPending) return <Card><CardBody><SkeletonText label="Loading the call…" lines={5} /></CardBody></Card>;
  if (call.isError) return <ErrorState title="This call could not be shown" error={call.error} onRetry={() => void call.refetch()} />;
  const c = call.data;
  const status = callStatus(c.status);
  const outbound = c.direction === 'outbound';
  return (
    <div className="space-y-4" data-testid="call-detail" data-call-id={c.id}>
      <Card as="section" aria-labelledby="call-heading">
        <CardHeader
          id="call-heading"
          icon={outbound ? <PhoneOutgoing /> : <PhoneIncoming />}
          title={outbound ? `Call to ${c.to}` : `Call from ${c.from}`}
          description={formatDateTime(c.startTime)}
          action={<Badge tone={status.tone}>{status.label}</Badge>}
        />
        <CardBody>
          <dl className="divide-y divide-line-soft">
            <Row label="Direction">{outbound ? 'Outbound' : 'Inbound'}</Row>
            <Row label="From">{c.from}</Row>
            <Row label="To">{c.to}</Row>
            <Row label="Duration">{live ? `${formatDuration(c.durationSeconds)} so far` : formatDuration(c.durationSeconds)}</Row>
            <Row label="Cost">
              {c.simulated ? (
                <span data-testid="call-cost">
                  {formatCost(0)} <Badge tone="neutral">Simulated</Badge>
                  <span className="mt-1 block text-xs text-fg-muted">{SIMULATED_HINT}</span>
                </span>
              ) : (
                <span data-testid="call-cost">{live ? 'Counted when the call ends' : formatCost(c.cost)}</span>
              )}
            </Row>
            <Row label="Ended">{c.endTime ? formatDateTime(c.endTime) : 'Still going on'}</Row>
            {/* Only when Betty ended the call (its maximum duration, a call the carrier lost). */}
            {c.endReason && (
              <Row label="Why it ended">
                <span data-testid="call-end-reason">{c.endReason}</span>
              </Row>
            )}
            {c.workflowId && (
              <Row label="Workflow">
                <Link className="text-accent-fg underline" to={teamPath(`/dashboard/workflow-canvas?workflowId=${encodeURIComponent(c.workflowId)}`, team.id)}>
                  Open the workflow
                </Link>
              </Row>
            )}
          </dl>
        </CardBody>
      </Card>
      {c.analysis && (
        <Card as="section" aria-labelledby="analysis-heading">
          <CardHeader id="analysis-heading" icon={<ClipboardList />} title="What the call left behind" />
          <CardBody>
            <CallAnalysisView analysis={c.analysis} />
          </CardBody>
        </Card>
      )}
      <Card as="section" aria-labelledby="recording-heading">
        <CardHeader id="recording-heading" icon={<FileAudio />} title="Recording" />
        <CardBody>
          <Recording team={team} call={c} />
        </CardBody>
      </Card>
      <Card as="section" aria-labelledby="transcript-heading">
        <CardHeader id="transcript-heading" icon={<MessageSquareText />} title="Transcript" description={live ? 'Updated as the call goes on.' : undefined} />
        <CardBody>
          {!c.hasTranscript && !live ? (
            <p className="text-sm text-fg-muted">This call has no transcript: it was not answered.</p>
          ) : transcript.isPending ? (
            <SkeletonText label="Loading the transcript…" lines={4} />
          ) : transcript.isError ? (
            <ErrorState error={transcript.error} onRetry={() => void transcript.refetch()} />
          ) : !transcript.data || transcript.data.entries.length === 0 ? (
            <p className="text-sm text-fg-muted">{live ? 'Nothing said yet.' : 'Nothing was said on this call.'}</p>
          ) : (
            <TranscriptView entries={transcript.data.entries} live={live} />
          )}
        </CardBody>
      </Card>
    </div>
  );
}
