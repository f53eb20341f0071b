// Send a saved campaign now or schedule it, each behind a confirmation that states how many
// recipients it goes to (counted when the dialog opens) and who is left out.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { plural, type Audience, type Campaign } from './Campaigns';
import { AudienceSummary, useAudienceCount } from './CampaignsAudience';

type When = { now: true } | { now: false; at: Date };

/** `datetime-local` text (the browser's time zone) as a date, or null while incomplete. */
function dateOf(local: string): Date | null {
  const at = new Date(local);
  return local === '' || Number.isNaN(at.getTime()) ? null : at;
}

function Confirmation({ campaign, audience, when, onDone, onCancel }: { campaign: Campaign; audience: Audience; when: When; onDone(c: Campaign): void; onCancel(): void }) {
  const count = useAudienceCount(audience, false);
  const send = useMutation({
    mutationFn: () => api<{ data: Campaign }>('POST', `/campaigns/${campaign.id}/send`, when.now ? {} : { scheduledFor: when.at.toISOString() }),
    onSuccess: ({ data }) => onDone(data),
  });
  const n = count.data?.recipients;
  const verb = when.now ? 'Send' : 'Schedule';
  return (
    <ConfirmDialog
      open
      title={when.now ? `Send ${campaign.name} now?` : `Schedule ${campaign.name} for ${when.at.toLocaleString()}?`}
      confirmLabel={n === undefined ? `${verb}` : `${verb} to ${plural(n, 'recipient')}`}
      busy={send.isPending || n === undefined || n === 0}
      onConfirm={() => send.mutate()}
      onCancel={onCancel}
    >
      <p role="status">
        {count.data ? (
          <>
            It goes to <AudienceSummary count={count.data} />
            {when.now ? '' : ' as the audience is counted now; the send counts it again when it starts'}.
          </>
        ) : count.isError ? (
          ''
        ) : (
          'Counting the audience…'
        )}
      </p>
      {n === 0 && <p>Nobody would receive it: change the audience first.</p>}
      <ErrorNote error={count.isError ? errorText(count.error) : send.isError ? errorText(send.error) : null} />
    </ConfirmDialog>
  );
}

/** `blocked` says why nothing can be sent yet (unsaved changes); null when the saved campaign is ready. */
export function CampaignsSend({ campaign, audience, blocked, onSent }: { campaign: Campaign; audience: Audience; blocked: string | null; onSent(c: Campaign): void }) {
  const [when, setWhen] = useState<When | null>(null);
  const [local, setLocal] = useState('');
  const at = dateOf(local);
  return (
    <section aria-labelledby="send-heading">
      <h2 id="send-heading">Send</h2>
      {blocked && (
        <p id="send-blocked" className="hint">
          {blocked}
        </p>
      )}
      <div className="row">
        <button type="button" disabled={blocked !== null} aria-describedby={blocked ? 'send-blocked' : undefined} onClick={() => setWhen({ now: true })}>
          Send
        </button>
        <label>
          Send at
          <input type="datetime-local" value={local} onChange={(e) => setLocal(e.target.value)} />
        </label>
        <button type="button" className="quiet" disabled={blocked !== null || at === null} onClick={() => at && setWhen({ now: false, at })}>
          Schedule
        </button>
      </div>
      {campaign.status === 'SCHEDULED' && campaign.scheduledFor && (
        <p>
          Scheduled for {new Date(campaign.scheduledFor).toLocaleString()}: Send sends it now instead, Schedule moves it.
        </p>
      )}
      {when && (
        <Confirmation
          campaign={campaign}
          audience={audience}
          when={when}
          onCancel={() => setWhen(null)}
          onDone={(c) => {
            setWhen(null);
            onSent(c);
          }}
        />
      )}
    </section>
  );
}
