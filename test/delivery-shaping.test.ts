// Sending like a good citizen, through the real daemon with loopback DNS and an SMTP sink:
// mailbox providers found by their MX hosts share one budget, a provider's throttling suspends
// its queue (and only its), warm-up holds a new domain's bulk mail at its daily budget, and sender
// health counts what was sent, bounced and complained.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { inboundFixture, smtpSend } from './helpers/inbound.js';
import { queueDirect } from './helpers/queue-direct.js';

const DAY_MS = 86_400_000;

async function send(env: MailEnv, to: string, from = 'hello@sender.test'): Promise<string> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from, subject: 'Hello', body: '<p>Hi</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.data.emails[0].email;
}

const emailOf = async (env: MailEnv, id: string) => (await env.daemon.request('GET', `/emails/${id}`)).body;
const arrived = (env: MailEnv, rcpt: string) => env.sink.messages.filter((m) => m.rcptTo.includes(rcpt)).length;

/** `domain`'s MX is `mxHost`, which is the sink. */
function routeVia(env: MailEnv, domain: string, mxHost: string): void {
  env.dns.set(domain, 'MX', [{ exchange: mxHost, priority: 10 }]);
  env.dns.set(mxHost, 'A', ['127.0.0.1']);
}

test('a provider that throttles is suspended, with a growing pause, while another keeps taking mail; its mail resumes after without using up retries', async () => {
  const env = await startMailEnv({ senders: ['sender.test'] });
  try {
    // two domains hosted by Google (Workspace and Gmail MX names), one by Yahoo
    routeVia(env, 'gmail-one.test', 'aspmx.l.google.com');
    routeVia(env, 'gmail-two.test', 'alt1.gmail-smtp-in.l.google.com');
    routeVia(env, 'yahoo-one.test', 'mta5.am0.yahoodns.net');
    let throttling = true;
    const asked: string[] = [];
    env.sink.onRecipient((rcpt) => {
      asked.push(rcpt);
      return throttling && /@gmail-(one|two)\.test$/.test(rcpt) ? { code: 421, message: '4.7.0 Try again later, closing connection.' } : null;
    });
    const first = await send(env, 'a@gmail-one.test');
    await env.idle();
    assert.equal(asked, ['a@gmail-one.test']);
    const throttled = await emailOf(env, first);
    assert.is(throttled.status, 'deferred');
    assert.is(throttled.attempts.length, 1);
    assert.match(throttled.attempts[0].reply, '421 4.7.0');
    // Google's queue is suspended: the other Google domain waits without an attempt, Yahoo takes its mail
    const second = await send(env, 'b@gmail-two.test');
    await send(env, 'c@yahoo-one.test');
    await env.sink.waitFor(1, 8000);
    await env.idle();
    assert.equal(asked, ['a@gmail-one.test', 'c@yahoo-one.test'], 'no attempt at Google while it is suspended');
    const held = await emailOf(env, second);
    assert.is(held.status, 'queued');
    assert.equal(held.attempts, []);
    // after the first pause (1 min) Google is tried again and throttles again: the next pause is 2 min
    await env.advance(61_000);
    await eventually(async () => asked.filter((r) => r.endsWith('@gmail-one.test')).length === 2 && asked.includes('b@gmail-two.test'), 8000, 'Google tried again');
    await env.idle();
    assert.is(arrived(env, 'a@gmail-one.test') + arrived(env, 'b@gmail-two.test'), 0);
    throttling = false;
    // 2 minutes on, both go. A retry counted against the email would wait 5 minutes (1, 5, 15... of the schedule).
    await env.advance(121_000);
    await env.sink.waitFor(3, 8000);
    assert.is(arrived(env, 'a@gmail-one.test'), 1);
    assert.is(arrived(env, 'b@gmail-two.test'), 1);
    await eventually(async () => (await emailOf(env, first)).status === 'delivered', 8000, 'delivered status');
    const done = await emailOf(env, first);
    assert.equal(
      done.attempts.map((a: { outcome: string }) => a.outcome),
      ['deferred', 'deferred', 'delivered'],
    );
  } finally {
    await env.close();
  }
});

test('a 421 that is not throttling, and throttling by a server of no known provider, are ordinary deferrals', async () => {
  const env = await startMailEnv({ senders: ['sender.test'] });
  try {
    routeVia(env, 'gmail-one.test', 'aspmx.l.google.com');
    routeVia(env, 'small.test', 'mx.small.test');
    env.sink.onRecipient((rcpt) =>
      rcpt === 'busy@gmail-one.test' ? { code: 421, message: '4.3.2 Service not available' } : rcpt.endsWith('@small.test') ? { code: 421, message: '4.7.0 Try again later' } : null,
    );
    await send(env, 'busy@gmail-one.test');
    await send(env, 'x@small.test');
    await env.idle();
    // Google is not suspended: its next mail goes at once; small.test is not a provider and is not suspended either
    await send(env, 'ok@gmail-one.test');
    await send(env, 'y@small.test');
    await env.sink.waitFor(1, 8000);
    await env.idle();
    assert.is(arrived(env, 'ok@gmail-one.test'), 1);
    const retried = await env.daemon.request('GET', '/emails?limit=10');
    const smalls = retried.body.data.filter((e: { to: string }) => e.to.endsWith('@small.test'));
    assert.equal(
      smalls.map((e: { status: string }) => e.status),
      ['deferred', 'deferred'],
      'both small.test emails were attempted (and deferred): no suspension held the second',
    );
  } finally {
    await env.close();
  }
});

test("the domains of one provider share its rate and sessions, with its messages per session; other domains do not", async () => {
  const env = await startMailEnv({
    senders: ['sender.test'],
    config: {
      delivery: {
        providers: {
          acme: { suffixes: ['acme-mx.test'], connections: 1, perConnection: 5, perMinute: 1 },
          beta: { suffixes: ['beta-mx.test'], connections: 1, perConnection: 2, perMinute: 0 },
        },
      },
    },
  });
  try {
    routeVia(env, 'one.test', 'in1.acme-mx.test');
    routeVia(env, 'two.test', 'in2.acme-mx.test');
    routeVia(env, 'other.test', 'mx.other.test');
    routeVia(env, 'another.test', 'mx.another.test');
    const one = await send(env, 'x@one.test');
    await env.sink.waitFor(1, 8000);
    const two = await send(env, 'y@two.test');
    await send(env, 'z@other.test');
    await send(env, 'w@another.test');
    await env.sink.waitFor(3, 8000);
    await env.idle();
    // one a minute for acme, whichever of its domains: two.test waits; other domains are not held
    assert.is(arrived(env, 'x@one.test'), 1);
    assert.is(arrived(env, 'y@two.test'), 0);
    assert.is((await emailOf(env, two)).status, 'queued');
    assert.is((await emailOf(env, one)).status, 'delivered');
    await env.advance(60_000);
    await env.sink.waitFor(4, 8000);
    assert.is(arrived(env, 'y@two.test'), 1);
    // beta: one session at a time for both its domains, two messages each: four messages, two sessions
    routeVia(env, 'b1.test', 'in.beta-mx.test');
    routeVia(env, 'b2.test', 'in.beta-mx.test');
    await env.idle();
    const before = env.sink.connections;
    for (const to of ['p@b1.test', 'q@b2.test', 'r@b1.test', 's@b2.test']) await send(env, to);
    await env.sink.waitFor(8, 8000);
    assert.is(env.sink.connections - before, 2);
  } finally {
    await env.close();
  }
});

test('warm-up: past the day budget a new domain holds bulk mail, never transactional mail, and releases it the next day', async () => {
  const env = await startMailEnv({ senders: ['sender.test'], config: { delivery: { warmup: { enabled: true, schedule: [3, 10] } } } });
  try {
    env.routeToSink('rcpt.test');
    const domain = (await env.daemon.request('GET', '/domains')).body.data.find((d: { domain: string }) => d.domain === 'sender.test');
    assert.equal(domain.warmup, { day: 1, budget: 3, sentToday: 0 });
    await env.daemon.stop();
    await queueDirect(env, 'bulk', Array.from({ length: 5 }, (_, i) => `bulk${i}@rcpt.test`));
    await env.daemon.restart();
    await env.sink.waitFor(3, 8000);
    await env.idle();
    assert.is(env.sink.messages.length, 3, 'three bulk emails, the day 1 budget');
    // transactional mail goes past the budget (and counts)
    await send(env, 'buyer1@rcpt.test');
    await send(env, 'buyer2@rcpt.test');
    await env.sink.waitFor(5, 8000);
    await env.idle();
    assert.equal(env.sink.messages.map((m) => m.rcptTo[0]!.replace(/\d+@.*/, '')).sort(), ['bulk', 'bulk', 'bulk', 'buyer', 'buyer']);
    const today = await env.daemon.request('GET', `/domains/${domain.id}`);
    assert.is(today.status, 200);
    const other = env.daemon.createProject('other');
    assert.is((await env.daemon.request('GET', `/domains/${domain.id}`, undefined, { key: other.secretKey })).status, 404, "another project's domain");
    assert.equal(today.body.warmup, { day: 1, budget: 3, sentToday: 5 });
    const stillQueued = (await env.daemon.request('GET', '/emails?limit=20')).body.data.filter((e: { status: string }) => e.status === 'queued');
    assert.is(stillQueued.length, 2, 'two bulk emails wait, neither failed nor deferred');
    // the next day (UTC) starts: day 2's budget releases them at its pace, a tenth of the day apart
    const now = await env.advance(1);
    await env.advance(Math.ceil(now / DAY_MS) * DAY_MS - now + 1000);
    await env.sink.waitFor(6, 8000);
    await env.idle();
    assert.is(env.sink.messages.length, 6, 'one held email at the start of the day');
    await env.advance(DAY_MS / 10);
    await env.sink.waitFor(7, 8000);
    await env.idle();
    const tomorrow = await env.daemon.request('GET', `/domains/${domain.id}`);
    assert.equal(tomorrow.body.warmup, { day: 2, budget: 10, sentToday: 2 });
  } finally {
    await env.close();
  }
});

test('sender health counts what was sent, bounced and complained, in the API and in /metrics', async () => {
  const env = await startMailEnv({ senders: ['sender.test', 'quiet.test'] });
  try {
    env.routeToSink('rcpt.test');
    env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 No such user' } : null));
    const ids: string[] = [];
    for (const to of ['a@rcpt.test', 'b@rcpt.test', 'c@rcpt.test', 'gone@rcpt.test']) ids.push(await send(env, to));
    // the simulator's made-up outcomes never count
    await send(env, 'bounce@simulator.postmill.invalid');
    await env.sink.waitFor(3, 8000);
    await env.idle();
    // an ARF complaint about the email to b@
    await smtpSend(env.daemon.smtpPort, 'fbl@isp.test', ['fbl@sender.test'], inboundFixture('arf-yahoo.eml', ids[1]!, 'sender.test'));
    await eventually(async () => (await eventsNamed(env.daemon, 'email.complaint')).some((e) => e.emailId === ids[1]), 8000, 'the complaint recorded');
    const domains = (await env.daemon.request('GET', '/domains')).body.data as { domain: string; health: any }[];
    const health = domains.find((d) => d.domain === 'sender.test')!.health;
    const figures = { sent: 4, bounced: 1, complained: 1, bounceRate: 0.25, complaintRate: 0.25 };
    assert.equal(health.windows, [
      { days: 7, ...figures },
      { days: 30, ...figures },
    ]);
    assert.is(health.status, 'unknown', 'four emails are too few to judge (test/sender-health-volume.test.ts judges 100)');
    assert.equal(health.thresholds.complaintRate, { target: 0.001, limit: 0.003 });
    const quiet = domains.find((d) => d.domain === 'quiet.test')!.health;
    assert.is(quiet.status, 'unknown');
    assert.equal(quiet.windows[0], { days: 7, sent: 0, bounced: 0, complained: 0, bounceRate: null, complaintRate: null });
    const metrics = await env.daemon.request('GET', '/metrics', undefined, { key: ADMIN });
    const text = String(metrics.body);
    assert.match(text, 'postmill_sender_sent{domain="sender.test",window="7d"} 4');
    assert.match(text, 'postmill_sender_bounce_rate{domain="sender.test",window="30d"} 0.25');
    assert.match(text, 'postmill_sender_complaint_rate{domain="sender.test",window="7d"} 0.25');
    assert.not.match(text, 'postmill_sender_bounce_rate{domain="quiet.test"');
  } finally {
    await env.close();
  }
});

test.run();
