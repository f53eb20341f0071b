import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startMailEnv } from '../helpers/mail-env.js';
import { seedContacts } from '../helpers/seed.js';
import { call, closeAgent, load, type BenchResult } from './load.js';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const DOMAINS = 10;
const TRACK_CLIENTS = 10;
const TRACK_PER_SECOND = Number(process.env.BENCH_TRACK_PER_SECOND ?? 200);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

/**
 * Issue 12: a 100,000-recipient campaign (10 recipient domains, one loopback sink): fan-out time
 * (render + store + queue), delivery rate, daemon RSS; meanwhile /v1/track p99 and how long a
 * /v1/send to another address takes to reach the sink (the transactional lane ahead of the bulk one).
 */
export async function run(): Promise<BenchResult> {
  const profile = process.env.BENCH_PROFILE;
  const env = await startMailEnv({
    sinkDomains: [...Array.from({ length: DOMAINS }, (_, i) => `crowd${i}.test`), 'urgent.test'],
    senders: ['news.test'],
    config: { log: { level: 'error' } },
    ...(profile ? { daemon: { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } } : {}),
  });
  try {
    const d = env.daemon;
    await seedContacts(d, d.project.id, RECIPIENTS, 'x', (i) => ({ name: `Reader ${i}`, plan: i % 3 ? 'pro' : 'free' }));
    // spread the audience over the domains: the seeded addresses are `n@x`, rewritten per domain
    await (await import('../helpers/seed.js')).seedStore(d, (db) => db.prepare(`UPDATE contacts SET email = replace(email, '@x', '@crowd' || (rowid % ${DOMAINS}) || '.test'), email_lc = replace(email_lc, '@x', '@crowd' || (rowid % ${DOMAINS}) || '.test')`).run());
    const pid = d.pid();
    const body = `<html><body><h1>Hello {{name}}</h1>${'<p>This month in the newsletter: a <a href="https://news.test/a">story</a> and more words to fill a line or two.</p>'.repeat(30)}<p>Your plan: {{plan}}</p><a href="{{unsubscribeUrl}}">Unsubscribe</a></body></html>`;
    const created = await d.request('POST', '/campaigns', { name: 'Bench', subject: 'News for {{name}}', body, from: 'editor@news.test', audienceType: 'ALL' });
    const id = created.body.data.id as string;
    let peakRss = rssMb(pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 250);
    const t0 = performance.now();
    const sent = await d.request('POST', `/campaigns/${id}/send`, {});
    if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
    let fannedOut = 0;
    let deliveredByFanOut = 0;
    let delivered = 0;
    let done = false;
    const urgent: number[] = [];
    const watcher = (async () => {
      while (!done) {
        const c = (await d.request('GET', `/campaigns/${id}`)).body;
        if (!fannedOut && c.sentCount >= RECIPIENTS) {
          fannedOut = (performance.now() - t0) / 1000;
          deliveredByFanOut = c.deliveredCount;
        }
        if (c.deliveredCount >= RECIPIENTS) {
          delivered = (performance.now() - t0) / 1000;
          done = true;
        }
        await new Promise((r) => setTimeout(r, 200));
        if (performance.now() - t0 > 600_000) done = true;
      }
    })();
    const transactional = (async () => {
      for (let i = 0; !done; i++) {
        const rcpt = `urgent${i}@urgent.test`;
        const start = performance.now();
        await d.request('POST', '/v1/send', { to: rcpt, from: 'alerts@news.test', subject: 'Your code', body: '<p>1234</p>' });
        while (!env.sink.messages.some((m) => m.rcptTo.includes(rcpt)) && !done) await new Promise((r) => setTimeout(r, 20));
        if (!done) urgent.push(performance.now() - start);
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    // a steady stream of events beside the send (TRACK_PER_SECOND), not a flood that would take the CPU from it
    const track = await load(
      TRACK_CLIENTS,
      600_000,
      async (i) => (await call(d.url, 'POST', '/v1/track', d.project.publicKey, { email: `t${i % 1000}@track.test`, event: 'page-view' })).status === 200,
      () => done || fannedOut > 0,
      (TRACK_CLIENTS / TRACK_PER_SECOND) * 1000,
    );
    await Promise.all([watcher, transactional]);
    clearInterval(sampler);
    return {
      name: 'campaign',
      figures: {
        recipients: RECIPIENTS,
        'fan-out s (render + store + queue)': Math.round(fannedOut * 10) / 10,
        'fan-out recipients/s': Math.round(RECIPIENTS / fannedOut),
        'all delivered s': Math.round(delivered * 10) / 10,
        'delivery/s over the whole send': Math.round(RECIPIENTS / delivered),
        'delivered during the fan-out (bulk keeps to a few places)': deliveredByFanOut,
        'delivery/s after the fan-out': Math.round((RECIPIENTS - deliveredByFanOut) / (delivered - fannedOut)),
        'daemon peak RSS MB': Math.round(peakRss),
        [`track p99 ms during fan-out (${TRACK_PER_SECOND}/s)`]: track.p99Ms,
        'track requests during fan-out': track.requests,
        '/v1/send to delivered, max ms': Math.round(Math.max(...urgent)),
        '/v1/send to delivered, p50 ms': Math.round(percentile(urgent, 0.5)),
        'transactional sends measured': urgent.length,
      },
    };
  } finally {
    closeAgent();
    await env.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
