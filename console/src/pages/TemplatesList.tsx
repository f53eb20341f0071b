// Templates (MEMBER): the project's templates, searched, filtered by type and paged; new,
// duplicate and delete (a template a workflow step uses is refused with 409, shown as such).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ApiFailure, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useDebounced } from '../ui/useDebounced';
import { TEMPLATE_TYPES, templatesKey, type Template, type TemplatePage, type TemplateType } from './Templates';
import { Pager } from '../ui/Pager';
import { Skeleton } from '../ui/Skeleton';
import { EmptyState } from '../ui/EmptyState';
import { useToast } from '../ui/Toasts';

const PAGE_SIZE = 20;

export function TemplatesListPage() {
  const { project } = useSession();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TemplateType | ''>('');
  const [page, setPage] = useState(1);
  const settledSearch = useDebounced(search.trim(), 300);
  const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), sort: 'updatedAt', dir: 'desc' });
  if (settledSearch) params.set('search', settledSearch);
  if (type) params.set('type', type);
  const list = useQuery({
    queryKey: [...templatesKey(project?.id), 'list', params.toString()],
    queryFn: () => api<TemplatePage>('GET', `/templates?${params}`),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: templatesKey(project?.id) });
  const duplicate = useMutation({
    mutationFn: (t: Template) => api<{ id: string }>('POST', `/templates/${t.id}/duplicate`),
    onSuccess: ({ id }) => {
      void refresh();
      navigate(`/templates/${id}`);
    },
  });
  const [deleting, setDeleting] = useState<Template | null>(null);
  const toast = useToast();
  const remove = useMutation({
    mutationFn: (t: Template) => api('DELETE', `/templates/${t.id}`),
    onSuccess: (_, t) => toast(`Template ${t.name} deleted`),
    // the dialog closes once the template has left the list
    onSettled: async () => {
      await refresh();
      setDeleting(null);
    },
  });
  const removeFailure = remove.isError
    ? remove.error instanceof ApiFailure && remove.error.status === 409
      ? `${remove.variables?.name ?? 'The template'} is in use and was not deleted: ${remove.error.message}.`
      : errorText(remove.error)
    : null;
  const rows = list.data?.data ?? [];
  const filtered = settledSearch !== '' || type !== '';
  return (
    <Page title="Templates">
      <div className="toolbar">
        <label>
          Search templates
          <input
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </label>
        <label>
          Type
          <select
            value={type}
            onChange={(e) => {
              setType(e.target.value as TemplateType | '');
              setPage(1);
            }}
          >
            <option value="">All types</option>
            {TEMPLATE_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <Link className="button" to="/templates/new">
          New template
        </Link>
      </div>
      <ErrorNote error={list.isError ? errorText(list.error) : duplicate.isError ? errorText(duplicate.error) : removeFailure} />
      {list.isPending ? (
        <Skeleton label="Loading templates…" />
      ) : rows.length === 0 ? (
        <EmptyState icon="templates">
          <p>{filtered ? 'No template matches.' : 'No templates yet: make the first one with New template.'}</p>
        </EmptyState>
      ) : (
        <table>
          <caption>
            {list.data!.total} template{list.data!.total === 1 ? '' : 's'}
            {filtered ? ' found' : ''}, most recently changed first
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Subject</th>
              <th scope="col">Changed</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={t.id}>
                <th scope="row">
                  <Link to={`/templates/${t.id}`}>{t.name}</Link>
                </th>
                <td>{t.type}</td>
                <td>{t.subject}</td>
                <td>{new Date(t.updatedAt).toLocaleString()}</td>
                <td>
                  <div className="actions">
                    <button type="button" className="quiet" disabled={duplicate.isPending} onClick={() => duplicate.mutate(t)} aria-label={`Duplicate ${t.name}`}>
                      Duplicate
                    </button>
                    <button type="button" className="quiet" onClick={() => setDeleting(t)} aria-label={`Delete ${t.name}`}>
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager label="Pages of templates" page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        confirmLabel="Delete template"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p>The template is gone for good; emails already sent with it stay in the log. A template a workflow step sends cannot be deleted.</p>
      </ConfirmDialog>
    </Page>
  );
}
