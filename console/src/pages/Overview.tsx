// Overview: the project's emails per day (7, 30 or 90 days), the queue now, and the alerts a sender
// must act on (unverified domains, bounce and complaint rates, outbound port 25); for an ADMIN, each
// sender domain's health.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, errorText, type Role } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { allows } from '../roles';
import { Icon } from '../ui/icons';
import { LineChart, METRIC_COLORS } from '../ui/LineChart';
import { SenderHealth, useDomainHealth } from './SenderHealth';
import { METRICS, type DayStats, type Metric, type Overview } from './OverviewTypes';
import { Skeleton } from '../ui/Skeleton';

const LABELS: Record<Metric, string> = { sent: 'Sent', delivered: 'Delivered', bounced: 'Bounced', complained: 'Complained', opened: 'Opened', clicked: 'Clicked' };
const RANGES = [7, 30, 90] as const;
const REFRESH_MS = 30_000;

/** Where each alert's fix is done, for a role that may do it. */
const FIX_PAGES: Record<string, { to: string; label: string; role: Role }> = {
  domainNotVerified: { to: '/domains', label: 'Open Domains', role: 'ADMIN' },
  bounceRate: { to: '/contacts/suppressions', label: 'Open Suppressions', role: 'MEMBER' },
  complaintRate: { to: '/contacts/suppressions', label: 'Open Suppressions', role: 'MEMBER' },
};

/** The alerts, each with its fix; "nothing" claims only what this role can know (a MEMBER does not see the domains). */
function Alerts({ overview, domainCount }: { overview: Overview; domainCount: number | null }) {
  const { project } = useSession();
  const noDomain = domainCount === 0;
  const fine = [domainCount !== null && 'every sender domain verified', 'bounce and complaint rates low', overview.outbound?.ok && 'outbound SMTP open'].filter(Boolean).join(', ');
  return (
    <section aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Needs your attention</h2>
      {overview.alerts.length === 0 && !noDomain ? (
        <p className="all-clear">
          <Icon name="check" />
          Nothing: {fine}.
        </p>
      ) : (
        <ul className="alerts">
          {noDomain && (
            <li className="alert">
              <strong>This project has no sender domain yet</strong>
              <span className="hint">
                Mail is sent only from a verified domain: <Link to="/domains">add one under Domains</Link> and publish its records.
              </span>
            </li>
          )}
          {overview.alerts.map((a) => {
            const fix = FIX_PAGES[a.kind];
            return (
              <li key={a.kind + a.message} className="alert">
                <strong>{a.message}</strong>
                <span className="hint">
                  {a.fix}
                  {fix && allows(project?.role, fix.role) && (
                    <>
                      {' '}
                      <Link to={fix.to}>{fix.label}</Link>
                    </>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Queue({ overview }: { overview: Overview }) {
  return (
    <section aria-labelledby="queue-heading">
      <h2 id="queue-heading">Queue now</h2>
      <dl className="figures">
        <div>
          <dt>Queued</dt>
          <dd>{overview.queue.queued}</dd>
        </div>
        <div>
          <dt>Deferred</dt>
          <dd>{overview.queue.deferred}</dd>
        </div>
        <div>
          <dt>Bounce rate (7 days)</dt>
          <dd>{overview.last7Days.bounceRate}%</dd>
        </div>
        <div>
          <dt>Complaint rate (7 days)</dt>
          <dd>{overview.last7Days.complaintRate}%</dd>
        </div>
      </dl>
    </section>
  );
}

function Daily({ days }: { days: DayStats[] }) {
  const totals = Object.fromEntries(METRICS.map((m) => [m, days.reduce((sum, d) => sum + d[m], 0)])) as Record<Metric, number>;
  const empty = METRICS.every((m) => totals[m] === 0);
  return (
    <>
      <table className="totals">
        <caption>Totals of the last {days.length} days</caption>
        <tbody>
          <tr>
            {METRICS.map((m) => (
              <th key={m} scope="col">
                {LABELS[m]}
              </th>
            ))}
          </tr>
          <tr>
            {METRICS.map((m) => (
              <td key={m} aria-label={`${LABELS[m]} total`}>
                {totals[m]}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      {empty ? (
        <p>No email in these days yet: send one through the API or a campaign, and it shows here.</p>
      ) : (
        <LineChart
          xLabels={days.map((d) => d.date.slice(5))}
          lines={METRICS.map((m) => ({ name: LABELS[m], color: METRIC_COLORS[m], values: days.map((d) => d[m]) }))}
          label={`Emails per day, ${days[0]?.date} to ${days[days.length - 1]?.date}; the table below has the numbers`}
        />
      )}
      <details>
        <summary>Each day as a table</summary>
        <table>
          <caption>Emails per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {METRICS.map((m) => (
                <th key={m} scope="col">
                  {LABELS[m]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.date}>
                <th scope="row">{d.date}</th>
                {METRICS.map((m) => (
                  <td key={m}>{d[m]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

export function OverviewPage() {
  const { project } = useSession();
  const [range, setRange] = useState<(typeof RANGES)[number]>(7);
  const daily = useQuery({ queryKey: ['stats-daily', project?.id, range], queryFn: () => api<{ data: DayStats[] }>('GET', `/stats/daily?days=${range}`), refetchInterval: REFRESH_MS });
  const overview = useQuery({ queryKey: ['stats-overview', project?.id], queryFn: () => api<Overview>('GET', '/stats/overview'), refetchInterval: REFRESH_MS });
  const isAdmin = allows(project?.role, 'ADMIN');
  const health = useDomainHealth(project?.id, isAdmin);
  return (
    <Page title="Overview">
      <ErrorNote error={overview.isError ? errorText(overview.error) : null} />
      {overview.isPending || (isAdmin && health.isPending) ? <Skeleton label="Loading the queue and alerts…" /> : overview.data && (
        <>
          <Alerts overview={overview.data} domainCount={isAdmin ? (health.data?.data.length ?? null) : null} />
          <Queue overview={overview.data} />
        </>
      )}
      {isAdmin && <SenderHealth projectId={project?.id} />}
      <section aria-labelledby="daily-heading">
        <h2 id="daily-heading">Emails per day</h2>
        <fieldset className="row">
          <legend>Days</legend>
          {RANGES.map((r) => (
            <label key={r} className="inline">
              <input type="radio" name="range" value={r} checked={range === r} onChange={() => setRange(r)} /> Last {r} days
            </label>
          ))}
        </fieldset>
        <ErrorNote error={daily.isError ? errorText(daily.error) : null} />
        {daily.isPending ? <Skeleton label="Loading the days…" /> : daily.data && <Daily days={daily.data.data} />}
      </section>
    </Page>
  );
}
