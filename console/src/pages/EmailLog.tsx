// A page of the email log (GET /emails, newest first) as a table, with "Load more" for the next
// cursor page: the Messages page and the Outbox show it, each row linking to their own page of it.
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { logQuery, when, type Email, type EmailPage, type LogFilters } from './Emails';
import { Skeleton } from '../ui/Skeleton';
import { StatusBadge } from '../ui/StatusBadge';

const PAGE = 25;

interface Props {
  filters: LogFilters;
  caption: string;
  linkOf(e: Email): string;
  /** What the status says when no email matches. */
  empty: string;
  /** Ask again this often (the Outbox follows new mail); never when absent. */
  refetchMs?: number;
}

export function EmailLog({ filters, caption, linkOf, empty, refetchMs }: Props) {
  const { project } = useSession();
  const query = logQuery(filters, PAGE, null);
  const log = useInfiniteQuery({
    queryKey: ['emails', project?.id, query],
    queryFn: ({ pageParam }) => api<EmailPage>('GET', `/emails?${logQuery(filters, PAGE, pageParam)}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasMore ? last.cursor : null),
    refetchInterval: refetchMs ?? false,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  if (log.isPending) return <Skeleton label="Loading emails…" />;
  if (log.isError) return <ErrorNote error={errorText(log.error)} />;
  return (
    <>
      <p role="status">{rows.length === 0 ? empty : `${rows.length}${log.hasNextPage ? '+' : ''} ${rows.length === 1 && !log.hasNextPage ? 'email' : 'emails'}`}</p>
      {rows.length > 0 && (
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Recipient</th>
              <th scope="col">Subject</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Opens</th>
              <th scope="col">Clicks</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id}>
                <th scope="row">
                  <Link to={linkOf(e)}>{e.to}</Link>
                </th>
                <td>{e.subject}</td>
                <td>
                  <StatusBadge status={e.status} />
                </td>
                <td>
                  <time dateTime={e.createdAt}>{when(e.createdAt)}</time>
                </td>
                <td>{e.opens}</td>
                <td>{e.clicks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {log.hasNextPage && (
        <button type="button" className="secondary" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
          {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
