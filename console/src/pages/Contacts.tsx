// Contacts: the project's contacts, searched, filtered (subscription, a data field through the
// filter engine), sorted and paged by cursor, their data fields as columns (the most common, or the
// viewer's choice), values formatted by type; select some to subscribe, unsubscribe or delete them
// in bulk with live progress.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { ExportCsvButton } from '../ui/ExportCsvButton';
import { useSession } from '../session';
import { ContactsBulk } from './ContactsBulk';
import type { ContactPage } from './ContactsTypes';
import type { FieldType } from '../ui/filterModel';
import { Skeleton } from '../ui/Skeleton';
import { ColumnChooser, useDataColumns } from './contacts/DataColumns';
import { useDataFields } from './contacts/useDataFields';
import { formatMoment, formatValue, keyOf, yesNo } from './contacts/values';
import './contacts/contacts.css';

const SORTS = {
  newest: { sort: 'createdAt', dir: 'desc', label: 'Newest first' },
  oldest: { sort: 'createdAt', dir: 'asc', label: 'Oldest first' },
  'email-asc': { sort: 'email', dir: 'asc', label: 'Email A to Z' },
  'email-desc': { sort: 'email', dir: 'desc', label: 'Email Z to A' },
} as const;
type SortKey = keyof typeof SORTS;

const OPERATORS = [
  ['equals', 'equals'],
  ['notEquals', 'does not equal'],
  ['contains', 'contains'],
  ['greaterThan', 'is greater than'],
  ['lessThan', 'is less than'],
  ['exists', 'is set'],
  ['notExists', 'is not set'],
] as const;
const NO_VALUE = new Set(['exists', 'notExists']);

/** A typed value: numbers and true/false as such, anything else as text. */
const valueOf = (text: string): unknown => (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text === 'true' ? true : text === 'false' ? false : text);

/** The page's state lives in the address (shareable, kept on back). */
function useListParams() {
  const [params, setParams] = useSearchParams();
  const sort = (params.get('sort') ?? 'newest') as SortKey;
  return {
    search: params.get('search') ?? '',
    subscribed: params.get('subscribed') ?? '',
    field: params.get('field') ?? '',
    operator: params.get('operator') ?? 'equals',
    value: params.get('value') ?? '',
    sort: sort in SORTS ? sort : 'newest',
    set(next: Record<string, string>) {
      const merged = new URLSearchParams(params);
      for (const [k, v] of Object.entries(next)) v ? merged.set(k, v) : merged.delete(k);
      setParams(merged);
    },
  };
}

function queryOf(p: ReturnType<typeof useListParams>, cursor: string | null): string {
  const q = new URLSearchParams({ limit: '50', sort: SORTS[p.sort].sort, dir: SORTS[p.sort].dir });
  if (p.search) q.set('search', p.search);
  if (p.subscribed) q.set('subscribed', p.subscribed);
  if (p.field) {
    const filter = NO_VALUE.has(p.operator) ? { field: `data.${p.field}`, operator: p.operator } : { field: `data.${p.field}`, operator: p.operator, value: valueOf(p.value) };
    q.set('where', JSON.stringify({ logic: 'AND', groups: [{ filters: [filter] }] }));
  }
  if (cursor) q.set('cursor', cursor);
  return q.toString();
}

function Filters({ p }: { p: ReturnType<typeof useListParams> }) {
  const [search, setSearch] = useState(p.search);
  const [field, setField] = useState(p.field);
  const [operator, setOperator] = useState(p.operator);
  const [value, setValue] = useState(p.value);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    p.set({ search, field: field.trim(), operator, value });
  };
  return (
    <form onSubmit={submit} className="filters" aria-label="Find contacts">
      <label>
        Search by email
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      <label>
        Subscription
        <select value={p.subscribed} onChange={(e) => p.set({ subscribed: e.target.value })}>
          <option value="">All</option>
          <option value="true">Subscribed</option>
          <option value="false">Unsubscribed</option>
        </select>
      </label>
      <fieldset className="row">
        <legend>Data field</legend>
        <label>
          Field name
          <input value={field} onChange={(e) => setField(e.target.value)} placeholder="plan" />
        </label>
        <label>
          Operator
          <select value={operator} onChange={(e) => setOperator(e.target.value)}>
            {OPERATORS.map(([op, text]) => (
              <option key={op} value={op}>
                {text}
              </option>
            ))}
          </select>
        </label>
        {!NO_VALUE.has(operator) && (
          <label>
            Value
            <input value={value} onChange={(e) => setValue(e.target.value)} />
          </label>
        )}
      </fieldset>
      <label>
        Sort
        <select value={p.sort} onChange={(e) => p.set({ sort: e.target.value })}>
          {Object.entries(SORTS).map(([key, s]) => (
            <option key={key} value={key}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        <button type="submit">Find</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setSearch('');
            setField('');
            setValue('');
            p.set({ search: '', subscribed: '', field: '', operator: '', value: '' });
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}

/** A cell shows this much of a long value; the contact's page shows all of it. */
const CELL_CHARACTERS = 80;

/** One data value: numbers aligned for comparing, objects and arrays as compact JSON. */
function DataCell({ value, type }: { value: unknown; type: FieldType }) {
  const kind = typeof value === 'number' ? 'number' : value !== null && typeof value === 'object' ? 'json' : undefined;
  const text = formatValue(value, type);
  return <td className={kind}>{text.length > CELL_CHARACTERS ? `${text.slice(0, CELL_CHARACTERS - 1)}…` : text}</td>;
}

export function ContactsPage() {
  const { project } = useSession();
  const queries = useQueryClient();
  const p = useListParams();
  // the cursors of the pages before this one, to go back
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const cursor = cursors[cursors.length - 1] ?? null;
  const query = queryOf(p, null);
  const key = ['contacts', project?.id, query, cursor];
  const list = useQuery({ queryKey: key, queryFn: () => api<ContactPage>('GET', `/contacts?${queryOf(p, cursor)}`) });
  const [lastQuery, setLastQuery] = useState(query);
  if (lastQuery !== query) {
    // new filters start from the first page with nothing selected
    setLastQuery(query);
    setCursors([null]);
    setSelected(new Set());
  }
  const rows = list.data?.data ?? [];
  const toggle = (id: string) => setSelected((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  const allSelected = rows.length > 0 && rows.every((c) => selected.has(c.id));
  const fields = useDataFields();
  const columns = useDataColumns(project?.id ?? '', fields.data);
  return (
    <Page title="Contacts">
      <ExportCsvButton fileName="contacts.csv" label="Export CSV" />
      <Filters p={p} />
      <ErrorNote error={list.isError ? errorText(list.error) : fields.query.isError ? errorText(fields.query.error) : null} />
      <ContactsBulk
        ids={[...selected]}
        onDone={() => {
          setSelected(new Set());
          void queries.invalidateQueries({ queryKey: ['contacts', project?.id] });
        }}
      />
      {list.isPending ? (
        <Skeleton label="Loading contacts…" />
      ) : (
        list.data && (
          <>
            <p role="status">{cursors.length === 1 ? `${list.data.total} contacts` : `Page ${cursors.length}`}</p>
            <ColumnChooser fields={fields.data} columns={columns} />
            {rows.length === 0 ? (
              <p>No contact matches. {p.search || p.field || p.subscribed ? 'Clear the filters to see every contact.' : 'Add contacts through the API or import a CSV file.'}</p>
            ) : (
              <div className="contacts-table">
                <table>
                  <caption>Contacts of {project?.name}</caption>
                  <thead>
                    <tr>
                      <th scope="col">
                        <input type="checkbox" aria-label="Select all on this page" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((c) => c.id)))} />
                      </th>
                      <th scope="col">Email</th>
                      <th scope="col">Subscribed</th>
                      {columns.shown.map((f) => (
                        <th key={f.field} scope="col">
                          {keyOf(f.field)}
                        </th>
                      ))}
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((c) => (
                      <tr key={c.id}>
                        <td>
                          <input type="checkbox" aria-label={`Select ${c.email}`} checked={selected.has(c.id)} onChange={() => toggle(c.id)} />
                        </td>
                        <th scope="row">
                          <Link to={`/contacts/${c.id}`}>{c.email}</Link>
                        </th>
                        <td>{yesNo(c.subscribed)}</td>
                        {columns.shown.map((f) => (
                          <DataCell key={f.field} value={c.data[keyOf(f.field)]} type={f.type} />
                        ))}
                        <td>{formatMoment(c.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <nav aria-label="Pages" className="row">
              <button type="button" className="secondary" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
                Previous page
              </button>
              <button type="button" className="secondary" disabled={!list.data.hasMore} onClick={() => setCursors((c) => [...c, list.data.cursor])}>
                Next page
              </button>
            </nav>
          </>
        )
      )}
    </Page>
  );
}
