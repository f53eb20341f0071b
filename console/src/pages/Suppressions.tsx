// Suppressions: addresses no marketing mail reaches after a hard bounce or a spam complaint, with
// the email that caused each; OWNER and ADMIN remove one, saying why (the reason is kept). Contacts
// who unsubscribed are a different thing, listed on the Contacts page.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { allows } from '../roles';
import { useSession } from '../session';
import { Skeleton } from '../ui/Skeleton';

interface Suppression {
  email: string;
  reason: 'bounce' | 'complaint';
  emailId: string | null;
  contactId: string | null;
  createdAt: string;
}

interface Removal {
  id: number;
  email: string;
  reason: string;
  suppressedAt: string;
  removedBy: string;
  note: string;
  removedAt: string;
}

interface Paged<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
}

const REASONS = { bounce: 'Hard bounce', complaint: 'Spam complaint' } as const;

function RemoveForm({ email, onDone, onCancel }: { email: string; onDone(): void; onCancel(): void }) {
  const [reason, setReason] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const remove = useMutation({ mutationFn: () => api('DELETE', `/suppressions/${encodeURIComponent(email)}`, { reason }), onSuccess: onDone });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    remove.mutate();
  };
  return (
    <form onSubmit={submit} className="note" aria-labelledby="remove-heading">
      <h2 id="remove-heading">Remove the suppression of {email}</h2>
      <p>Marketing and campaign mail may reach the address again. The contact stays unsubscribed until it subscribes again.</p>
      <label>
        Reason
        <textarea ref={field} required maxLength={500} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <ErrorNote error={remove.isError ? errorText(remove.error) : null} />
      <div className="row">
        <button type="submit" disabled={remove.isPending || reason.trim() === ''}>
          Remove suppression
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Removals() {
  const { project } = useSession();
  const removals = useQuery({ queryKey: ['suppression-removals', project?.id], queryFn: () => api<Paged<Removal>>('GET', '/suppressions/removals?limit=20') });
  if (removals.isError) return <ErrorNote error={errorText(removals.error)} />;
  if (!removals.data || removals.data.data.length === 0) return null;
  return (
    <section aria-labelledby="removals-heading">
      <h2 id="removals-heading">Removed suppressions</h2>
      <table>
        <caption>The latest removals, with who removed each and why</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Was</th>
            <th scope="col">Removed by</th>
            <th scope="col">When</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {removals.data.data.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.email}</th>
              <td>{REASONS[r.reason as keyof typeof REASONS] ?? r.reason}</td>
              <td>{r.removedBy}</td>
              <td>{new Date(r.removedAt).toLocaleString()}</td>
              <td>{r.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function SuppressionsPage() {
  const { project } = useSession();
  const queries = useQueryClient();
  const canRemove = allows(project?.role, 'ADMIN');
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [reason, setReason] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const query = new URLSearchParams({ limit: '50', ...(applied ? { search: applied } : {}), ...(reason ? { reason } : {}) }).toString();
  const list = useInfiniteQuery({
    queryKey: ['suppressions', project?.id, query],
    queryFn: ({ pageParam }) => api<Paged<Suppression>>('GET', `/suppressions?${query}${pageParam ? `&cursor=${pageParam}` : ''}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasMore ? last.cursor : null),
  });
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Page title="Suppressions">
      <p>
        These addresses hard-bounced or reported mail as spam: campaigns, workflows and marketing mail never go to them; transactional mail (a receipt, a
        password reset) still does. Contacts who unsubscribed are not listed here: see <Link to="/contacts/all?subscribed=false">the unsubscribed contacts</Link>.
      </p>
      <form
        className="row"
        aria-label="Find suppressions"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(search.trim());
        }}
      >
        <label>
          Search by email
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <label>
          Reason
          <select value={reason} onChange={(e) => setReason(e.target.value)}>
            <option value="">Any</option>
            <option value="bounce">{REASONS.bounce}</option>
            <option value="complaint">{REASONS.complaint}</option>
          </select>
        </label>
        <button type="submit">Find</button>
      </form>
      {removed && <p role="status">The suppression of {removed} is removed.</p>}
      {removing && (
        <RemoveForm
          email={removing}
          onCancel={() => setRemoving(null)}
          onDone={() => {
            setRemoved(removing);
            setRemoving(null);
            void queries.invalidateQueries({ queryKey: ['suppressions', project?.id] });
            void queries.invalidateQueries({ queryKey: ['suppression-removals', project?.id] });
          }}
        />
      )}
      <ErrorNote error={list.isError ? errorText(list.error) : null} />
      {list.isPending ? (
        <Skeleton label="Loading suppressions…" />
      ) : rows.length === 0 ? (
        <p>{applied || reason ? 'No suppression matches.' : 'No address is suppressed.'}</p>
      ) : (
        <table>
          <caption>Suppressed addresses, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Reason</th>
              <th scope="col">Since</th>
              {canRemove && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.email}>
                <th scope="row">{s.contactId ? <Link to={`/contacts/${s.contactId}`}>{s.email}</Link> : s.email}</th>
                <td>{REASONS[s.reason]}</td>
                <td>{new Date(s.createdAt).toLocaleString()}</td>
                {canRemove && (
                  <td>
                    <button type="button" className="secondary" onClick={() => setRemoving(s.email)}>
                      Remove<span className="visually-hidden"> the suppression of {s.email}</span>
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <button type="button" className="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          Show more
        </button>
      )}
      <Removals />
    </Page>
  );
}
