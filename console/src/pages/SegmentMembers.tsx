// The members of a static segment: a page of them with Remove on each, contacts found by email and
// added one by one, and a CSV file of addresses added or removed in batches of the API's 1000.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiFailure, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { emailsOfCsv } from '../ui/csvEmails';
import { useDebounced } from '../ui/useDebounced';
import type { Contact, ContactPage } from './ContactsTypes';
import { segmentsKey, type Segment } from './Segments';
import { Pager } from '../ui/Pager';

const PAGE_SIZE = 20;
/** The API's bound on the emails of one add or remove. */
const BATCH = 1000;

interface MembersPage {
  data: Contact[];
  total: number;
  page: number;
  totalPages: number;
}

/** Sends one batch; addresses the API refuses as such (422 at `emails.N`) are set aside and the rest sent again. */
async function sendBatch<R>(emails: string[], send: (emails: string[]) => Promise<R>): Promise<{ result: R | null; refused: string[] }> {
  try {
    return { result: await send(emails), refused: [] };
  } catch (err) {
    const bad = err instanceof ApiFailure && err.status === 422 ? err.fields.flatMap((f) => (/^emails\.\d+$/.test(f.field) ? [Number(f.field.slice(7))] : [])) : [];
    if (bad.length === 0) throw err;
    const rest = emails.filter((_, i) => !bad.includes(i));
    const refused = emails.filter((_, i) => bad.includes(i));
    return { result: rest.length > 0 ? await send(rest) : null, refused };
  }
}

interface CsvOutcome {
  action: 'add' | 'remove';
  total: number;
  changed: number;
  created: number;
  notFound: string[];
  refused: string[];
  skippedRows: number[];
}

function CsvMembers({ segment, onChanged }: { segment: Segment; onChanged(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [createMissing, setCreateMissing] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const run = useMutation({
    mutationFn: async (action: 'add' | 'remove'): Promise<CsvOutcome> => {
      const { emails, skipped } = emailsOfCsv(await file!.text());
      const outcome: CsvOutcome = { action, total: emails.length, changed: 0, created: 0, notFound: [], refused: [], skippedRows: skipped };
      setProgress({ done: 0, total: emails.length });
      try {
        for (let at = 0; at < emails.length; at += BATCH) {
          const batch = emails.slice(at, at + BATCH);
          if (action === 'add') {
            const { result, refused } = await sendBatch(batch, (list) =>
              api<{ added: number; created: number; notFound: string[] }>('POST', `/segments/${segment.id}/members`, { emails: list, createMissing }),
            );
            outcome.changed += result?.added ?? 0;
            outcome.created += result?.created ?? 0;
            outcome.notFound.push(...(result?.notFound ?? []));
            outcome.refused.push(...refused);
          } else {
            const { result, refused } = await sendBatch(batch, (list) => api<{ removed: number }>('DELETE', `/segments/${segment.id}/members`, { emails: list }));
            outcome.changed += result?.removed ?? 0;
            outcome.refused.push(...refused);
          }
          setProgress({ done: at + batch.length, total: emails.length });
        }
      } finally {
        onChanged();
      }
      return outcome;
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (file) run.mutate(submitter?.value === 'remove' ? 'remove' : 'add');
  };
  const o = run.data;
  return (
    <section aria-labelledby="csv-heading">
      <h2 id="csv-heading">Add or remove by CSV</h2>
      <p className="hint">
        A CSV file of addresses: its <code>email</code> column when the first line names one, else the first cell of each row that holds an address. Sent in
        batches of {BATCH}.
      </p>
      <form onSubmit={submit} className="row">
        <label>
          CSV file of addresses
          <input type="file" accept=".csv,.txt,text/csv,text/plain" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={createMissing} onChange={(e) => setCreateMissing(e.target.checked)} />
          Make contacts of addresses that are not contacts yet (subscribed)
        </label>
        <button type="submit" value="add" disabled={!file || run.isPending}>
          Add from file
        </button>
        <button type="submit" value="remove" className="quiet" disabled={!file || run.isPending}>
          Remove from file
        </button>
      </form>
      {progress && run.isPending && (
        <div className="job">
          <progress max={progress.total} value={progress.done} aria-label="Members sent" />
          <span>
            {progress.done} of {progress.total}
          </span>
        </div>
      )}
      <ErrorNote error={run.isError ? errorText(run.error) : null} />
      {o && (
        <div role="status">
          <p>
            {o.action === 'add'
              ? `${o.total} addresses: ${o.changed} added, ${o.created} contacts made, ${o.notFound.length} not contacts of the project.`
              : `${o.total} addresses: ${o.changed} removed; the others were not members.`}
          </p>
          {o.notFound.length > 0 && <p>Not contacts: {o.notFound.slice(0, 20).join(', ')}{o.notFound.length > 20 ? ` and ${o.notFound.length - 20} more` : ''}.</p>}
          {o.refused.length > 0 && <p>Refused as addresses: {o.refused.slice(0, 20).join(', ')}.</p>}
          {o.skippedRows.length > 0 && <p>Rows without an address: {o.skippedRows.slice(0, 20).join(', ')}{o.skippedRows.length > 20 ? '…' : ''}.</p>}
        </div>
      )}
    </section>
  );
}

function AddContact({ segment, onChanged }: { segment: Segment; onChanged(): void }) {
  const { project } = useSession();
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim(), 300);
  const found = useQuery({
    queryKey: ['contacts', project?.id, 'search', settled],
    queryFn: () => api<ContactPage>('GET', `/contacts?limit=10&search=${encodeURIComponent(settled)}`),
    enabled: settled !== '',
  });
  const add = useMutation({
    mutationFn: (email: string) => api<{ added: number }>('POST', `/segments/${segment.id}/members`, { emails: [email] }),
    onSuccess: onChanged,
  });
  return (
    <section aria-labelledby="add-heading">
      <h2 id="add-heading">Add contacts</h2>
      <label>
        Find contacts to add
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="part of an email address" />
      </label>
      <p role="status" className="hint">
        {settled === '' ? '' : found.isFetching ? 'Searching…' : `${found.data?.data.length ?? 0} found`}
        {add.isSuccess ? ` ${add.variables} ${add.data.added === 1 ? 'added' : 'was a member already'}.` : ''}
      </p>
      <ErrorNote error={found.isError ? errorText(found.error) : add.isError ? errorText(add.error) : null} />
      {found.data && found.data.data.length > 0 && (
        <ul className="found">
          {found.data.data.map((c) => (
            <li key={c.id}>
              {c.email}{' '}
              <button type="button" className="quiet" disabled={add.isPending} aria-label={`Add ${c.email}`} onClick={() => add.mutate(c.email)}>
                Add
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SegmentMembers({ segment }: { segment: Segment }) {
  const { project } = useSession();
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const members = useQuery({
    queryKey: [...segmentsKey(project?.id), 'members', segment.id, page],
    queryFn: () => api<MembersPage>('GET', `/segments/${segment.id}/contacts?page=${page}&pageSize=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
  const changed = () => void queries.invalidateQueries({ queryKey: segmentsKey(project?.id) });
  const remove = useMutation({
    mutationFn: (email: string) => api<{ removed: number }>('DELETE', `/segments/${segment.id}/members`, { emails: [email] }),
    onSuccess: changed,
  });
  const rows = members.data?.data ?? [];
  return (
    <>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <p role="status">
          {members.isPending ? 'Loading members…' : members.data ? `${members.data.total} ${members.data.total === 1 ? 'member' : 'members'}` : ''}
          {remove.isSuccess ? `; ${remove.variables} removed.` : ''}
        </p>
        <ErrorNote error={members.isError ? errorText(members.error) : remove.isError ? errorText(remove.error) : null} />
        {rows.length > 0 && (
          <table>
            <caption>Members of {segment.name}, newest contacts first</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Subscribed</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link to={`/contacts/${c.id}`}>{c.email}</Link>
                  </th>
                  <td>{c.subscribed ? 'yes' : 'no'}</td>
                  <td>
                    <button type="button" className="quiet" disabled={remove.isPending} aria-label={`Remove ${c.email} from the segment`} onClick={() => remove.mutate(c.email)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {members.data && <Pager label="Pages of members" page={members.data.page} totalPages={members.data.totalPages} onPage={setPage} />}
      </section>
      <AddContact segment={segment} onChanged={changed} />
      <CsvMembers segment={segment} onChanged={changed} />
    </>
  );
}
