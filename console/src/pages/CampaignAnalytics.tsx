// A campaign's analytics (MEMBER): its results (counts and rates), its outcomes over time from the
// send (chart and table), the links clicked and the results by recipient domain. While it sends,
// the page asks again every few seconds.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { LineChart, METRIC_COLORS } from '../ui/LineChart';
import {
  BUCKETS,
  bucketQuery,
  isLive,
  OUTCOME_LABELS,
  OUTCOMES,
  RESULT_ROWS,
  utc,
  type Analytics,
  type Bucket,
  type CampaignCounts,
  type CampaignSummary,
  type SeriesPoint,
} from './CampaignAnalyticsTypes';
import { Skeleton } from '../ui/Skeleton';

const LIVE_MS = 5000;
const SETTLED_MS = 60_000;

function Results({ stats }: { stats: CampaignCounts }) {
  return (
    <>
      <table className="results">
        <caption>Results</caption>
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col">Count</th>
            <th scope="col">Rate</th>
          </tr>
        </thead>
        <tbody>
          {RESULT_ROWS.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>{stats[r.count]}</td>
              <td>{r.rate ? `${stats[r.rate]}%` : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Delivery and bounce rates are of the mail sent; open, click, unsubscribe and complaint rates of the mail delivered. A message that bounces
        after it was delivered (a bounce report that comes back later) counts as delivered and as bounced, so the two can add up to more than what was sent.
      </p>
    </>
  );
}

function OverTime({ series }: { series: SeriesPoint[] }) {
  if (series.length === 0) return <p>Nothing yet: the series starts when the campaign is sent.</p>;
  return (
    <>
      <LineChart
        xLabels={series.map((p) => `${p.at.slice(5, 10)} ${p.at.slice(11, 13)}h`)}
        lines={OUTCOMES.map((m) => ({ name: OUTCOME_LABELS[m], color: METRIC_COLORS[m], values: series.map((p) => p[m]) }))}
        label={`Outcomes from ${utc(series[0]!.at)} to ${utc(series[series.length - 1]!.at)}; the table below has the numbers`}
      />
      <details>
        <summary>Each period as a table</summary>
        <table>
          <caption>Outcomes per period (UTC, from the start of each)</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              {OUTCOMES.map((m) => (
                <th key={m} scope="col">
                  {OUTCOME_LABELS[m]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.map((p) => (
              <tr key={p.at}>
                <th scope="row">{utc(p.at)}</th>
                {OUTCOMES.map((m) => (
                  <td key={m}>{p[m]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

function Links({ links }: { links: Analytics['links'] }) {
  if (links.length === 0) return <p>No link clicked yet.</p>;
  return (
    <table>
      <caption>Links clicked, the most clicked first</caption>
      <thead>
        <tr>
          <th scope="col">Link</th>
          <th scope="col">Clicks</th>
          <th scope="col">Unique clicks</th>
        </tr>
      </thead>
      <tbody>
        {links.map((l) => (
          <tr key={l.url}>
            <th scope="row" className="url">
              {l.url}
            </th>
            <td>{l.clicks}</td>
            <td>{l.uniqueClicks}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Domains({ domains }: { domains: Analytics['domains'] }) {
  if (domains.length === 0) return <p>No outcome yet.</p>;
  return (
    <table>
      <caption>Results by recipient domain, the most outcomes first</caption>
      <thead>
        <tr>
          <th scope="col">Domain</th>
          <th scope="col">Delivered</th>
          <th scope="col">Deferred</th>
          <th scope="col">Bounced</th>
          <th scope="col">Complaints</th>
        </tr>
      </thead>
      <tbody>
        {domains.map((d) => (
          <tr key={d.domain}>
            <th scope="row">{d.domain}</th>
            <td>{d.delivered}</td>
            <td>{d.deferred}</td>
            <td>{d.bounced}</td>
            <td>{d.complained}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CampaignAnalyticsPage() {
  const { id = '' } = useParams();
  const { project } = useSession();
  const [bucket, setBucket] = useState<Bucket>('auto');
  const campaign = useQuery({ queryKey: ['campaign', project?.id, id], queryFn: () => api<CampaignSummary>('GET', `/campaigns/${id}`), refetchInterval: (q) => (isLive(q.state.data?.status) ? LIVE_MS : SETTLED_MS) });
  const every = isLive(campaign.data?.status) ? LIVE_MS : SETTLED_MS;
  const stats = useQuery({ queryKey: ['campaign-stats', project?.id, id], queryFn: () => api<{ data: CampaignCounts }>('GET', `/campaigns/${id}/stats`), refetchInterval: every });
  const analytics = useQuery({
    queryKey: ['campaign-analytics', project?.id, id, bucket],
    queryFn: () => api<Analytics>('GET', `/campaigns/${id}/analytics?${bucketQuery(bucket)}`),
    refetchInterval: every,
  });
  const c = campaign.data;
  return (
    <Page title={c ? `Analytics: ${c.name}` : 'Campaign analytics'}>
      <ErrorNote error={campaign.isError ? errorText(campaign.error) : stats.isError ? errorText(stats.error) : analytics.isError ? errorText(analytics.error) : null} />
      {c && (
        <p>
          Subject <q>{c.subject}</q>. Status {c.status.toLowerCase()}
          {c.sentAt ? `, the send began ${utc(c.sentAt)}` : ', not sent yet'}. <Link to={`/campaigns/compare?ids=${c.id}`}>Compare with other campaigns</Link>
        </p>
      )}
      {stats.isPending ? <Skeleton label="Loading the results…" /> : stats.data && <Results stats={stats.data.data} />}
      <section aria-labelledby="time-heading">
        <h2 id="time-heading">Over time</h2>
        <fieldset className="row">
          <legend>Periods</legend>
          {(Object.keys(BUCKETS) as Bucket[]).map((b) => (
            <label key={b} className="inline">
              <input type="radio" name="bucket" value={b} checked={bucket === b} onChange={() => setBucket(b)} /> {BUCKETS[b]}
            </label>
          ))}
        </fieldset>
        {analytics.isPending ? <Skeleton label="Loading the analytics…" /> : analytics.data && <OverTime series={analytics.data.series} />}
      </section>
      <section aria-labelledby="links-heading">
        <h2 id="links-heading">Links</h2>
        {analytics.data && <Links links={analytics.data.links} />}
      </section>
      <section aria-labelledby="domains-heading">
        <h2 id="domains-heading">Recipient domains</h2>
        {analytics.data && <Domains domains={analytics.data.domains} />}
      </section>
    </Page>
  );
}
