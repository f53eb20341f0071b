// A message as sent (ADMIN, as the server's /raw and /checks): GET /emails/{id}/raw parsed in the
// browser by postal-mime into its HTML (rendered in a sandboxed iframe), text part, headers and
// attachments beside the raw source; and what a receiving system would make of it (GET
// /emails/{id}/checks): each DKIM signature as the daemon's verifier finds it, and SpamAssassin's
// score with the rules that fired where spamd is configured. The Outbox shows a captured message
// this way; Messages shows any email's source this way.
import { useQuery } from '@tanstack/react-query';
import PostalMime, { type Address, type Email as Parsed } from 'postal-mime';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api, download, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { BlockedImagesNote } from '../ui/BlockedImagesNote';
import { Skeleton } from '../ui/Skeleton';

interface DkimCheck {
  domain: string;
  selector: string | null;
  result: string;
  comment: string | null;
  keyFrom: 'dns' | 'domain records';
}

interface Checks {
  dkim: DkimCheck[];
  spam: { spam: boolean; score: number; threshold: number; rules: string[] } | null;
  spamdConfigured: boolean;
}

interface Source {
  raw: string;
  bytes: number;
  parsed: Parsed;
}

/** An address as a mail client writes it: `Name <a@b>`, or a group's name and members. */
function addressText(a: Address): string {
  if (a.group) return `${a.name}: ${a.group.map(addressText).join(', ')}`;
  return a.name ? `${a.name} <${a.address}>` : a.address;
}

function useSource(id: string) {
  const { project } = useSession();
  return useQuery({
    queryKey: ['email-source', project?.id, id],
    queryFn: async (): Promise<Source> => {
      const bytes = await download(`/emails/${id}/raw`, 'message/rfc822');
      return { raw: new TextDecoder().decode(bytes), bytes: bytes.byteLength, parsed: await PostalMime.parse(bytes) };
    },
    staleTime: Infinity,
  });
}

function DkimResults({ dkim }: { dkim: DkimCheck[] }) {
  if (dkim.length === 0) return <p>DKIM: the message carries no signature.</p>;
  return (
    <ul aria-label="DKIM signatures">
      {dkim.map((d) => (
        <li key={`${d.domain}:${d.selector}`}>
          DKIM <strong>{d.result}</strong> for {d.domain}
          {d.selector && <> (selector {d.selector})</>}
          {d.comment && <span className="hint"> {d.comment}</span>}
          {d.keyFrom === 'domain records' && <>: key from this domain's records, not yet in DNS</>}
        </li>
      ))}
    </ul>
  );
}

function SpamResult({ checks }: { checks: Checks }) {
  if (!checks.spamdConfigured) return <p>SpamAssassin: spamd not configured (the setting scanners.spamd names one).</p>;
  const { spam } = checks;
  if (!spam) return <p>SpamAssassin: spamd did not answer for this message.</p>;
  return (
    <>
      <p>
        SpamAssassin: score <strong>{spam.score}</strong> of {spam.threshold}, {spam.spam ? 'spam' : 'not spam'}.
      </p>
      {spam.rules.length > 0 && (
        <ul aria-label="SpamAssassin rules that fired">
          {spam.rules.map((r) => (
            <li key={r}>
              <code>{r}</code>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function ChecksSection({ id }: { id: string }) {
  const { project } = useSession();
  const checks = useQuery({ queryKey: ['email-checks', project?.id, id], queryFn: () => api<Checks>('GET', `/emails/${id}/checks`), staleTime: Infinity });
  return (
    <section aria-labelledby="checks-heading">
      <h2 id="checks-heading">What a receiver would see</h2>
      <ErrorNote error={checks.isError ? errorText(checks.error) : null} />
      {checks.isPending && <p role="status">Verifying the signatures…</p>}
      {checks.data && (
        <>
          <DkimResults dkim={checks.data.dkim} />
          <SpamResult checks={checks.data} />
        </>
      )}
    </section>
  );
}

function Parts({ source }: { source: Source }) {
  const { parsed } = source;
  return (
    <>
      <section aria-labelledby="html-heading">
        <h2 id="html-heading">HTML part</h2>
        {parsed.html ? (
          <div className="preview">
            {/* no allow-scripts, no allow-same-origin: the email's HTML runs nothing and reaches nothing of ours */}
            <iframe title="Rendered message" sandbox="" srcDoc={parsed.html} />
            <p className="hint">Shown as a mail client shows it: remote https: images load, so a tracked email's open pixel counts this view as an open.</p>
            <BlockedImagesNote html={parsed.html} />
          </div>
        ) : (
          <p>The message has no HTML part.</p>
        )}
      </section>
      <section aria-labelledby="text-heading">
        <h2 id="text-heading">Text part</h2>
        {parsed.text ? <pre className="source">{parsed.text}</pre> : <p>The message has no text part.</p>}
      </section>
      {parsed.attachments.length > 0 && (
        <section aria-labelledby="attachments-heading">
          <h2 id="attachments-heading">Attachments</h2>
          <ul>
            {parsed.attachments.map((a, i) => (
              <li key={i}>
                {a.filename ?? '(no name)'} <span className="hint">{a.mimeType}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="headers-heading">
        <h2 id="headers-heading">Headers</h2>
        <table className="headers">
          <caption>The message's {parsed.headers.length} headers, in order</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {parsed.headers.map((h, i) => (
              <tr key={i}>
                <th scope="row">{h.originalKey}</th>
                <td>
                  <code>{h.value}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="raw-heading">
        <h2 id="raw-heading">Raw source</h2>
        <details>
          <summary>Show the raw source ({source.bytes.toLocaleString()} bytes)</summary>
          <pre className="source" aria-label="Raw source">
            {source.raw}
          </pre>
        </details>
      </section>
    </>
  );
}

function MessageView({ id, title, links }: { id: string; title(parsed: Parsed | null): string; links: ReactNode }) {
  const source = useSource(id);
  const parsed = source.data?.parsed ?? null;
  return (
    <Page title={title(parsed)}>
      <p className="actions">{links}</p>
      {parsed && (
        <dl>
          <dt>From</dt>
          <dd>{parsed.from ? addressText(parsed.from) : ''}</dd>
          <dt>To</dt>
          <dd>{parsed.to?.map(addressText).join(', ')}</dd>
          <dt>Subject</dt>
          <dd>{parsed.subject}</dd>
        </dl>
      )}
      <ChecksSection id={id} />
      <ErrorNote error={source.isError ? errorText(source.error) : null} />
      {source.isPending && <Skeleton label="Loading the message…" />}
      {source.data && <Parts source={source.data} />}
    </Page>
  );
}

/** Messages > an email > its source. */
export function MessageSourcePage() {
  const { id = '' } = useParams();
  return (
    <MessageView
      id={id}
      title={(p) => (p ? `Source: ${p.subject ?? '(no subject)'}` : 'Message source')}
      links={<Link to={`/messages/${id}`}>Back to the email's timeline</Link>}
    />
  );
}

/** Outbox > a captured message. */
export function OutboxMessagePage() {
  const { id = '' } = useParams();
  return (
    <MessageView
      id={id}
      title={(p) => (p ? p.subject || '(no subject)' : 'Captured message')}
      links={
        <>
          <Link to="/outbox">Back to the Outbox</Link> <Link to={`/messages/${id}`}>Its timeline in Messages</Link>
        </>
      }
    />
  );
}
