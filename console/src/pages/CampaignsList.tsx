// Campaigns (MEMBER): the project's campaigns, newest first, searched, filtered by status and paged,
// each with its audience, its counts and when it was made, scheduled or sent; New campaign.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { useDebounced } from '../ui/useDebounced';
import { audienceLabel, CAMPAIGN_STATUSES, campaignsKey, type Campaign, type CampaignPage, type CampaignStatus } from './Campaigns';
import { useSegments } from './CampaignsAudience';
import { Pager } from '../ui/Pager';
import { Skeleton } from '../ui/Skeleton';
import { EmptyState } from '../ui/EmptyState';
import { StatusBadge } from '../ui/StatusBadge';

const PAGE_SIZE = 20;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** The moment that matters now: when it is due, when it started, or nothing yet. */
function timing(c: Campaign): string {
  if (c.status === 'SCHEDULED') return `Scheduled for ${when(c.scheduledFor)}`;
  if (c.sentAt) return `Sent ${when(c.sentAt)}`;
  return '—';
}

export function CampaignsListPage() {
  const { project } = useSession();
  const navigate = useNavigate();
  const segments = useSegments();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<CampaignStatus | ''>('');
  const [page, setPage] = useState(1);
  const settledSearch = useDebounced(search.trim(), 300);
  const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), sort: 'createdAt', dir: 'desc' });
  if (settledSearch) params.set('search', settledSearch);
  if (status) params.set('status', status);
  const list = useQuery({
    queryKey: [...campaignsKey(project?.id), 'list', params.toString()],
    queryFn: () => api<CampaignPage>('GET', `/campaigns?${params}`),
    placeholderData: keepPreviousData,
    // counts move while a campaign sends
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.status === 'SENDING') ? 5000 : false),
  });
  const rows = list.data?.data ?? [];
  const filtered = settledSearch !== '' || status !== '';
  return (
    <Page title="Campaigns">
      <div className="toolbar">
        <label>
          Search campaigns
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
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as CampaignStatus | '');
              setPage(1);
            }}
          >
            <option value="">All statuses</option>
            {CAMPAIGN_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => navigate('/campaigns/new')}>
          New campaign
        </button>
      </div>
      <ErrorNote error={list.isError ? errorText(list.error) : null} />
      {list.isPending ? (
        <Skeleton label="Loading campaigns…" />
      ) : rows.length === 0 ? (
        <EmptyState icon="campaigns">
          <p>{filtered ? 'No campaign matches.' : 'No campaigns yet: make the first one with New campaign.'}</p>
        </EmptyState>
      ) : (
        <table>
          <caption>
            {list.data!.total} campaign{list.data!.total === 1 ? '' : 's'}
            {filtered ? ' found' : ''}, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Audience</th>
              <th scope="col">Recipients</th>
              <th scope="col">Delivered</th>
              <th scope="col">Bounced</th>
              <th scope="col">Created</th>
              <th scope="col">Scheduled or sent</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
                </th>
                <td>
                  <StatusBadge status={c.status} />
                </td>
                <td>{audienceLabel(c, segments.data?.data)}</td>
                <td>{c.status === 'DRAFT' ? '—' : c.totalRecipients.toLocaleString()}</td>
                <td>{c.deliveredCount.toLocaleString()}</td>
                <td>{c.bouncedCount.toLocaleString()}</td>
                <td>{when(c.createdAt)}</td>
                <td>{timing(c)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager label="Pages of campaigns" page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />}
    </Page>
  );
}
