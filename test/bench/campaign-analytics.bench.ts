import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore, type Db } from '../../src/store/db.js';
import { clickEmailHalf, clickToken, signTokenWith, tokenSecret } from '../../src/tracking/tokens.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { LINKS, seedSentCampaign } from './campaign-analytics-seed.js';
import { call, closeAgent, load, type BenchResult } from './load.js';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
/** Sent three weeks ago: 48 hourly buckets and 19 daily ones by default, 504 with ?bucket=hour. */
const AGE_HOURS = 21 * 24;
const REQUESTS = 200;
const TRACK_CLIENTS = 10;
const TRACK_MS = 3000;
const ADMIN = 'bench-admin-token-0123456789abcdef';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const r2 = (n: number) => Math.round(n * 100) / 100;
const timed = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const result = f();
  return [result, performance.now() - t];
};

/** What the route would cost without the kept counts: the same numbers counted from the campaign's emails and events. */
function countedFromRecords(db: Db, campaignId: string) {
  const [series, seriesMs] = timed(() =>
    db
      .prepare(
        `SELECT SUM(delivered_at IS NOT NULL) AS delivered, SUM(first_opened_at IS NOT NULL) AS opened, SUM(first_clicked_at IS NOT NULL) AS clicked,
           SUM(bounced_at IS NOT NULL) AS bounced, SUM(complained_at IS NOT NULL) AS complained, SUM(unsubscribed_at IS NOT NULL) AS unsubscribed
         FROM emails WHERE campaign_id = ?`,
      )
      .get(campaignId) as Record<string, number>,
  );
  const [domains, domainsMs] = timed(
    () =>
      db
        .prepare(
          `SELECT lower(substr(to_email, instr(to_email, '@') + 1)) AS domain, SUM(delivered_at IS NOT NULL) AS delivered, SUM(deferrals > 0) AS deferred
           FROM emails WHERE campaign_id = ? GROUP BY domain`,
        )
        .all(campaignId) as { domain: string; delivered: number; deferred: number }[],
  );
  const [links, linksMs] = timed(
    () =>
      db
        .prepare(
          `SELECT json_extract(ev.data, '$.link') AS url, COUNT(*) AS clicks, COUNT(DISTINCT ev.email_id) AS uniqueClicks
           FROM emails e JOIN events ev ON ev.email_id = e.id AND ev.name = 'email.click' WHERE e.campaign_id = ? GROUP BY url`,
        )
        .all(campaignId) as { url: string; clicks: number; uniqueClicks: number }[],
  );
  return { series, domains, links, ms: { series: seriesMs, domains: domainsMs, links: linksMs } };
}

type Analytics = { series: Record<string, number | string>[]; links: { url: string; clicks: number; uniqueClicks: number }[]; domains: { domain: string; delivered: number; deferred: number }[] };

function assertSame(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what}: the route answered ${JSON.stringify(got)}, the records say ${JSON.stringify(want)}`);
}

/** The route's answer against the records: totals, links, and the largest domains. */
function check(body: Analytics, truth: ReturnType<typeof countedFromRecords>): void {
  const totals = Object.fromEntries(Object.keys(truth.series).map((m) => [m, body.series.reduce((sum, p) => sum + (p[m] as number), 0)]));
  assertSame('series totals', totals, truth.series);
  const byUrl = (a: { url: string }, b: { url: string }) => a.url.localeCompare(b.url);
  assertSame('links', [...body.links].sort(byUrl), [...truth.links].sort(byUrl));
  const domains = new Map(truth.domains.map((d) => [d.domain, d]));
  for (const d of body.domains) assertSame(`domain ${d.domain}`, [d.delivered, d.deferred], [domains.get(d.domain)?.delivered, domains.get(d.domain)?.deferred]);
}

async function times<T = Analytics>(d: TestDaemon, path: string): Promise<{ first: number; sorted: number[]; body: T }> {
  const ms: number[] = [];
  let body = '';
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    const r = await call(d.url, 'GET', path, d.project.secretKey);
    ms.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`);
    body = r.body;
  }
  return { first: ms[0]!, sorted: ms.sort((a, b) => a - b), body: JSON.parse(body) as T };
}

/** The route's mean time inside the daemon, from its latency histogram (sum / count). */
async function serverMeanMs(d: TestDaemon): Promise<number> {
  const metrics = (await call(d.url, 'GET', '/metrics', ADMIN)).body;
  const value = (name: string) =>
    Number(new RegExp(`^postmill_http_request_duration_seconds_${name}\\{[^}]*route="/campaigns/:id/analytics"[^}]*\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  return (value('sum') / value('count')) * 1000;
}

/**
 * What the triggers cost the tracking routes: first opens and first clicks of emails not yet opened,
 * with the analytics triggers and without them (dropped and made again through a second
 * connection), on, off, off, on.
 */
async function trackingCost(d: TestDaemon, db: Db, campaignId: string): Promise<Record<string, string | number>> {
  const secret = tokenSecret(db);
  // delivered and never opened: n % 10 >= 4, n % 100 >= 3 (campaign-analytics-seed.ts)
  const fresh = (db.prepare('SELECT id FROM emails WHERE campaign_id = ? AND delivered_at IS NOT NULL AND first_opened_at IS NULL ORDER BY id').pluck().all(campaignId) as string[]).reverse();
  const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'campaign_analytics_%'").all() as { name: string; sql: string }[];
  let present = true;
  const keep = (wanted: boolean) => {
    if (wanted !== present) for (const t of triggers) db.exec(wanted ? t.sql : `DROP TRIGGER ${t.name}`);
    present = wanted;
  };
  const round = () =>
    load(TRACK_CLIENTS, TRACK_MS, async () => {
      const email = fresh.pop();
      if (!email) return false;
      const open = await call(d.url, 'GET', `/t/o/${signTokenWith(secret, { kind: 'open', emailId: email })}`, null);
      const click = await call(d.url, 'GET', `/t/c/${clickToken(secret, clickEmailHalf(secret, email), LINKS[email.length % LINKS.length]!)}`, null);
      return open.status === 200 && click.status === 302;
    });
  const runs = new Map<boolean, number[]>([
    [true, []],
    [false, []],
  ]);
  try {
    for (const withTriggers of [true, false, false, true]) {
      keep(withTriggers);
      const r = await round();
      if (r.errors > 0) throw new Error(`${r.errors} tracking requests failed`);
      runs.get(withTriggers)!.push(r.perSecond);
    }
  } finally {
    keep(true);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const on = mean(runs.get(true)!);
  const off = mean(runs.get(false)!);
  return {
    [`first open + first click pairs/s, triggers on (${TRACK_CLIENTS} clients, ${TRACK_MS} ms rounds)`]: runs.get(true)!.map(Math.round).join(' / '),
    'first open + first click pairs/s, triggers off': runs.get(false)!.map(Math.round).join(' / '),
    'tracking rate with the triggers / without': r2(on / off),
  };
}

/**
 * GET /campaigns/{id}/analytics of a campaign of 100,000 recipients and 1,000,000 events, seeded
 * into the store: round trips (p50, p95) and the daemon's own mean; what counting from the records
 * would cost instead; what the triggers cost the tracking routes.
 */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' }, adminToken: ADMIN } });
  try {
    await d.stop();
    const db = openStore(join(d.dataDir, 'store'));
    db.pragma('cache_size = -262144');
    const [seeded, seedMs] = timed(() => db.transaction(() => seedSentCampaign(db, d.project.id, { recipients: RECIPIENTS, events: EVENTS, now: Date.now(), ageHours: AGE_HOURS }))());
    const truth = countedFromRecords(db, seeded.id);
    db.close();
    await d.restart();

    const path = `/campaigns/${seeded.id}/analytics`;
    const auto = await times(d, path);
    const hourly = await times(d, `${path}?bucket=hour`);
    const daily = await times(d, `${path}?bucket=day`);
    for (const { body } of [auto, hourly, daily]) check(body, truth);
    // a comparison costs each campaign's hourly rows: here the campaign alone, its series checked too
    const compared = await times<{ data: Pick<Analytics, 'series'>[] }>(d, `/campaigns/compare?ids=${seeded.id}`);
    check({ ...auto.body, series: compared.body.data[0]!.series }, truth);
    const serverMean = await serverMeanMs(d);

    const writer = openStore(join(d.dataDir, 'store'));
    let tracking: Record<string, string | number>;
    try {
      tracking = await trackingCost(d, writer, seeded.id);
    } finally {
      writer.close();
    }
    return {
      name: 'campaign-analytics',
      figures: {
        recipients: RECIPIENTS,
        'events seeded': seeded.events,
        'seed s (triggers on)': r2(seedMs / 1000),
        'series buckets (default / hour / day)': `${auto.body.series.length} / ${hourly.body.series.length} / ${daily.body.series.length}`,
        'domains / links answered': `${auto.body.domains.length} / ${auto.body.links.length}`,
        'first request ms after start (cold pages, reader thread starting)': r2(auto.first),
        'default p50 ms (round trip on loopback)': r2(percentile(auto.sorted, 0.5)),
        'default p95 ms': r2(percentile(auto.sorted, 0.95)),
        '?bucket=hour p50 ms': r2(percentile(hourly.sorted, 0.5)),
        '?bucket=hour p95 ms': r2(percentile(hourly.sorted, 0.95)),
        '?bucket=day p50 ms': r2(percentile(daily.sorted, 0.5)),
        '?bucket=day p95 ms': r2(percentile(daily.sorted, 0.95)),
        'GET /campaigns/compare p50 ms': r2(percentile(compared.sorted, 0.5)),
        'GET /campaigns/compare p95 ms': r2(percentile(compared.sorted, 0.95)),
        'analytics server mean ms (the daemon latency histogram, all requests)': r2(serverMean),
        'counted from the emails instead: totals ms': r2(truth.ms.series),
        'counted from the emails instead: domains ms': r2(truth.ms.domains),
        'counted from the events instead: links ms': r2(truth.ms.links),
        ...tracking,
      },
    };
  } finally {
    closeAgent();
    await d.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
