// One campaign's page (MEMBER): the composer while it is a DRAFT or SCHEDULED, its progress and
// content once it sends; a link to its analytics. `/campaigns/new` composes a new one.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, NavLink, useParams } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { audienceLabel, campaignsKey, type Campaign } from './Campaigns';
import { useSegments } from './CampaignsAudience';
import { CampaignsComposer } from './CampaignsComposer';
import { CampaignsProgress } from './CampaignsProgress';
import { Skeleton } from '../ui/Skeleton';

function Tabs({ campaign }: { campaign: Campaign }) {
  return (
    <nav aria-label="Campaign" className="subnav">
      <ul>
        <li>
          <NavLink to={`/campaigns/${campaign.id}`} end>
            Campaign
          </NavLink>
        </li>
        <li>
          <NavLink to={`/campaigns/${campaign.id}/analytics`}>Analytics</NavLink>
        </li>
      </ul>
    </nav>
  );
}

/** What was sent, once it can no longer change. */
function Sent({ campaign }: { campaign: Campaign }) {
  const segments = useSegments();
  return (
    <section aria-labelledby="content-heading">
      <h2 id="content-heading">What was sent</h2>
      <dl>
        <dt>Subject</dt>
        <dd>{campaign.subject}</dd>
        {campaign.previewText && (
          <>
            <dt>Preview text</dt>
            <dd>{campaign.previewText}</dd>
          </>
        )}
        <dt>From</dt>
        <dd>{campaign.fromName ? `${campaign.fromName} <${campaign.from}>` : campaign.from}</dd>
        <dt>Audience</dt>
        <dd>{audienceLabel(campaign, segments.data?.data)}</dd>
        <dt>Started</dt>
        <dd>{campaign.sentAt ? new Date(campaign.sentAt).toLocaleString() : '—'}</dd>
      </dl>
      <details>
        <summary>HTML body</summary>
        <pre className="source">{campaign.body}</pre>
      </details>
    </section>
  );
}

export function CampaignsPage() {
  const { project } = useSession();
  const queries = useQueryClient();
  const { id } = useParams();
  const isNew = id === 'new';
  const key = [...campaignsKey(project?.id), 'one', id];
  const campaign = useQuery({
    queryKey: key,
    queryFn: () => api<Campaign>('GET', `/campaigns/${id}`),
    enabled: !isNew,
    // the composer keeps what is typed: a refetch must not replace it
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const saved = useCallback((c: Campaign) => queries.setQueryData([...campaignsKey(project?.id), 'one', c.id], c), [queries, project?.id]);
  const changed = useCallback(() => void queries.invalidateQueries({ queryKey: campaignsKey(project?.id) }), [queries, project?.id]);

  if (isNew)
    return (
      <Page title="New campaign">
        <p>
          <Link to="/campaigns">All campaigns</Link>
        </p>
        <CampaignsComposer key="new" saved={null} onSaved={saved} />
      </Page>
    );
  if (campaign.isPending) return <Skeleton label="Loading the campaign…" />;
  if (campaign.isError)
    return (
      <Page title="Campaign">
        <ErrorNote error={errorText(campaign.error)} />
        <Link to="/campaigns">All campaigns</Link>
      </Page>
    );
  const c = campaign.data;
  const editable = c.status === 'DRAFT' || c.status === 'SCHEDULED';
  return (
    <Page title={`Campaign: ${c.name}`}>
      <p>
        <Link to="/campaigns">All campaigns</Link> · Status: <strong>{c.status}</strong>
      </p>
      <Tabs campaign={c} />
      {editable ? (
        <CampaignsComposer key={c.id} saved={c} onSaved={saved} />
      ) : (
        <>
          <CampaignsProgress campaign={c} onChanged={changed} />
          <Sent campaign={c} />
        </>
      )}
    </Page>
  );
}
