import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { Pacer } from '../src/outbound/pacer.js';
import { Fanouts } from '../src/outbound/fanouts.js';
import { bulkPlaces, FANOUT_BULK_PLACES } from '../src/outbound/deliver-job.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { metric } from './helpers/metrics.js';
import { queueDirect } from './helpers/queue-direct.js';

const bulkRecipients = (n: number) => Array.from({ length: n }, (_, i) => `bulk${i}@rcpt.test`);
const sendTransactional = async (env: MailEnv, to: string) => {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'shop@sender.test', subject: 'Your receipt', body: '<p>Thanks</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
};
const position = (env: MailEnv, rcpt: string) => env.sink.messages.findIndex((m) => m.rcptTo.includes(rcpt));

test('a transactional email goes ahead of a bulk backlog queued before it, for the same destination', async () => {
  const env = await startMailEnv();
  try {
    await env.verifySender('sender.test');
    env.routeToSink('rcpt.test');
    await env.daemon.stop();
    await queueDirect(env, 'bulk', bulkRecipients(120));
    // The first bulk messages reach the MX and wait there: every place at rcpt.test is taken.
    const release = env.sink.hold((rcpt) => rcpt.startsWith('bulk'));
    await env.daemon.restart();
    await eventually(async () => env.sink.connections >= 3, 8000, 'bulk deliveries under way');
    await sendTransactional(env, 'buyer@rcpt.test');
    // the send is claimed and handed to the engine, where it waits for a place at rcpt.test
    const handedOver = () => metric(env.daemon, 'postmill_deliveries_in_progress', { lane: 'transactional' });
    await eventually(async (saw) => {
      const n = await handedOver();
      saw({ transactionalInDelivery: n, sinkReceived: env.sink.messages.length });
      return n === 1;
    }, 10_000, 'the transactional delivery waiting for a place');
    release();
    await eventually(async () => position(env, 'buyer@rcpt.test') >= 0, 10_000, 'transactional delivery');
    // FIFO would deliver it after every bulk email claimed before it (dozens); it starts in the first
    // free place, among the five started when the five held ones are answered
    assert.ok(position(env, 'buyer@rcpt.test') < 10, `delivered as message ${position(env, 'buyer@rcpt.test') + 1}`);
    await env.sink.waitFor(121, 20_000);
  } finally {
    await env.close();
  }
});

test('another project\'s email goes ahead of a project\'s transactional backlog queued before it, to the same destination', async () => {
  const env = await startMailEnv();
  try {
    await env.verifySender('sender.test');
    env.routeToSink('rcpt.test');
    const other = env.daemon.createProject('other-sender');
    await env.verifySender('other.test', other);
    await env.daemon.stop();
    const backlog = Array.from({ length: 1500 }, (_, i) => `backlog${i}@rcpt.test`);
    await queueDirect(env, 'transactional', backlog);
    await env.daemon.restart();
    await eventually(async () => env.sink.messages.length > 0, 8000, 'the backlog under way');
    const r = await env.daemon.request('POST', '/v1/send', { to: 'client@rcpt.test', from: 'desk@other.test', subject: 'Ticket', body: '<p>Hi</p>' }, { key: other.secretKey });
    assert.is(r.status, 200, JSON.stringify(r.body));
    const deliveredBefore = env.sink.messages.length;
    await eventually(async () => position(env, 'client@rcpt.test') >= 0, 20_000, 'the other project\'s delivery');
    // FIFO claims would deliver it after the rest of the backlog; the claim after its send shares
    // the free places between the two projects, so only what was already claimed (a delivery's
    // places, 100) goes before it, however fast the machine drains
    const at = position(env, 'client@rcpt.test');
    const rest = backlog.length - deliveredBefore;
    assert.ok(at - deliveredBefore <= 150, `delivered ${at - deliveredBefore} messages after its send, of the ${rest} left of the backlog then`);
    await env.sink.waitFor(backlog.length + 1, 60_000);
  } finally {
    await env.close();
  }
});

test('bulk mail keeps to delivery.bulkPerSecond; transactional mail is not held by it', async () => {
  // one a second: the backlog would take 40 s, so the transactional email has time to show it is
  // not held however slow the machine; the rest goes as the test moves the daemon's clock
  const env = await startMailEnv({ config: { delivery: { bulkPerSecond: 1 } } });
  try {
    await env.verifySender('sender.test');
    env.routeToSink('rcpt.test');
    await env.daemon.stop();
    await queueDirect(env, 'bulk', bulkRecipients(40));
    const restarted = performance.now();
    await env.daemon.restart();
    await eventually(() => env.sink.messages.length > 0, 8000, 'first bulk delivery');
    await sendTransactional(env, 'buyer@rcpt.test');
    await eventually(() => position(env, 'buyer@rcpt.test') >= 0, 20_000, 'transactional delivery');
    const seconds = (performance.now() - restarted) / 1000;
    const bulkBefore = env.sink.messages.filter((m) => m.rcptTo[0]!.startsWith('bulk')).length;
    assert.ok(bulkBefore < 30, `${bulkBefore} bulk emails went before it`);
    // a second's worth at once, then one a second (a slow machine sends fewer, never more)
    assert.ok(bulkBefore <= 1 + Math.ceil(seconds), `${bulkBefore} bulk emails within ${seconds.toFixed(1)} s of the restart, at one a second`);
    // each second the daemon's clock moves on lets the next one go
    await eventually(
      async (saw) => {
        const received = env.sink.messages.length;
        saw({ received });
        if (received < 41) await env.advance(1000);
        return received === 41;
      },
      30_000,
      'the other bulk emails as the clock moves on',
    );
  } finally {
    await env.close();
  }
});

test('with both the throttle and the bulk pace, a job the pacer sends back takes no place in the throttle', async () => {
  const env = await startMailEnv({ config: { delivery: { bulkPerSecond: 2, throttlePerMinute: 6 } } });
  try {
    await env.verifySender('sender.test');
    env.routeToSink('rcpt.test');
    await env.daemon.stop();
    await queueDirect(env, 'bulk', bulkRecipients(12));
    await env.daemon.restart();
    // the minute's six places all go to deliveries (paced at two a second), none to jobs sent back
    await env.sink.waitFor(6, 15_000);
    await env.idle();
    assert.is(env.sink.messages.length, 6, 'six in the first minute');
    await env.advance(60_000);
    await env.sink.waitFor(12, 15_000);
  } finally {
    await env.close();
  }
});

test('the bulk pacer: a second of tokens, then each job gets its own slot and goes when it comes', () => {
  const clock = new ShiftableClock();
  const pacer = new Pacer(clock, 10);
  for (let i = 0; i < 10; i++) assert.is(pacer.take('p1'), null);
  const now = clock.now();
  const slots = [pacer.take('p1')!, pacer.take('p1')!, pacer.take('p1')!];
  assert.ok(slots[0]! >= now + 99 && slots[0]! <= now + 101, `first slot ${slots[0]! - now} ms ahead`);
  assert.ok(slots[1]! - slots[0]! >= 99 && slots[2]! - slots[1]! >= 99, 'slots spread at the rate');
  assert.is(pacer.take('p2'), null, 'another project has its own rate');
  clock.advance(slots[0]! - clock.now());
  assert.is(pacer.take('p1'), null, 'a job back at its slot goes');
  assert.is(new Pacer(clock, 0).take('p1'), null, '0 is no limit');
});

test('while a campaign fans out, bulk mail keeps to a few places; the share comes back however the fan-out ends', async () => {
  assert.is(bulkPlaces(100, false), 80, 'four fifths of the places, the rest for transactional mail');
  assert.is(bulkPlaces(100, true), FANOUT_BULK_PLACES);
  assert.is(bulkPlaces(2, true), 1, 'never more than the share');
  const fanouts = new Fanouts();
  let finish = () => {};
  const first = fanouts.run(() => new Promise<void>((resolve) => (finish = resolve)));
  const second = fanouts.run(() => Promise.reject(new Error('crashed')));
  assert.ok(fanouts.running);
  await second.catch(() => {});
  assert.ok(fanouts.running, 'one still runs');
  finish();
  await first;
  assert.not.ok(fanouts.running);
});

test.run();
