import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore } from '../../src/store/db.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, type BenchResult } from './load.js';

const CONTACTS = 1_000_000;

const r2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The console's contacts page over 1,000,000 contacts: the first page as the page asks for it
 * (newest first, with the total), sorted by email, a search, the unsubscribed, and data-field
 * filters through GET /contacts?where= (one that many contacts match, one that none does: the
 * latter reads every contact, within the request budget).
 */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const key = d.project.secretKey;
    await d.stop();
    const db = openStore(join(d.dataDir, 'store'));
    const now = Date.now();
    const seedStarted = performance.now();
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
       SELECT lower(hex(randomblob(16))), ?, 'person' || x || '@bench' || (x % 50) || '.test', 'person' || x || '@bench' || (x % 50) || '.test',
         x % 4 <> 0, json_object('plan', CASE WHEN x % 2 = 0 THEN 'pro' ELSE 'free' END, 'seats', x % 100, 'city', 'c' || (x % 1000)), ? - x, ? - x FROM n`,
    ).run(CONTACTS, d.project.id, now, now);
    const seedMs = performance.now() - seedStarted;
    db.close();
    await d.restart();

    const timed = async (path: string, n = 5) => {
      const ms: number[] = [];
      let total = 0;
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const r = await call(d.url, 'GET', path, key);
        ms.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`);
        total = (JSON.parse(r.body) as { total: number }).total;
      }
      return { first: r2(ms[0]!), best: r2(Math.min(...ms)), total };
    };
    const where = (condition: unknown) => `where=${encodeURIComponent(JSON.stringify(condition))}`;
    const plan = where({ logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] });
    const nobody = where({ logic: 'AND', groups: [{ filters: [{ field: 'data.city', operator: 'equals', value: 'nowhere' }] }] });
    const first = await timed('/contacts?limit=50&sort=createdAt&dir=desc', 10);
    const byEmail = await timed('/contacts?limit=50&sort=email&dir=asc', 10);
    const search = await timed('/contacts?limit=50&search=person123456@', 3);
    const unsubscribed = await timed('/contacts?limit=50&subscribed=false', 3);
    const planPage = await timed(`/contacts?limit=50&${plan}`, 3);
    const planNext = await timed(`/contacts?limit=50&${plan}&cursor=${encodeURIComponent(Buffer.from(JSON.stringify([now - 100, 'z'])).toString('base64url'))}`, 3);
    const none = await timed(`/contacts?limit=50&${nobody}`, 2);
    return {
      name: 'contacts-million',
      figures: {
        contacts: CONTACTS,
        'seed ms': Math.round(seedMs),
        'first page ms (newest first, with total) first / best of 10': `${first.first} / ${first.best}`,
        'first page by email ms first / best': `${byEmail.first} / ${byEmail.best}`,
        'search page ms (with its count) first / best of 3': `${search.first} / ${search.best}`,
        'unsubscribed page ms (total from counters) first / best': `${unsubscribed.first} / ${unsubscribed.best}`,
        'where data.plan = pro, first page with its count ms first / best': `${planPage.first} / ${planPage.best} (total ${planPage.total})`,
        'where data.plan = pro, a later page (no count) ms first / best': `${planNext.first} / ${planNext.best}`,
        'where data.city matches nobody (reads all 1M, page + count) ms first / best': `${none.first} / ${none.best} (total ${none.total})`,
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
