import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyDkim } from './helpers/dkim-verify.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ config: { delivery: { maxAge: 6 * 3600 } } });
  await env.verifySender('sender.test');
  for (const domain of ['rcpt.test', 'soft.test', 'hard.test', 'late.test']) env.routeToSink(domain);
});
test.after(async () => env.close());

async function send(to: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await env.daemon.request('POST', '/v1/send', {
    to,
    from: { name: 'Sender', email: 'hello@sender.test' },
    subject: 'Hello there',
    body: '<p>Hi <strong>there</strong>, <a href="https://example.com/x">read</a></p>',
    ...extra,
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.data.emails[0].email;
}

const eventFor = (name: string, emailId: string) => async () => (await eventsNamed(env.daemon, name)).find((e) => e.emailId === emailId);

test('a send arrives at the MX found through DNS, DKIM-valid, with the VERP return path and a text part', async () => {
  const emailId = await send('ann@rcpt.test');
  const [message] = await env.sink.waitFor(1, 8000);
  assert.is(message!.mailFrom, `b-${emailId}@bounces.sender.test`);
  assert.equal(message!.rcptTo, ['ann@rcpt.test']);
  assert.is(message!.helo, 'mx.postmill.test');
  const dkim = await verifyDkim(message!.raw, env.dns.address);
  assert.ok(dkim.pass, JSON.stringify(dkim.results));
  const parsed = await simpleParser(message!.raw);
  assert.match(parsed.text ?? '', 'Hi there');
  assert.match(String(parsed.html), '<strong>there</strong>');
  assert.is(parsed.messageId, `<${emailId}@mx.postmill.test>`);
  const delivery = await eventually(eventFor('email.delivery', emailId), 8000, 'email.delivery');
  assert.type(delivery.data.deliveredAt, 'string');
  assert.is(delivery.data.sourceType, 'TRANSACTIONAL');
  assert.is(delivery.data.from, 'hello@sender.test');
});

test('a 5xx is a permanent bounce: email.bounce, the contact unsubscribed with reason bounce', async () => {
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone@') ? { code: 550, message: '5.1.1 No such user' } : null));
  await env.daemon.request('POST', '/contacts', { email: 'gone@hard.test', subscribed: true });
  const emailId = await send('gone@hard.test');
  const bounce = await eventually(eventFor('email.bounce', emailId), 8000, 'email.bounce');
  assert.is(bounce.data.bounceType, 'Permanent');
  assert.type(bounce.data.bouncedAt, 'string');
  const unsub = await eventually(async () => (await eventsNamed(env.daemon, 'contact.unsubscribed')).find((e) => e.contactId === bounce.contactId), 8000, 'contact.unsubscribed after the bounce');
  assert.equal(unsub.data, { reason: 'bounce' });
  const contact = await env.daemon.request('GET', `/contacts/${bounce.contactId}`);
  assert.is(contact.body.subscribed, false);
});

test('a 4xx is deferred and retried as the clock moves, then delivered', async () => {
  let refusals = 0;
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('busy@') && refusals++ < 2 ? { code: 451, message: '4.3.0 Try later' } : null));
  const before = env.sink.messages.length;
  const emailId = await send('busy@soft.test');
  await eventually((saw) => (saw({ refusals }), refusals >= 1), 8000, 'first attempt');
  // the deferral is written and its retry is due in a minute: nothing runs until the clock moves
  await env.idle();
  assert.is(refusals, 1, 'not retried before its time');
  await env.advance(59_000);
  await env.idle();
  assert.is(refusals, 1, 'nor a second before its minute');
  await env.advance(2_000);
  await eventually((saw) => (saw({ refusals }), refusals >= 2), 8000, 'second attempt');
  await env.advance(5 * 60_000 + 1000);
  await eventually(eventFor('email.delivery', emailId), 8000, 'delivered after retries');
  assert.is(env.sink.messages.length, before + 1);
});

test('retries running out past delivery.maxAge end as a transient bounce without unsubscribing', async () => {
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('never@') ? { code: 452, message: '4.2.2 Mailbox busy' } : null));
  const emailId = await send('never@late.test', { subscribed: true });
  const first = await eventually(async () => (await eventsNamed(env.daemon, 'email.sent')).find((e) => e.emailId === emailId), 8000, 'email.sent');
  // each attempt is made and deferred (the runner idle, the retry due later) before the clock moves to the next
  for (const step of [61_000, 5 * 60_000, 15 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 60 * 60_000, 4 * 60 * 60_000]) {
    await env.idle();
    await env.advance(step + 1000);
  }
  const bounce = await eventually(eventFor('email.bounce', emailId), 8000, 'transient bounce');
  assert.is(bounce.data.bounceType, 'Transient');
  assert.is(bounce.data.transientBounce, true);
  const contact = await env.daemon.request('GET', `/contacts/${first.contactId}`);
  assert.is(contact.body.subscribed, true);
});

test('no MX: delivery falls back to the A record; a null MX is a permanent bounce', async () => {
  env.dns.set('direct.test', 'A', ['127.0.0.1']);
  const direct = await send('bo@direct.test');
  await eventually(eventFor('email.delivery', direct), 8000, 'delivery by A record');
  env.dns.set('nullmx.test', 'MX', [{ exchange: '.', priority: 0 }]);
  const nullMx = await send('x@nullmx.test');
  const bounce = await eventually(eventFor('email.bounce', nullMx), 8000, 'null MX bounce');
  assert.is(bounce.data.bounceType, 'Permanent');
});

test('MX preference: the lowest preference is tried first, the next host when it refuses', async () => {
  env.dns.set('pref.test', 'MX', [
    { exchange: 'backup.pref.test', priority: 20 },
    { exchange: 'primary.pref.test', priority: 5 },
  ]);
  env.dns.set('primary.pref.test', 'A', ['127.0.0.2']); // nothing listens there: refused
  env.dns.set('backup.pref.test', 'A', ['127.0.0.1']);
  const emailId = await send('p@pref.test');
  await eventually(eventFor('email.delivery', emailId), 15000, 'delivery through the backup MX');
});

test('jobs survive kill -9: emails queued while the MX refused are delivered after a restart', async () => {
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('crash') ? { code: 421, message: '4.3.2 Going down' } : null));
  const ids = await Promise.all([1, 2, 3].map((i) => send(`crash${i}@rcpt.test`)));
  await eventually(async () => (await eventsNamed(env.daemon, 'email.sent')).filter((e) => ids.includes(e.emailId)).length === 3, 8000, 'three email.sent');
  // every first attempt refused and its retry written, due in a minute: the kill finds them deferred
  await env.idle();
  await env.daemon.kill();
  env.sink.onRecipient(() => null);
  await env.daemon.restart();
  await env.advance(61_000);
  for (const id of ids) await eventually(eventFor('email.delivery', id), 10_000, `delivery of ${id} after restart`);
});

test('the per-project send throttle holds the queue, not the API', async () => {
  const slow = await startMailEnv({ config: { delivery: { throttlePerMinute: 2 } } });
  try {
    await slow.verifySender('sender.test');
    slow.routeToSink('rcpt.test');
    const sent = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => slow.daemon.request('POST', '/v1/send', { to: `t${i}@rcpt.test`, from: 'hello@sender.test', subject: 'T', body: '<p>t</p>' })),
    );
    assert.ok(sent.every((r) => r.status === 200), 'the API accepts everything at once');
    await slow.sink.waitFor(2, 8000);
    // the other three wait for the throttle's minute: nothing is due until the clock moves
    await slow.idle();
    assert.is(slow.sink.messages.length, 2, 'two a minute');
    await slow.advance(60_000);
    await slow.sink.waitFor(4, 8000);
    await slow.advance(60_000);
    await slow.sink.waitFor(5, 8000);
  } finally {
    await slow.close();
  }
});

test('relay mode: everything goes through the smarthost with its credentials, same events', async () => {
  const relay = await startMailEnv({ sink: { auth: { user: 'relay-user', pass: 'relay-pass' } }, relay: true });
  try {
    await relay.verifySender('sender.test');
    relay.sink.onRecipient((rcpt) => (rcpt.startsWith('no@') ? { code: 550, message: '5.1.1 Unknown' } : null));
    const r = await relay.daemon.request('POST', '/v1/send', { to: ['yes@anywhere.test', 'no@anywhere.test'], from: 'hello@sender.test', subject: 'Via relay', body: '<p>x</p>' });
    assert.is(r.status, 200, JSON.stringify(r.body));
    const [yes, no] = r.body.data.emails.map((e: { email: string }) => e.email);
    const [message] = await relay.sink.waitFor(1, 8000);
    assert.equal(message!.rcptTo, ['yes@anywhere.test'], 'no DNS needed: the relay takes it');
    await eventually(async () => (await eventsNamed(relay.daemon, 'email.delivery')).find((e) => e.emailId === yes), 8000, 'relay delivery');
    const bounce = await eventually(async () => (await eventsNamed(relay.daemon, 'email.bounce')).find((e) => e.emailId === no), 8000, 'relay bounce');
    assert.is(bounce.data.bounceType, 'Permanent');
  } finally {
    await relay.close();
  }
});

test.run();
