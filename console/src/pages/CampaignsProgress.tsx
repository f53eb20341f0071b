// A send's progress while it fans out and delivers: GET /campaigns/{id}/stats polled every couple
// of seconds while the campaign is SENDING (less often while SCHEDULED), stopped once it ends. The
// fan-out bar counts the audience handed over (sent or skipped as suppressed); the delivery bar the
// emails that reached their end (delivered, bounced or failed).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { campaignsKey, type Campaign, type CampaignStats, type CampaignStatus } from './Campaigns';

const POLL_MS: Partial<Record<CampaignStatus, number>> = { SENDING: 1500, SCHEDULED: 10_000 };

const STATUS_WORDS: Record<CampaignStatus, string> = {
  DRAFT: 'Draft: not sent',
  SCHEDULED: 'Scheduled',
  SENDING: 'Sending…',
  SENT: 'Sent: every email reached its end',
  CANCELLED: 'Cancelled',
};

export function useCampaignStats(campaign: Campaign) {
  const { project } = useSession();
  return useQuery({
    queryKey: [...campaignsKey(project?.id), 'stats', campaign.id],
    queryFn: async () => (await api<{ data: CampaignStats }>('GET', `/campaigns/${campaign.id}/stats`)).data,
    refetchInterval: (q) => POLL_MS[q.state.data?.status ?? campaign.status] ?? false,
    refetchIntervalInBackground: false,
  });
}

function CancelCampaign({ campaign, onCancelled }: { campaign: Campaign; onCancelled(c: Campaign): void }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => api<Campaign>('POST', `/campaigns/${campaign.id}/cancel`),
    onSuccess: (c) => onCancelled(c),
    onSettled: () => setConfirming(false),
  });
  return (
    <>
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        Cancel campaign
      </button>
      <ErrorNote error={cancel.isError ? errorText(cancel.error) : null} />
      <ConfirmDialog open={confirming} title={`Cancel ${campaign.name}?`} confirmLabel="Cancel the send" busy={cancel.isPending} onConfirm={() => cancel.mutate()} onCancel={() => setConfirming(false)}>
        <p>
          {campaign.status === 'SCHEDULED'
            ? 'It will not be sent. A cancelled campaign cannot be sent again; duplicate it to send it later.'
            : 'Emails not yet attempted are never sent; those already delivered stay delivered.'}
        </p>
      </ConfirmDialog>
    </>
  );
}

/** `onChanged`: the campaign moved on (its status changed while polling, or it was cancelled). */
export function CampaignsProgress({ campaign, onChanged }: { campaign: Campaign; onChanged(): void }) {
  const stats = useCampaignStats(campaign);
  const s = stats.data;
  const status = s?.status ?? campaign.status;
  useEffect(() => {
    if (s && s.status !== campaign.status) onChanged();
  }, [s, campaign.status, onChanged]);
  const handedOver = s ? s.sentCount + s.suppressedCount : 0;
  const audience = s ? Math.max(s.totalRecipients, handedOver) : 0;
  const ended = s ? s.sentCount - s.queuedCount - s.deferredCount : 0;
  return (
    <section aria-labelledby="progress-heading">
      <h2 id="progress-heading">Progress</h2>
      <p role="status">{STATUS_WORDS[status]}</p>
      {s && status !== 'SCHEDULED' && (
        <>
          <div className="meter">
            <progress aria-label="Handed over" max={Math.max(audience, 1)} value={handedOver} />
            <span>
              {handedOver.toLocaleString()} of {audience.toLocaleString()} handed over
            </span>
          </div>
          <div className="meter">
            <progress aria-label="Finished" max={Math.max(s.sentCount, 1)} value={ended} />
            <span>
              {ended.toLocaleString()} of {s.sentCount.toLocaleString()} emails finished
            </span>
          </div>
          <table className="progress">
            <caption>Emails of this campaign now</caption>
            <tbody>
              {(
                [
                  ['Queued', s.queuedCount, 'waiting for their first attempt, or being attempted'],
                  ['Deferred', s.deferredCount, 'refused for now; retried later'],
                  ['Sent', s.sentCount, 'emails made for the audience'],
                  ['Delivered', s.deliveredCount, "accepted by the recipient's server"],
                  ['Bounced', s.bouncedCount, 'refused for good, at once or by a bounce message later'],
                  ['Skipped as suppressed', s.suppressedCount, 'addresses that bounced or complained before'],
                ] as const
              ).map(([label, n, meaning]) => (
                <tr key={label}>
                  <th scope="row">
                    {label}
                    <span className="hint"> {meaning}</span>
                  </th>
                  <td aria-label={`${label} count`}>{n.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {(status === 'SCHEDULED' || status === 'SENDING') && <CancelCampaign campaign={{ ...campaign, status }} onCancelled={onChanged} />}
      <ErrorNote error={stats.isError ? errorText(stats.error) : null} />
    </section>
  );
}
