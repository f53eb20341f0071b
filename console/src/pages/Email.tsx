// One email (MEMBER): its fields and its timeline, oldest first: queued, every attempt to hand it
// over (the server, TLS, the reply, the outcome), then what happened to it (delivered, bounced,
// complaints, opens, clicks). OWNER and ADMIN also get a link to the message as sent.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { allows } from '../roles';
import { useSession } from '../session';
import { sender, when, type Attempt, type EmailEvent, type EmailTimeline } from './Emails';
import { Skeleton } from '../ui/Skeleton';

/** While an email may still change, its page asks again this often. */
const POLL_MS = 5000;
const UNSETTLED = new Set(['queued', 'sending', 'deferred']);

const EVENT_LABELS: Record<string, string> = {
  'email.sent': 'Sent',
  'email.delivery': 'Delivered',
  'email.bounce': 'Bounced',
  'email.complaint': 'Spam complaint',
  'email.open': 'Opened',
  'email.click': 'Clicked',
};

const OUTCOMES: Record<Attempt['outcome'], string> = { delivered: 'accepted', deferred: 'deferred (tried again later)', bounced: 'refused (bounced)' };

/** The one or two facts of an event worth a line: the link clicked, the kind of bounce. */
function eventDetail(e: EmailEvent): string | null {
  const data = (e.data ?? {}) as Record<string, unknown>;
  const facts = [
    typeof data.link === 'string' ? data.link : null,
    typeof data.bounceType === 'string' ? `${data.bounceType} bounce` : null,
    data.simulated === true ? 'simulated' : null,
  ].filter((f): f is string => f !== null);
  return facts.length > 0 ? facts.join(', ') : null;
}

type Entry = { at: string; rank: number; key: string; content: ReactNode };

function AttemptEntry({ attempt }: { attempt: Attempt }) {
  return (
    <>
      <strong>Delivery attempt: {OUTCOMES[attempt.outcome]}</strong>
      <dl>
        <dt>Server</dt>
        <dd>{attempt.mx ?? 'none reached'}</dd>
        <dt>TLS</dt>
        <dd>{attempt.tls ?? 'no TLS'}</dd>
        <dt>Reply</dt>
        <dd>
          <code>{attempt.reply}</code>
        </dd>
      </dl>
    </>
  );
}

/** Queued, the attempts and the events in the order they happened (at the same instant in that order). */
function entriesOf(email: EmailTimeline): Entry[] {
  const entries: Entry[] = [
    { at: email.createdAt, rank: 0, key: 'queued', content: <strong>Queued</strong> },
    ...email.attempts.map((a, i) => ({ at: a.at, rank: 1, key: `attempt-${i}`, content: <AttemptEntry attempt={a} /> })),
    ...email.events.map((e) => {
      const detail = eventDetail(e);
      return {
        at: e.createdAt,
        rank: 2,
        key: e.id,
        content: (
          <>
            <strong>{EVENT_LABELS[e.name] ?? e.name}</strong>
            {detail && <span className="hint"> {detail}</span>}
          </>
        ),
      };
    }),
  ];
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.rank - b.rank);
}

function Fields({ email }: { email: EmailTimeline }) {
  return (
    <dl>
      <dt>To</dt>
      <dd>{email.contactId ? <Link to={`/contacts/${email.contactId}`}>{email.to}</Link> : email.to}</dd>
      <dt>From</dt>
      <dd>{sender(email)}</dd>
      {email.replyTo && (
        <>
          <dt>Reply-To</dt>
          <dd>{email.replyTo}</dd>
        </>
      )}
      <dt>Subject</dt>
      <dd>{email.subject}</dd>
      <dt>Status</dt>
      <dd>{email.status}</dd>
      <dt>Kind</dt>
      <dd>
        {email.type.toLowerCase()}, from {email.sourceType === 'CAMPAIGN' ? 'a campaign' : email.sourceType === 'WORKFLOW' ? 'a workflow' : 'a send'}
        {email.campaignId && (
          <>
            {' '}
            (<Link to={`/messages?campaignId=${email.campaignId}`}>the campaign's other emails</Link>, <Link to={`/campaigns/${email.campaignId}/analytics`}>its analytics</Link>)
          </>
        )}
        {email.templateId && (
          <>
            {' '}
            with <Link to={`/templates/${email.templateId}`}>its template</Link>
          </>
        )}
      </dd>
      <dt>Opens, clicks</dt>
      <dd>
        {email.opens}, {email.clicks}
      </dd>
      <dt>Message-ID</dt>
      <dd>
        <code>{email.messageId}</code>
      </dd>
    </dl>
  );
}

export function EmailPage() {
  const { id = '' } = useParams();
  const { project } = useSession();
  const email = useQuery({
    queryKey: ['email', project?.id, id],
    queryFn: () => api<EmailTimeline>('GET', `/emails/${id}`),
    refetchInterval: (q) => (q.state.data && UNSETTLED.has(q.state.data.status) ? POLL_MS : false),
  });
  const e = email.data;
  return (
    <Page title={e ? `Email to ${e.to}` : 'Email'}>
      <p>
        <Link to="/messages">All messages</Link>
      </p>
      <ErrorNote error={email.isError ? errorText(email.error) : null} />
      {email.isPending && <Skeleton label="Loading the email…" />}
      {e && (
        <>
          <Fields email={e} />
          {allows(project?.role, 'ADMIN') && (
            <p>
              <Link to={`/messages/${e.id}/source`}>View the raw source</Link> (the message as sent, its headers and its DKIM check)
            </p>
          )}
          <section aria-labelledby="timeline-heading">
            <h2 id="timeline-heading">Timeline</h2>
            <ol className="timeline" aria-labelledby="timeline-heading">
              {entriesOf(e).map((entry) => (
                <li key={entry.key}>
                  <time dateTime={entry.at}>{when(entry.at)}</time> {entry.content}
                </li>
              ))}
            </ol>
            {e.events.length >= 500 && <p className="hint">The first 500 events are shown.</p>}
          </section>
        </>
      )}
    </Page>
  );
}
