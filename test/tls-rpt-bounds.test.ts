// TLS-RPT sends are bounded whatever a recipient domain publishes: its report goes to the first two
// distinct destinations of its `_smtp._tls` record, and a policy domain gets one report a day, of
// the latest finished day, even when days of counts waited (reports turned off, then on).
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from './helpers/mail-env.js';
import { policyText, startTlsEnv, type TlsEnv } from './helpers/tls-peers.js';

const DAY = 24 * 3600_000;
const COLLECTOR = 'https://rua.collector.test';
let env: TlsEnv;

test.before(async () => {
  env = await startTlsEnv({ delivery: { tls: { reports: false } } });
});
test.after(async () => env.close());

const posts = (path: string) => env.https.requests.filter((r) => r.method === 'POST' && r.host === 'rua.collector.test' && r.path === path);

async function send(to: string): Promise<void> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'hello@sender.test', subject: 'Over TLS', body: '<p>Hi</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  await eventually(async () => env.sink.messages.some((m) => m.rcptTo.includes(to)), 10_000, `${to} delivered`);
}

async function turnReportsOn(): Promise<void> {
  await env.daemon.stop();
  const config = JSON.parse(readFileSync(env.daemon.configFile, 'utf8'));
  config.delivery.tls.reports = true;
  writeFileSync(env.daemon.configFile, JSON.stringify(config));
  await env.daemon.restart();
}

test('a record naming four destinations (one twice) gets two; two days of waiting counts make one report, of the later day', async () => {
  await env.publishPolicy('many.test', '1', policyText('enforce', ['mx.many.test']));
  await env.routeWithCertificate('many.test', 'mx.many.test', await env.ca.issue(['mx.many.test']));
  env.dns.set('rua.collector.test', 'A', [env.https.address]);
  env.https.certificate('rua.collector.test', await env.ca.issue(['rua.collector.test']));
  for (const path of ['/a', '/b', '/c', '/d']) env.https.serve('rua.collector.test', path, { status: 200, body: '' });
  env.dns.set('_smtp._tls.many.test', 'TXT', [`v=TLSRPTv1; rua=${COLLECTOR}/a,${COLLECTOR}/a,${COLLECTOR}/b,${COLLECTOR}/c,${COLLECTOR}/d`]);

  await send('first-day@many.test');
  const secondDay = new Date(await env.advance(DAY)).toISOString().slice(0, 10);
  await env.idle();
  // a new TLS session the next day, not the first day's connection kept open
  await env.daemon.stop();
  await env.daemon.restart();
  await send('second-day@many.test');
  await env.advance(DAY);
  await env.idle();
  assert.is(env.https.requests.filter((r) => r.host === 'rua.collector.test').length, 0, 'reports are off');

  await turnReportsOn();
  await env.advance(DAY);
  await env.idle();
  await eventually(async () => posts('/a').length > 0 && posts('/b').length > 0, 10_000, 'the first two destinations have the report');
  await env.idle();
  assert.is(posts('/a').length, 1, 'a destination named twice gets it once');
  assert.is(posts('/b').length, 1);
  assert.is(posts('/c').length + posts('/d').length, 0, 'no destination past the first two');
  const report = JSON.parse(gunzipSync(posts('/a')[0]!.body).toString('utf8'));
  assert.is(report['date-range']['start-datetime'].slice(0, 10), secondDay, 'the latest finished day');
  assert.is(report.policies[0].summary['total-successful-session-count'], 1, "that day's one session");

  await env.advance(DAY);
  await env.idle();
  assert.is(posts('/a').length + posts('/b').length, 2, 'the earlier day never gets a report of its own');
});

test.run();
