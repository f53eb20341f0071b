import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { eventually, startMailEnv } from '../helpers/mail-env.js';
import type { BenchResult } from './load.js';

const MESSAGES = 3000;
const CONNECTIONS = 10;

/** 20 KB messages, DKIM-signed and SPF-checkable against the loopback DNS, received over SMTP and processed. */
export async function run(): Promise<BenchResult> {
  const profile = process.env.BENCH_PROFILE;
  const env = await startMailEnv({
    config: { log: { level: 'error' } },
    ...(profile ? { daemon: { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } } : {}),
  });
  try {
    await env.verifySender('sender.test');
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    env.dns.set('k1._domainkey.people.test', 'TXT', [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]);
    env.dns.set('people.test', 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
    const signer = nodemailer.createTransport({
      streamTransport: true,
      buffer: true,
      dkim: { domainName: 'people.test', keySelector: 'k1', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    });
    const text = 'Thanks for the update. '.repeat(420); // text and HTML parts: about 20 KB in all
    const messages: Buffer[] = [];
    for (let i = 0; i < 50; i++) {
      const info = await signer.sendMail({ from: `person${i}@people.test`, to: 'support@sender.test', subject: `Reply ${i}`, text, html: `<p>${text}</p>` });
      messages.push(info.message as Buffer);
    }
    const size = messages[0]!.length;
    const transports = Array.from({ length: CONNECTIONS }, () =>
      nodemailer.createTransport({ host: '127.0.0.1', port: env.daemon.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 1, maxMessages: Infinity }),
    );
    const started = performance.now();
    let next = 0;
    await Promise.all(
      transports.map(async (t) => {
        while (next < MESSAGES) {
          const i = next++;
          await t.sendMail({ envelope: { from: `person${i % 50}@people.test`, to: ['support@sender.test'] }, raw: messages[i % 50]! });
        }
      }),
    );
    const acceptedSeconds = (performance.now() - started) / 1000;
    transports.forEach((t) => t.close());
    const db = new Database(join(env.daemon.dataDir, 'store', 'postmill.db'), { readonly: true });
    const processed = () => (db.prepare('SELECT COUNT(*) AS n FROM inbound_messages WHERE processed_at IS NOT NULL').get() as { n: number }).n;
    await eventually(async () => processed() >= MESSAGES, 300_000, 'all processed');
    const seconds = (performance.now() - started) / 1000;
    const verdicts = db.prepare("SELECT json_extract(data, '$.dkimVerdict') AS dkim, json_extract(data, '$.spfVerdict') AS spf, COUNT(*) AS n FROM events WHERE name = 'email.received' GROUP BY 1, 2").all();
    db.close();
    return {
      name: 'inbound',
      figures: {
        messages: MESSAGES,
        'message bytes': size,
        'SMTP connections': CONNECTIONS,
        'accepted (250) per second': Math.round(MESSAGES / acceptedSeconds),
        'received and processed per second (DKIM + SPF + DMARC)': Math.round(MESSAGES / seconds),
        verdicts: JSON.stringify(verdicts),
      },
    };
  } finally {
    await env.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
