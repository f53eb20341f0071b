import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { blankLines, hugePartHeaders, largeHtml, MB, nestedMultiparts, relaxedDkimLines, tinyParts } from '../helpers/heavy-mail.js';
import { eventually, startMailEnv } from '../helpers/mail-env.js';
import { startProbe, worst } from './latency-probe.js';
import { smtpCode } from '../helpers/smtp-client.js';
import type { BenchResult } from './load.js';

const SIZE = 38 * MB;

/** What an SMTP client may send to a verified domain, each within smtp.maxSize (40 MB). BENCH_SHAPES=blank,html picks some. */
const SHAPES: Record<string, (subject: string) => Buffer> = {
  blank: (s) => blankLines(s, SIZE),
  'tiny-parts': (s) => tinyParts(s, 999, SIZE),
  'too-many-parts': (s) => tinyParts(s, 400_000, SIZE),
  'wide-1500-parts': (s) => tinyParts(s, 1500, 64 * 1024),
  'deep-3000': (s) => nestedMultiparts(s, 3000),
  'deep-200000': (s) => nestedMultiparts(s, 200_000),
  'part-headers': (s) => hugePartHeaders(s, SIZE),
  'dkim-relaxed': (s) => relaxedDkimLines(s, SIZE / 4),
  'dkim-relaxed-999k-lines': (s) => relaxedDkimLines(s, 999_000, 3),
  // 1 MB of short lines under 10 signatures: small, but seconds of hashing (the heavy thread's, by its line hashes)
  'dkim-10-hashes-1mb': (s) => relaxedDkimLines(s, 249_000, 10),
  html: (s) => largeHtml(s, SIZE),
};

const kb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/**
 * Issue 23 / inbound: one message of each shape is sent to a verified domain, alone, while a probe
 * in a process of its own asks /health and tracks an event of another project every 20 ms. The
 * figures per shape: how long the message took from DATA to processed, the probes' worst latency,
 * how the message was recorded, and how far the daemon's peak RSS rose above its RSS before.
 */
export async function run(): Promise<BenchResult> {
  const env = await startMailEnv({ config: { log: { level: 'error' } } });
  const figures: Record<string, string | number> = {};
  try {
    await env.verifySender('inbox.test');
    const other = env.daemon.createProject('probe');
    const pid = env.daemon.pid();
    const db = new Database(join(env.daemon.dataDir, 'store', 'postmill.db'), { readonly: true });
    const wanted = process.env.BENCH_SHAPES?.split(',') ?? Object.keys(SHAPES);
    let accepted250 = 0;
    for (const name of wanted) {
      const raw = SHAPES[name]!(`heavy ${name}`);
      const probe = startProbe(env.daemon.url, other.publicKey);
      await new Promise((r) => setTimeout(r, 300));
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      const before = kb(pid, 'VmRSS');
      const started = performance.now();
      const code = await smtpCode(env.daemon.smtpPort, { from: 'stranger@client.test', to: ['support@inbox.test'] }, raw);
      const accepted = performance.now();
      const processed = () => (db.prepare('SELECT COUNT(*) AS n FROM inbound_messages WHERE processed_at IS NOT NULL').get() as { n: number }).n;
      if (code === 250) await eventually(async () => processed() > accepted250, 600_000, `${name} processed`);
      if (code === 250) accepted250++;
      const row = db.prepare('SELECT classification, email_id FROM inbound_messages ORDER BY processed_at DESC LIMIT 1').get() as { classification: string; email_id: string | null } | undefined;
      const done = performance.now();
      const p = worst(await probe.stop());
      const reason = db.prepare("SELECT json_extract(data, '$.reason') AS reason, json_extract(data, '$.hasContent') AS has FROM events WHERE email_id = ? AND name = 'email.received'").get(row?.email_id ?? null) as
        | { reason: string | null; has: number }
        | undefined;
      figures[`${name}: bytes`] = raw.length;
      figures[`${name}: SMTP reply`] = code;
      figures[`${name}: DATA to processed ms`] = Math.round(done - started);
      figures[`${name}: processing after 250 ms`] = Math.round(done - accepted);
      figures[`${name}: recorded`] = code === 250 ? `${row?.classification}; hasContent ${reason?.has}; ${reason?.reason ?? ''}` : 'refused at DATA';
      figures[`${name}: health max ms`] = p.health;
      figures[`${name}: track (other project) max ms`] = p.track;
      figures[`${name}: peak RSS above before MB`] = Math.round((kb(pid, 'VmHWM') - before) / 1024);
    }
    db.close();
    return { name: 'inbound-heavy', figures };
  } finally {
    await env.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
