import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore } from '../../src/store/db.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, type BenchResult } from './load.js';

const EMAILS = 1_000_000;
/** Recipients: each has EMAILS / CONTACTS emails. */
const CONTACTS = 50_000;

const r2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The console's Messages page over 1,000,000 emails: the first page as the page asks for it (newest
 * first), a later page, one recipient's emails, a status that 1% of them have, a day's window, a
 * campaign's, a search through subjects (reads every email within the request budget), and one
 * email's timeline.
 */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const key = d.project.secretKey;
    await d.stop();
    const db = openStore(join(d.dataDir, 'store'));
    const now = Date.now();
    const seedStarted = performance.now();
    const campaignId = '0190a0a0-0000-7000-8000-00000000c0de';
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
       SELECT 'c' || x, ?, 'person' || x || '@bench.test', 'person' || x || '@bench.test', 1, '{}', ?, ? FROM n`,
    ).run(CONTACTS, d.project.id, now - 10 * 86_400_000, now - 10 * 86_400_000);
    db.prepare(
      `INSERT INTO campaigns (id, project_id, name, subject, body, from_email, type, status, audience_type, search_lc, created_at, updated_at)
       VALUES (?, ?, 'Bench', 'Bench', '<p>x</p>', 'hello@sender.test', 'MARKETING', 'SENT', 'ALL', 'bench', ?, ?)`,
    ).run(campaignId, d.project.id, now, now);
    // integers written into the text: a bound JS number is a REAL, and 'c' || (x % 5.0) is 'c0.0'
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO emails (id, project_id, contact_id, template_id, campaign_id, source_type, message_type, to_email, from_email, subject,
         sender_domain, message_id, status, created_at, updated_at)
       SELECT printf('%08x-0000-7000-8000-%012x', x, x), ?, 'c' || (x % ${CONTACTS}), NULL, CASE WHEN x % 10 = 0 THEN ? END,
         CASE WHEN x % 10 = 0 THEN 'CAMPAIGN' ELSE 'TRANSACTIONAL' END, 'TRANSACTIONAL', 'person' || (x % ${CONTACTS}) || '@bench.test', 'hello@sender.test',
         'Receipt number ' || x, 'sender.test', '<' || x || '@bench>', CASE WHEN x % 100 = 0 THEN 'bounced' ELSE 'delivered' END,
         ? - (? - x) * 600, ? - (? - x) * 600 FROM n`,
    ).run(EMAILS, d.project.id, campaignId, now, EMAILS, now, EMAILS);
    const newest = db.prepare('SELECT id FROM emails ORDER BY created_at DESC LIMIT 1').pluck().get() as string;
    db.prepare(`INSERT INTO email_attempts (email_id, at, mx, tls, reply, outcome) VALUES (?, ?, 'mx.bench.test[127.0.0.1]', 'TLSv1.3', '250 ok', 'delivered')`).run(newest, now);
    const seedMs = performance.now() - seedStarted;
    db.close();
    await d.restart();

    const timed = async (path: string, n = 5) => {
      const ms: number[] = [];
      let count = 0;
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const r = await call(d.url, 'GET', path, key);
        ms.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`);
        const body = JSON.parse(r.body) as { data?: unknown[]; attempts?: unknown[] };
        count = body.data?.length ?? body.attempts?.length ?? 0;
      }
      return `${r2(ms[0]!)} / ${r2(Math.min(...ms))} (${count} rows)`;
    };
    const warm = performance.now();
    await call(d.url, 'GET', '/contacts?limit=1', key);
    const warmMs = performance.now() - warm;
    const day = encodeURIComponent(new Date(now - 3 * 86_400_000).toISOString());
    const dayEnd = encodeURIComponent(new Date(now - 2 * 86_400_000).toISOString());
    const later = encodeURIComponent(Buffer.from(JSON.stringify([now - 500_000 * 600, 'z'])).toString('base64url'));
    return {
      name: 'messages-log',
      figures: {
        emails: EMAILS,
        'seed ms': Math.round(seedMs),
        'the first request after the start (GET /contacts?limit=1) ms': r2(warmMs),
        'first page (50, newest first) ms first / best of 10': await timed('/emails?limit=50', 10),
        'a page in the middle ms first / best': await timed(`/emails?limit=50&cursor=${later}`),
        'one recipient (to=, 20 emails) ms first / best': await timed('/emails?limit=50&to=person123@bench.test'),
        'status=bounced (1%) first page ms first / best': await timed('/emails?limit=50&status=bounced'),
        "a day's window (since/until) ms first / best": await timed(`/emails?limit=50&since=${day}&until=${dayEnd}`),
        "a campaign's emails ms first / best": await timed(`/emails?limit=50&campaignId=${campaignId}`),
        'search a subject part matching one email (reads all 1M) ms first / best of 3': await timed('/emails?limit=50&search=number%20123456', 3),
        'one email with its attempts and events ms first / best': await timed(`/emails/${newest}`),
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
