// Campaigns side by side (MEMBER): choose up to ten sent campaigns; their results in one table (a
// column each) and one outcome of each over the time since its own send, so an older campaign's
// first hours line up with a newer one's. The choice lives in the address (?ids=a,b), so a
// comparison can be linked to.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { LineChart, PALETTE } from '../ui/LineChart';
import { useDebounced } from '../ui/useDebounced';
import { BUCKETS, bucketQuery, OUTCOME_LABELS, OUTCOMES, RESULT_ROWS, utc, type Bucket, type CampaignSummary, type Compared, type Outcome } from './CampaignAnalyticsTypes';
import { Skeleton } from '../ui/Skeleton';

const MAX_COMPARED = 10;
const CHOICES = 50;

/** Hours after the send at which each bucket starts, as the API cuts them. */
function sinceSend(series: Compared['series'], sentAt: string): string[] {
  const sendHour = Math.floor(Date.parse(sentAt) / 3_600_000);
  return series.map((p) => {
    const hours = Math.round(Date.parse(p.at) / 3_600_000) - sendHour;
    return hours < 48 || hours % 24 !== 0 ? `+${hours}h` : `+${hours / 24}d`;
  });
}

const runningTotal = (values: number[]) => values.map((_, i) => values.slice(0, i + 1).reduce((a, b) => a + b, 0));

function SideBySide({ compared }: { compared: Compared[] }) {
  return (
    <table className="side-by-side">
      <caption>Results side by side</caption>
      <thead>
        <tr>
          <th scope="col">Outcome</th>
          {compared.map((c) => (
            <th key={c.id} scope="col">
              <Link to={`/campaigns/${c.id}/analytics`}>{c.name}</Link>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">Sent at</th>
          {compared.map((c) => (
            <td key={c.id}>{c.sentAt ? utc(c.sentAt) : 'not sent'}</td>
          ))}
        </tr>
        {RESULT_ROWS.map((r) => (
          <tr key={r.label}>
            <th scope="row">{r.label}</th>
            {compared.map((c) => (
              <td key={c.id}>
                {c.stats[r.count]}
                {r.rate ? ` (${c.stats[r.rate]}%)` : ''}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SinceSend({ compared }: { compared: Compared[] }) {
  const [outcome, setOutcome] = useState<Outcome>('opened');
  // the x axis of the campaign sent longest ago: the others' buckets are its first ones
  const longest = compared.reduce<Compared | null>((l, c) => (c.sentAt && c.series.length > (l?.series.length ?? -1) ? c : l), null);
  if (!longest?.sentAt) return <p>None of these has been sent yet.</p>;
  return (
    <>
      <fieldset className="row">
        <legend>Outcome</legend>
        {OUTCOMES.map((m) => (
          <label key={m} className="inline">
            <input type="radio" name="outcome" value={m} checked={outcome === m} onChange={() => setOutcome(m)} /> {OUTCOME_LABELS[m]}
          </label>
        ))}
      </fieldset>
      <LineChart
        xLabels={sinceSend(longest.series, longest.sentAt)}
        lines={compared.map((c, i) => ({ name: c.name, color: PALETTE[i % PALETTE.length]!, values: runningTotal(c.series.map((p) => p[outcome])) }))}
        label={`${OUTCOME_LABELS[outcome]} so far, by time since each campaign's send; the table above has the totals`}
      />
    </>
  );
}

export function CampaignsComparePage() {
  const { project } = useSession();
  const [params, setParams] = useSearchParams();
  const ids = (params.get('ids') ?? '').split(',').filter((id) => id !== '');
  const [bucket, setBucket] = useState<Bucket>('auto');
  const [search, setSearch] = useState('');
  const term = useDebounced(search, 300);
  const choices = useQuery({
    queryKey: ['campaign-choices', project?.id, term],
    queryFn: () => api<{ data: CampaignSummary[] }>('GET', `/campaigns?pageSize=${CHOICES}&sort=createdAt&dir=desc${term ? `&search=${encodeURIComponent(term)}` : ''}`),
  });
  const compared = useQuery({
    queryKey: ['campaign-compare', project?.id, ids.join(','), bucket],
    queryFn: () => api<{ data: Compared[] }>('GET', `/campaigns/compare?ids=${ids.join(',')}&${bucketQuery(bucket)}`),
    enabled: ids.length > 0,
  });
  const choose = (id: string, on: boolean) => {
    const next = on ? [...ids, id] : ids.filter((i) => i !== id);
    setParams(next.length > 0 ? { ids: next.join(',') } : {}, { replace: true });
  };
  const sent = choices.data?.data.filter((c) => c.sentAt !== null) ?? [];
  return (
    <Page title="Compare campaigns">
      <section aria-labelledby="choose-heading">
        <h2 id="choose-heading">Campaigns</h2>
        <label>
          Find a campaign
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <ErrorNote error={choices.isError ? errorText(choices.error) : null} />
        {choices.isPending ? (
          <Skeleton label="Loading the campaigns…" />
        ) : sent.length === 0 ? (
          <p>No sent campaign{term ? ' matches' : ' yet'}: a campaign shows here once its send has begun.</p>
        ) : (
          <table>
            <caption>
              Sent campaigns, the newest first: choose up to {MAX_COMPARED} ({ids.length} chosen)
            </caption>
            <thead>
              <tr>
                <th scope="col">Compare</th>
                <th scope="col">Status</th>
                <th scope="col">Sent at</th>
                <th scope="col">Analytics</th>
              </tr>
            </thead>
            <tbody>
              {sent.map((c) => (
                <tr key={c.id}>
                  <td>
                    <label className="check">
                      <input type="checkbox" checked={ids.includes(c.id)} disabled={!ids.includes(c.id) && ids.length >= MAX_COMPARED} onChange={(e) => choose(c.id, e.target.checked)} />
                      {c.name}
                    </label>
                  </td>
                  <td>{c.status.toLowerCase()}</td>
                  <td>{utc(c.sentAt!)}</td>
                  <td>
                    <Link to={`/campaigns/${c.id}/analytics`} aria-label={`Analytics of ${c.name}`}>
                      Analytics
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {ids.length > 0 && (
        <section aria-labelledby="compared-heading">
          <h2 id="compared-heading">Side by side</h2>
          <ErrorNote error={compared.isError ? errorText(compared.error) : null} />
          {compared.isPending ? (
            <Skeleton label="Loading the comparison…" />
          ) : (
            compared.data && (
              <>
                <SideBySide compared={compared.data.data} />
                <h3>Since each send</h3>
                <fieldset className="row">
                  <legend>Periods</legend>
                  {(Object.keys(BUCKETS) as Bucket[]).map((b) => (
                    <label key={b} className="inline">
                      <input type="radio" name="bucket" value={b} checked={bucket === b} onChange={() => setBucket(b)} /> {BUCKETS[b]}
                    </label>
                  ))}
                </fieldset>
                <SinceSend compared={compared.data.data} />
              </>
            )
          )}
        </section>
      )}
    </Page>
  );
}
