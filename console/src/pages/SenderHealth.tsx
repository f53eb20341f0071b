// The Overview's sender health: a card per sender domain with its bounce and complaint rates over
// 7 and 30 days against the providers' thresholds, and its warm-up day when warm-up is on.
// GET /domains is an ADMIN's route: members do not see the cards.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { Skeleton } from '../ui/Skeleton';

interface Window {
  days: number;
  sent: number;
  bounced: number;
  complained: number;
  bounceRate: number | null;
  complaintRate: number | null;
}

interface Threshold {
  target: number;
  limit: number;
}

export interface DomainHealth {
  id: string;
  domain: string;
  warmup: { day: number; budget: number | null; sentToday: number } | null;
  health: { status: 'good' | 'warning' | 'critical' | 'unknown'; windows: Window[]; thresholds: { complaintRate: Threshold; bounceRate: Threshold; minimumSent: number } };
}

const STATUS: Record<DomainHealth['health']['status'], string> = {
  good: 'Good',
  warning: 'Warning: over the target',
  critical: 'Critical: over the providers’ limit',
  unknown: 'Not enough mail to judge yet',
};

const TONES: Record<DomainHealth['health']['status'], string> = { good: 'success', warning: 'warning', critical: 'danger', unknown: 'neutral' };

const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(2)}%`);

function Rate({ label, rate, threshold }: { label: string; rate: number | null; threshold: Threshold }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{percent(rate)}</dd>
      <dd className="hint">
        target under {percent(threshold.target)}, limit {percent(threshold.limit)}
      </dd>
    </div>
  );
}

function DomainCard({ d }: { d: DomainHealth }) {
  const headingId = `health-${d.id}`;
  const { thresholds } = d.health;
  return (
    <article className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{d.domain}</h3>
      <p>
        Status: <strong className="badge" data-tone={TONES[d.health.status]}>{STATUS[d.health.status]}</strong>
      </p>
      {d.health.windows.map((w) => (
        <dl key={w.days} className="figures" aria-label={`${d.domain}, last ${w.days} days`}>
          <div>
            <dt>Sent ({w.days} days)</dt>
            <dd>{w.sent}</dd>
          </div>
          <Rate label={`Bounce rate (${w.days} days)`} rate={w.bounceRate} threshold={thresholds.bounceRate} />
          <Rate label={`Complaint rate (${w.days} days)`} rate={w.complaintRate} threshold={thresholds.complaintRate} />
        </dl>
      ))}
      {d.warmup && (
        <p>
          Warm-up day {d.warmup.day}: {d.warmup.sentToday} sent today
          {d.warmup.budget === null ? ', no daily limit any more' : ` of ${d.warmup.budget}; bulk mail over it waits for tomorrow`}.
        </p>
      )}
    </article>
  );
}

/** The sender domains with their health (ADMIN): the Overview's alerts read how many there are. Its own key: the Domains page keeps another shape under ['domains']. */
export const useDomainHealth = (projectId: string | undefined, enabled = true) =>
  useQuery({ queryKey: ['domain-health', projectId], queryFn: () => api<{ data: DomainHealth[] }>('GET', '/domains'), refetchInterval: 30_000, enabled });

export function SenderHealth({ projectId }: { projectId: string | undefined }) {
  const domains = useDomainHealth(projectId);
  return (
    <section aria-labelledby="sender-health-heading">
      <h2 id="sender-health-heading">Sender health</h2>
      <ErrorNote error={domains.isError ? errorText(domains.error) : null} />
      {domains.isPending ? (
        <Skeleton label="Loading the sender domains…" />
      ) : domains.data?.data.length === 0 ? (
        <p>
          No sender domain yet: <Link to="/domains">add one under Domains</Link>.
        </p>
      ) : (
        domains.data?.data.map((d) => <DomainCard key={d.id} d={d} />)
      )}
    </section>
  );
}
