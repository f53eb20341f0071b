// Segments (MEMBER): the project's segments with their type and member count, and New segment.
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { segmentsKey, type Segment } from './Segments';
import { Skeleton } from '../ui/Skeleton';
import { EmptyState } from '../ui/EmptyState';

export function SegmentsListPage() {
  const { project } = useSession();
  const navigate = useNavigate();
  const list = useQuery({ queryKey: [...segmentsKey(project?.id), 'list'], queryFn: () => api<{ data: Segment[] }>('GET', '/segments') });
  const rows = list.data?.data ?? [];
  return (
    <Page title="Segments">
      <div className="toolbar">
        <p className="hint">A dynamic segment holds the contacts its condition matches; a static one the contacts added to it.</p>
        <button type="button" onClick={() => navigate('/segments/new')}>
          New segment
        </button>
      </div>
      <ErrorNote error={list.isError ? errorText(list.error) : null} />
      {list.isPending ? (
        <Skeleton label="Loading segments…" />
      ) : rows.length === 0 ? (
        <EmptyState icon="segments">
          <p>No segments yet: make the first one with New segment.</p>
        </EmptyState>
      ) : (
        <table>
          <caption>
            {rows.length} segment{rows.length === 1 ? '' : 's'}, oldest first; member counts are refreshed within minutes of a change
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Members</th>
              <th scope="col">Changed</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id}>
                <th scope="row">
                  <Link to={`/segments/${s.id}`}>{s.name}</Link>
                </th>
                <td>{s.type === 'DYNAMIC' ? 'Dynamic' : 'Static'}</td>
                <td>{s.memberCount}</td>
                <td>{new Date(s.updatedAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
