// Domains (ADMIN): the project's sender domains, the DNS records each must publish (each with a
// copy button and its own verified flag; a DKIM record per key, with the key's state), the
// verification as it changes (polled while a domain or a new key is pending: the daemon re-checks
// every 5 minutes), re-check now, rotate the DKIM key, delete with confirmation. In capture mode a
// domain may be marked verified without DNS, and says so. When the daemon's hostname, which the
// bounce MX and SPF records name, is not a fully qualified name resolving to this machine, says so.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { CopyButton } from '../ui/CopyButton';
import { EmptyState } from '../ui/EmptyState';
import { useToast } from '../ui/Toasts';
import { Skeleton } from '../ui/Skeleton';

type Purpose = 'dkim' | 'bounce' | 'spf' | 'dmarc';
type KeyState = 'pending' | 'active' | 'retiring' | 'safe_to_remove';

interface DnsRecord {
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  priority?: number;
  purpose: Purpose;
  verified: boolean;
  /** DKIM records: the key's selector, algorithm and state. */
  selector?: string;
  algorithm?: 'rsa' | 'ed25519';
  state?: KeyState;
  safeToRemoveAt?: string | null;
}

interface Domain {
  id: string;
  domain: string;
  status: 'pending' | 'verified';
  /** Marked verified in capture mode: nothing it sends leaves the machine; a DNS check replaces the mark. */
  verifiedWithoutDns: boolean;
  records: DnsRecord[];
  failureReason: string | null;
  lastCheckedAt: string | null;
}

/** The daemon's hostname as GET /domains judges it: what the bounce MX and SPF records point at. */
interface HostnameFinding {
  name: string;
  verdict: 'ok' | 'not-qualified' | 'unresolved' | 'elsewhere';
  problem: string | null;
  fix: string | null;
}

interface DomainList {
  data: Domain[];
  hostname?: HostnameFinding;
}

const PURPOSES: Record<Purpose, { label: string; why: string }> = {
  dkim: { label: 'DKIM', why: 'required: every message is signed with this key' },
  bounce: { label: 'Bounce MX', why: 'bounces come back to Postmill through it' },
  spf: { label: 'SPF', why: 'lets Postmill send for the bounce domain' },
  dmarc: { label: 'DMARC', why: 'recommended: start with p=none' },
};

/** How often the list is asked again while a domain is pending. */
const POLL_MS = 5000;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

const ALGORITHMS = { rsa: 'RSA', ed25519: 'Ed25519' };

/** What a DKIM key's state asks of the owner. */
const keyStateText = (r: DnsRecord): { label: string; why: string } => {
  switch (r.state) {
    case 'pending':
      return { label: 'new key, waiting', why: 'publish it: it signs from the first check that finds it' };
    case 'retiring':
      return { label: 'replaced', why: `keep it published until ${when(r.safeToRemoveAt ?? null)}: mail signed with it may still be checked` };
    case 'safe_to_remove':
      return { label: 'replaced', why: 'safe to remove: delete this record at your DNS host' };
    default:
      return { label: 'signing', why: PURPOSES.dkim.why };
  }
};

/** The row header of a record: its purpose, and for DKIM the key's algorithm, selector and state. */
function RecordHeader({ record }: { record: DnsRecord }) {
  if (record.purpose !== 'dkim' || !record.state) {
    return (
      <>
        {PURPOSES[record.purpose].label}
        <span className="hint">{PURPOSES[record.purpose].why}</span>
      </>
    );
  }
  const state = keyStateText(record);
  return (
    <>
      DKIM {ALGORITHMS[record.algorithm ?? 'rsa']} <span className="badge" data-tone={record.state === 'active' ? 'success' : 'warning'}>{state.label}</span>
      <span className="hint">
        selector {record.selector}: {state.why}
      </span>
    </>
  );
}

function RecordsTable({ domain }: { domain: Domain }) {
  return (
    <div className="records-scroll">
      <table className="records">
        <caption>Records to publish at the DNS host of {domain.domain}</caption>
        <thead>
          <tr>
            <th scope="col">Record</th>
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Priority</th>
            <th scope="col">Value</th>
            <th scope="col">Found</th>
          </tr>
        </thead>
        <tbody>
          {domain.records.map((r) => {
            // a DKIM record per key: its selector tells the copy buttons apart
            const label = `${PURPOSES[r.purpose].label} ${r.type}`;
            const selector = r.selector ? `, selector ${r.selector}` : '';
            return (
              <tr key={`${r.purpose}:${r.name}`}>
                <th scope="row">
                  <RecordHeader record={r} />
                </th>
                <td>{r.type}</td>
                <td>
                  <code>{r.name}</code> <CopyButton text={r.name} label={`${label} name${selector}`} />
                </td>
                <td>{r.priority ?? ''}</td>
                <td>
                  <code className="value">{r.value}</code> <CopyButton text={r.value} label={`${label} value${selector}`} />
                </td>
                <td>
                  <span className="badge" data-tone={r.verified ? 'success' : 'neutral'}>
                    {r.verified ? 'Verified' : 'Not yet'}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function StatusLine({ domain }: { domain: Domain }) {
  if (domain.verifiedWithoutDns) {
    return (
      <p role="status">
        <strong className="badge">Verified without DNS</strong>: capture mode may send from it; nothing it sends leaves this machine. Publish the records
        below before going live.
      </p>
    );
  }
  return (
    <p role="status">
      <strong className="badge" data-tone={domain.status === 'verified' ? 'success' : 'warning'}>
        {domain.status === 'verified' ? 'Verified' : 'Pending'}
      </strong>
      {domain.status === 'verified' ? ': mail may be sent from this domain.' : ': publish the records below, then re-check.'}
      {domain.failureReason && <> Last check: {domain.failureReason}</>}
    </p>
  );
}

function DomainSection({ domain, onChecked, onDelete }: { domain: Domain; onChecked(d: Domain): void; onDelete(d: Domain): void }) {
  const { me } = useSession();
  const recheck = useMutation({ mutationFn: () => api<Domain>('GET', `/domains/${domain.id}/verify`), onSuccess: onChecked });
  const toast = useToast();
  const mark = useMutation({
    mutationFn: () => api<Domain>('POST', `/domains/${domain.id}/mark-verified`),
    onSuccess: (d) => {
      onChecked(d);
      toast(`${d.domain} may send in capture mode`);
    },
  });
  const rotate = useMutation({ mutationFn: () => api<Domain>('POST', `/domains/${domain.id}/rotate-key`), onSuccess: onChecked });
  const headingId = `domain-${domain.id}`;
  return (
    <section aria-labelledby={headingId} className="card">
      <h2 id={headingId}>{domain.domain}</h2>
      <StatusLine domain={domain} />
      <p className="hint">Last checked {when(domain.lastCheckedAt)}.</p>
      <div className="actions">
        <button type="button" disabled={recheck.isPending} onClick={() => recheck.mutate()} aria-label={`Re-check ${domain.domain}`}>
          {recheck.isPending ? 'Checking…' : 'Re-check'}
        </button>
        {me.deliveryMode === 'capture' && domain.status === 'pending' && (
          <button type="button" className="secondary" disabled={mark.isPending} onClick={() => mark.mutate()}>
            Mark verified without DNS<span className="visually-hidden">: {domain.domain}</span>
          </button>
        )}
        <button type="button" className="secondary" disabled={rotate.isPending} onClick={() => rotate.mutate()} aria-label={`Rotate key of ${domain.domain}`}>
          {rotate.isPending ? 'Rotating…' : 'Rotate key'}
        </button>
        <button type="button" className="quiet" onClick={() => onDelete(domain)} aria-label={`Delete ${domain.domain}`}>
          Delete
        </button>
      </div>
      <ErrorNote error={[recheck, mark, rotate].map((m) => (m.isError ? errorText(m.error) : null)).find((e) => e !== null) ?? null} />
      {rotate.isSuccess && (
        <p role="status">
          A new DKIM key is waiting: publish its record (marked “new key, waiting”). The current key signs until a check finds the new one, then stays
          published for the overlap.
        </p>
      )}
      <RecordsTable domain={domain} />
    </section>
  );
}

function AddDomain({ onAdded }: { onAdded(d: Domain): void }) {
  const [name, setName] = useState('');
  const toast = useToast();
  const add = useMutation({
    mutationFn: () => api<Domain>('POST', '/domains', { domain: name }),
    onSuccess: (d) => {
      setName('');
      onAdded(d);
      // the domain's own card says what it needs next, and keeps saying it as that changes
      toast(`${d.domain} added`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <section aria-labelledby="add-domain">
      <h2 id="add-domain">Add a domain</h2>
      <form onSubmit={submit} className="row">
        <label>
          Domain name
          <input required value={name} onChange={(e) => setName(e.target.value)} placeholder="example.com" autoComplete="off" />
        </label>
        <button type="submit" disabled={add.isPending}>
          Add domain
        </button>
      </form>
      <ErrorNote error={add.isError ? errorText(add.error) : null} />
    </section>
  );
}

export function DomainsPage() {
  const { me, project } = useSession();
  const queries = useQueryClient();
  const key = ['domains', project?.id];
  const domains = useQuery({
    queryKey: key,
    queryFn: () => api<DomainList>('GET', `/domains/project/${project!.id}`),
    // the daemon re-checks in the background: a pending domain turns verified, a new key signing, here without a reload
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending' || d.records.some((r) => r.state === 'pending')) ? POLL_MS : false),
  });
  const put = (d: Domain) =>
    queries.setQueryData<DomainList>(key, (old) => ({ ...old, data: old?.data.some((x) => x.id === d.id) ? old.data.map((x) => (x.id === d.id ? d : x)) : [...(old?.data ?? []), d] }));
  const hostname = domains.data?.hostname;
  const [deleting, setDeleting] = useState<Domain | null>(null);
  const toast = useToast();
  const remove = useMutation({
    mutationFn: (d: Domain) => api('DELETE', `/domains/${d.id}`),
    onSuccess: (_, d) => toast(`${d.domain} deleted`),
    // the dialog closes once the domain has left the page
    onSettled: async () => {
      await queries.invalidateQueries({ queryKey: key });
      setDeleting(null);
    },
  });
  return (
    <Page title="Domains">
      <p className="hint">A project sends only from domains it has proved in DNS. Add a domain, publish its records at your DNS host, then re-check.</p>
      {me.deliveryMode === 'capture' && (
        <p className="note">
          Capture mode: nothing is sent, so a domain may be marked verified without DNS to try sending at once. The mark holds in capture mode only; once
          the daemon delivers for real, a DNS check decides.
        </p>
      )}
      {hostname?.problem && (
        <div className="note warning" role="status" aria-label="Hostname">
          <p>
            <strong>The bounce MX and SPF records point at this server's hostname, {hostname.name}:</strong> {hostname.problem}.
          </p>
          <p>{hostname.fix}</p>
        </div>
      )}
      <ErrorNote error={domains.isError ? errorText(domains.error) : remove.isError ? errorText(remove.error) : null} />
      {domains.isPending ? (
        <Skeleton label="Loading domains…" />
      ) : domains.data?.data.length === 0 ? (
        <EmptyState icon="domains">
          <p>No sender domains yet: add the domain your mail comes from below.</p>
        </EmptyState>
      ) : (
        domains.data?.data.map((d) => <DomainSection key={d.id} domain={d} onChecked={put} onDelete={setDeleting} />)
      )}
      <AddDomain onAdded={put} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.domain ?? ''}?`}
        confirmLabel="Delete domain"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p>Mail from this domain stops at once and its DKIM keys are deleted. Adding it again makes new keys, with new records to publish.</p>
      </ConfirmDialog>
    </Page>
  );
}
