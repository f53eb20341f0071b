// The email log: GET /emails (newest first, cursor pages, filters) and GET /emails/{id} (the
// attempts to hand an email over, with the server, TLS and reply, then its events).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
const ids: string[] = [];

test.before(async () => {
  env = await startMailEnv({ senders: ['sender.test'], sinkDomains: ['rcpt.test'], sink: { tls: true } });
  env.dns.set('gone.test', 'MX', [{ exchange: 'mx.rcpt.test', priority: 10 }]);
  env.sink.onRecipient((rcpt) => (rcpt.endsWith('@gone.test') ? { code: 550, message: '5.1.1 No such user' } : null));
  for (const [to, subject] of [
    ['ann@rcpt.test', 'Welcome aboard'],
    ['bob@rcpt.test', 'Your receipt'],
    ['Ann@rcpt.test', 'Your invoice'],
    ['cat@gone.test', 'Welcome aboard'],
  ]) {
    const r = await env.daemon.request('POST', '/v1/send', { to, from: 'hello@sender.test', subject, body: '<p>Hi</p>' });
    assert.is(r.status, 200, JSON.stringify(r.body));
    ids.push(r.body.data.emails[0].email);
    await env.advance(1000); // distinct creation times
  }
  await env.idle();
});
test.after(async () => env.close());

const list = async (query = '') => {
  const r = await env.daemon.request('GET', `/emails${query}`);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body as { data: any[]; cursor: string | null; hasMore: boolean };
};

test('newest first, in cursor pages that end', async () => {
  const first = await list('?limit=3');
  assert.equal(first.data.map((e) => e.id), [ids[3], ids[2], ids[1]]);
  assert.is(first.hasMore, true);
  const second = await list(`?limit=3&cursor=${first.cursor}`);
  assert.equal(second.data.map((e) => e.id), [ids[0]]);
  assert.is(second.hasMore, false);
  assert.is(second.cursor, null);
});

test('filters: recipient (whole, any case), status, time, a part of the recipient or subject', async () => {
  assert.equal((await list('?to=ANN@rcpt.test')).data.map((e) => e.id), [ids[2], ids[0]]);
  assert.equal((await list('?status=bounced')).data.map((e) => e.id), [ids[3]]);
  assert.equal((await list('?status=delivered&search=welcome')).data.map((e) => e.id), [ids[0]]);
  assert.equal((await list('?search=GONE')).data.map((e) => e.id), [ids[3]]);
  const third = (await list()).data.find((e) => e.id === ids[2]);
  const since = encodeURIComponent(third.createdAt);
  assert.equal((await list(`?since=${since}`)).data.map((e) => e.id), [ids[3], ids[2]]);
  assert.equal((await list(`?until=${since}`)).data.map((e) => e.id), [ids[2], ids[1], ids[0]]);
  assert.equal((await list('?campaignId=0190a0a0-0000-7000-8000-000000000000')).data, []);
});

test('one email: its attempts with the server, the TLS protocol and the reply, then its events', async () => {
  const delivered = (await env.daemon.request('GET', `/emails/${ids[0]}`)).body;
  assert.is(delivered.to, 'ann@rcpt.test');
  assert.is(delivered.subject, 'Welcome aboard');
  assert.is(delivered.status, 'delivered');
  assert.is(delivered.attempts.length, 1);
  const [attempt] = delivered.attempts;
  assert.is(attempt.mx, 'mx.rcpt.test[127.0.0.1]');
  assert.match(attempt.tls, /^TLSv1\.[23]$/);
  assert.match(attempt.reply, /^250 /);
  assert.is(attempt.outcome, 'delivered');
  assert.equal(delivered.events.map((e: any) => e.name), ['email.sent', 'email.delivery']);
  const bounced = (await env.daemon.request('GET', `/emails/${ids[3]}`)).body;
  assert.equal(bounced.attempts.map((a: any) => [a.outcome, a.reply]), [['bounced', '550 5.1.1 No such user']]);
  assert.ok(bounced.events.some((e: any) => e.name === 'email.bounce'));
});

test("bad parameters are 400; an unknown email and another project's are 404", async () => {
  for (const query of ['?status=lost', '?since=yesterday', '?cursor=nonsense', '?to=a&to=b', `?search=${'x'.repeat(201)}`]) {
    const r = await env.daemon.request('GET', `/emails${query}`);
    assert.is(r.status, 400, `${query}: ${JSON.stringify(r.body)}`);
  }
  assert.is((await env.daemon.request('GET', '/emails/0190a0a0-0000-7000-8000-000000000000')).status, 404);
  assert.is((await env.daemon.request('GET', '/emails/not-an-id/raw')).status, 404);
  const other = env.daemon.createProject('other');
  for (const path of [`/emails/${ids[0]}`, `/emails/${ids[0]}/raw`, `/emails/${ids[0]}/checks`]) {
    assert.is((await env.daemon.request('GET', path, undefined, { key: other.secretKey })).status, 404, path);
  }
  assert.equal((await env.daemon.request('GET', '/emails', undefined, { key: other.secretKey })).body.data, []);
});

test('the raw message of an email delivered in mx mode is signed as its delivery signs it', async () => {
  const r = await fetch(`${env.daemon.url}/emails/${ids[0]}/raw`, { headers: { authorization: `Bearer ${env.daemon.project.secretKey}` } });
  assert.is(r.status, 200);
  const raw = await r.text();
  assert.match(raw, /^DKIM-Signature: .*d=sender\.test/s);
  assert.match(raw, 'Subject: Welcome aboard');
});

test.run();
