import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon } from './helpers/daemon.js';
import { ADMIN, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { sample } from './helpers/metrics.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('acme.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

const scrape = async () => {
  const r = await env.daemon.request('GET', '/metrics', undefined, { key: ADMIN });
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', 'text/plain');
  return r.body as string;
};

/** Writes to the daemon's store beside it, as another process would. */
function withStore<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(join(env.daemon.dataDir, 'store', 'postmill.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

test('GET /metrics needs the admin token; without one configured it is off', async () => {
  assert.is((await env.daemon.request('GET', '/metrics', undefined, { key: null })).status, 401);
  assert.is((await env.daemon.request('GET', '/metrics')).status, 401, 'a secret key is not the admin token');
  const plain = await startTestDaemon();
  try {
    const r = await plain.request('GET', '/metrics', undefined, { key: 'whatever-token-of-24-characters' });
    assert.is(r.status, 404);
    assert.match(r.body.error.message, 'adminToken');
  } finally {
    await plain.dispose();
  }
});

test('requests by route and status, with latency histograms', async () => {
  const created = await env.daemon.request('POST', '/contacts', { email: 'm1@rcpt.test' });
  await env.daemon.request('GET', `/contacts/${created.body.id}`);
  await env.daemon.request('GET', '/contacts/00000000-0000-4000-8000-000000000000');
  const text = await scrape();
  assert.is(sample(text, 'postmill_http_requests_total', { method: 'POST', route: '/contacts', status: '201' }), 1);
  assert.ok(
    sample(text, 'postmill_http_requests_total', { method: 'GET', route: '/contacts/:id', status: '200' })! >= 1,
    'by route template, not the raw path',
  );
  assert.ok(sample(text, 'postmill_http_requests_total', { method: 'GET', route: '/contacts/:id', status: '404' })! >= 1);
  assert.ok(sample(text, 'postmill_http_request_duration_seconds_count', { method: 'POST', route: '/contacts' })! >= 1);
  assert.ok(sample(text, 'postmill_http_request_duration_seconds_bucket', { method: 'POST', route: '/contacts', le: '+Inf' })! >= 1);
  assert.ok(sample(text, 'process_resident_memory_bytes')! > 0, 'the process metrics too');
});

test('deliveries by outcome and destination domain; inbound messages by class', async () => {
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 no such user' } : null));
  await env.daemon.request('POST', '/v1/send', { to: ['a@rcpt.test', 'gone@rcpt.test'], from: 'hello@acme.test', subject: 's', body: '<p>b</p>' });
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: env.daemon.smtpPort, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'someone@people.test', to: 'support@acme.test', subject: 'hello', text: 'a question' });
  transport.close();
  const text = await eventually(
    async () => {
      const t = await scrape();
      const ready =
        sample(t, 'postmill_deliveries_total', { outcome: 'delivered' }) === 1 &&
        sample(t, 'postmill_deliveries_total', { outcome: 'bounced' }) === 1 &&
        sample(t, 'postmill_inbound_messages_total', { class: 'received' }) === 1;
      return ready && t;
    },
    8000,
    'a delivery, a bounce and a received message counted',
  );
  assert.is(sample(text, 'postmill_deliveries_by_domain_total', { outcome: 'delivered', domain: 'rcpt.test' }), 1);
  assert.is(sample(text, 'postmill_deliveries_by_domain_total', { outcome: 'bounced', domain: 'rcpt.test' }), 1);
  // both were handed to the engine and ended (a waiting one is counted: test/delivery-lanes.test.ts)
  assert.is(sample(text, 'postmill_deliveries_in_progress', { lane: 'transactional' }), 0);
});

test('queue depth and oldest age by job kind and lane, reactor lag, store and WAL size', async () => {
  const now = Date.now();
  // A reactor job nobody runs (no handler for the kind), due 90 s ago: its age is the reactor lag.
  withStore((db) =>
    db
      .prepare(`INSERT INTO jobs (kind, payload, run_at, max_attempts, created_at, updated_at) VALUES ('reactor.test', '{}', ?, 5, ?, ?)`)
      .run(now - 90_000, now - 90_000, now - 90_000),
  );
  let text = await scrape();
  assert.is(sample(text, 'postmill_jobs', { kind: 'reactor.test', lane: 'transactional', status: 'queued' }), 1);
  assert.ok(sample(text, 'postmill_jobs_oldest_due_age_seconds', { kind: 'reactor.test', lane: 'transactional' })! >= 90);
  assert.ok(sample(text, 'postmill_reactor_lag_seconds')! >= 90);
  assert.ok(sample(text, 'postmill_store_bytes')! > 0);
  assert.ok(sample(text, 'postmill_store_wal_bytes')! >= 0);
  // Time moves with the daemon's clock.
  await env.advance(60_000);
  text = await scrape();
  assert.ok(sample(text, 'postmill_reactor_lag_seconds')! >= 150);

  // The gauges split by delivery lane (jobs.lane: 0 transactional, 1 bulk).
  withStore((db) =>
    db.prepare(`INSERT INTO jobs (kind, payload, run_at, max_attempts, created_at, updated_at, lane) VALUES ('reactor.test', '{}', ?, 5, ?, ?, 1)`).run(now, now, now),
  );
  text = await scrape();
  assert.is(sample(text, 'postmill_jobs', { kind: 'reactor.test', lane: 'bulk', status: 'queued' }), 1);
});

test.run();
