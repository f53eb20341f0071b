// The live members of a condition being edited: POST /segments/preview (nothing saved) once typing
// pauses, the exact count announced and the newest members listed. A condition the API refuses
// hands its problems to the filter builder, which shows each at its condition.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { api, ApiFailure, errorText, type FieldProblem } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { problemsWithin, type FilterCondition } from '../ui/FilterBuilder';
import { useDebounced } from '../ui/useDebounced';
import type { Contact } from './ContactsTypes';

interface Preview {
  count: number;
  sample: Contact[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function SegmentPreview({ condition, segmentId, onProblems }: { condition: FilterCondition; segmentId?: string; onProblems(problems: FieldProblem[]): void }) {
  const { project } = useSession();
  // a string, so the debounced value stays equal while nothing changes
  const settled = useDebounced(JSON.stringify({ condition, segmentId }), 400);
  const preview = useQuery({
    queryKey: ['segments', project?.id, 'preview', settled],
    queryFn: () => api<Preview>('POST', '/segments/preview', JSON.parse(settled) as unknown),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const refused = preview.error instanceof ApiFailure && preview.error.status === 422 && preview.error.fields.length > 0 ? preview.error : null;
  const problems = refused ? problemsWithin(refused.fields, 'condition') : [];
  const problemsKey = JSON.stringify(problems);
  useEffect(() => onProblems(JSON.parse(problemsKey) as FieldProblem[]), [problemsKey, onProblems]);
  const pending = settled !== JSON.stringify({ condition, segmentId }) || preview.isFetching;
  const data = preview.isError ? null : preview.data;
  return (
    <section aria-labelledby="members-now-heading" className="preview">
      <h2 id="members-now-heading">Members now</h2>
      <p role="status" className="count">
        {pending
          ? 'Counting…'
          : refused
            ? `Not counted: the condition has ${plural(problems.length, 'problem', 'problems')}, shown at ${problems.length === 1 ? 'its place' : 'their places'}.`
            : data
              ? `${plural(data.count, 'contact matches', 'contacts match')}`
              : ''}
      </p>
      {!refused && <ErrorNote error={preview.isError ? errorText(preview.error) : null} />}
      {data && data.sample.length > 0 && (
        <table>
          <caption>{data.count > data.sample.length ? `The ${data.sample.length} newest of them` : 'All of them, newest first'}</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Subscribed</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {data.sample.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <Link to={`/contacts/${c.id}`}>{c.email}</Link>
                </th>
                <td>{c.subscribed ? 'yes' : 'no'}</td>
                <td>{new Date(c.createdAt).toLocaleDateString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
