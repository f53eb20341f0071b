import { simpleParser } from 'mailparser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { inboundFixture, smtpSend } from './helpers/inbound.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

const campaigns = suite('campaigns');
let env: MailEnv;
let d: TestDaemon;

campaigns.before(async () => {
  env = await startMailEnv({ sinkDomains: ['readers.test'] });
  d = env.daemon;
});
campaigns.after(async () => env.close());

let projects = 0;
let base: Record<string, unknown>;

/** A project of its own with a verified sender domain; `base` becomes a campaign body from that domain. */
async function project(): Promise<{ keys: Keys; key: { key: string }; domain: string }> {
  const keys = d.createProject('campaigns');
  const domain = `news${++projects}.test`;
  await env.verifySender(domain, keys);
  base = { name: 'Spring news', subject: 'Hello {{name ?? friend}}', body: '<p>Hi {{name}}, <a href="https://news.test/spring">read</a></p>', from: `editor@${domain}`, audienceType: 'ALL' };
  return { keys, key: { key: keys.secretKey }, domain };
}

async function contacts(key: { key: string }, list: { email: string; subscribed?: boolean; data?: Record<string, unknown> }[]): Promise<void> {
  for (const c of list) assert.is((await d.request('POST', '/contacts', c, key)).status, 201);
}

const create = async (key: { key: string }, body?: Record<string, unknown>) => {
  const r = await d.request('POST', '/campaigns', body ?? base, key);
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body.data as { id: string; status: string };
};
const get = async (key: { key: string }, id: string) => (await d.request('GET', `/campaigns/${id}`, undefined, key)).body;
const until = (key: { key: string }, id: string, check: (c: any) => boolean, what: string) =>
  eventually(async () => {
    const c = await get(key, id);
    return check(c) ? c : null;
  }, 15_000, what);
/** A header of a raw message as written (unfolded). */
const header = (raw: Buffer, name: string) =>
  raw.toString('latin1').split('\r\n\r\n')[0]!.replace(/\r\n[ \t]/g, ' ').split('\r\n').find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
const mailTo = (rcpt: string) => env.sink.messages.filter((m) => m.rcptTo.includes(rcpt));

campaigns('create answers {success, data} in DRAFT with zero counters; the audience companions are 400; bad bodies 422; other senders 403', async () => {
  const { key } = await project();
  const r = await d.request('POST', '/campaigns', base, key);
  assert.is(r.status, 201);
  assert.is(r.body.success, true);
  const c = r.body.data;
  assert.is(c.status, 'DRAFT');
  assert.is(c.type, 'MARKETING');
  assert.equal([c.totalRecipients, c.sentCount, c.deliveredCount, c.openedCount, c.clickedCount, c.bouncedCount], [0, 0, 0, 0, 0, 0]);
  assert.equal([c.scheduledFor, c.sentAt, c.segmentId, c.audienceCondition], [null, null, null, null]);
  const noSegment = await d.request('POST', '/campaigns', { ...base, audienceType: 'SEGMENT' }, key);
  assert.is(noSegment.status, 400);
  const noCondition = await d.request('POST', '/campaigns', { ...base, audienceType: 'FILTERED' }, key);
  assert.is(noCondition.status, 400);
  const invalid = await d.request('POST', '/campaigns', { ...base, audienceType: 'SOME', subject: 'a\nb' }, key);
  assert.is(invalid.status, 422);
  assert.equal(invalid.body.error.errors.map((e: { field: string }) => e.field).sort(), ['audienceType', 'subject']);
  const otherSender = await d.request('POST', '/campaigns', { ...base, from: 'x@elsewhere.test' }, key);
  assert.is(otherSender.status, 403);
  assert.is((await d.request('GET', '/campaigns/not-a-uuid', undefined, key)).status, 422);
  assert.is((await d.request('POST', '/campaigns/not-a-uuid/send', {}, key)).status, 422);
  assert.is((await d.request('GET', `/campaigns/${c.id}`)).status, 404, "another project's campaign is not found");
  assert.is((await d.request('GET', '/campaigns/00000000-0000-4000-8000-000000000000', undefined, key)).status, 404);
});

campaigns('list: status filter (unknown is 400), search over name, subject and sender, sort, pages', async () => {
  const { key } = await project();
  const a = await create(key, { ...base, name: 'Alpha', subject: 'First' });
  await create(key, { ...base, name: 'beta', subject: 'Second', fromName: 'Zed Sender' });
  await create(key, { ...base, name: 'Gamma', subject: 'Third' });
  await contacts(key, [{ email: 'one@readers.test' }]);
  await d.request('POST', `/campaigns/${a.id}/send`, { scheduledFor: '2999-01-01T00:00:00Z' }, key);
  const list = (q: string) => d.request('GET', `/campaigns${q}`, undefined, key).then((r) => r.body);
  const all = await list('?sort=name&dir=asc');
  assert.equal(all.data.map((c: { name: string }) => c.name), ['Alpha', 'beta', 'Gamma']);
  assert.equal([all.total, all.page, all.pageSize, all.totalPages], [3, 1, 20, 1]);
  assert.equal((await list('?status=SCHEDULED')).data.map((c: { name: string }) => c.name), ['Alpha']);
  assert.equal((await list('?status=draft&sort=name')).data.map((c: { name: string }) => c.name), ['Gamma', 'beta', 'Alpha'].filter((n) => n !== 'Alpha'));
  assert.is((await d.request('GET', '/campaigns?status=DONE', undefined, key)).status, 400);
  assert.equal((await list('?search=SECOND')).data.map((c: { name: string }) => c.name), ['beta']);
  assert.equal((await list('?search=zed')).data.map((c: { name: string }) => c.name), ['beta']);
  const page2 = await list('?sort=name&dir=asc&pageSize=2&page=2');
  assert.equal([page2.data.map((c: { name: string }) => c.name), page2.totalPages], [['Gamma'], 2]);
});

campaigns('send now: subscribed contacts only, bulk mail headers, SENT once every email is delivered, counters', async () => {
  const { key, domain } = await project();
  await contacts(key, [
    { email: 'ann@readers.test', data: { name: 'Ann' } },
    { email: 'bob@readers.test', data: { name: 'Bob' } },
    { email: 'quiet@readers.test', subscribed: false },
  ]);
  const c = await create(key);
  const sent = await d.request('POST', `/campaigns/${c.id}/send`, {}, key);
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  assert.is(sent.body.success, true);
  assert.is(sent.body.data.status, 'SENDING');
  assert.is(sent.body.data.totalRecipients, 2);
  assert.type(sent.body.message, 'string');
  const done = await until(key, c.id, (x) => x.status === 'SENT', 'SENT');
  assert.equal([done.totalRecipients, done.sentCount, done.deliveredCount], [2, 2, 2]);
  assert.type(done.sentAt, 'string');
  assert.is(mailTo('quiet@readers.test').length, 0, 'unsubscribed contacts get no MARKETING campaign');
  const [message] = mailTo('ann@readers.test');
  const mail = await simpleParser(message!.raw);
  assert.is(mail.subject, 'Hello Ann');
  assert.is(mail.headers.get('x-postmill-campaign-id'), c.id);
  assert.is(mail.headers.get('precedence'), 'bulk');
  assert.match(header(message!.raw, 'List-Unsubscribe'), new RegExp(`^<http.*/u/.*>, <mailto:unsubscribe@bounces\\.${domain.replace('.', '\\.')}\\?subject=`));
  assert.is(header(message!.raw, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
  assert.match(mail.text ?? '', 'Hi Ann');
  assert.match(String(mail.html), /\/t\/c\//, 'links are tracked');
  const sentEvents = (await eventsNamed(d, 'email.sent', key.key)).filter((e) => e.data.campaignId === c.id);
  assert.is(sentEvents.length, 2);
  assert.ok(sentEvents.every((e) => e.data.sourceType === 'CAMPAIGN'));
  // sending again is refused: SENT is final
  assert.is((await d.request('POST', `/campaigns/${c.id}/send`, {}, key)).status, 400);
  assert.is((await d.request('PUT', `/campaigns/${c.id}`, base, key)).status, 400, 'PUT only in DRAFT or SCHEDULED');
});

campaigns('TRANSACTIONAL campaigns reach unsubscribed contacts; suppressed addresses are skipped and counted', async () => {
  const { key } = await project();
  await contacts(key, [{ email: 'sub@readers.test' }, { email: 'unsub@readers.test', subscribed: false }, { email: 'gone@readers.test' }]);
  // gone@ hard-bounces once: the address is suppressed
  env.sink.onRecipient((rcpt) => (rcpt === 'gone@readers.test' ? { code: 550, message: 'no such user' } : null));
  const bounce = await d.request('POST', '/v1/send', { to: 'gone@readers.test', from: base.from, subject: 's', body: 'b' }, key);
  assert.is(bounce.status, 200);
  await eventually(async () => (await eventsNamed(d, 'email.bounce', key.key)).length > 0, 8000, 'bounce');
  env.sink.onRecipient(() => null);
  const c = await create(key, { ...base, type: 'TRANSACTIONAL' });
  const sent = await d.request('POST', `/campaigns/${c.id}/send`, {}, key);
  assert.is(sent.body.data.totalRecipients, 3);
  const done = await until(key, c.id, (x) => x.status === 'SENT', 'SENT');
  assert.equal([done.totalRecipients, done.sentCount, done.deliveredCount, done.suppressedCount], [2, 2, 2, 1]);
  assert.is(mailTo('unsub@readers.test').length, 1);
});

campaigns('schedule: a future date is SCHEDULED and sends when the time comes; past dates send now; bad dates and empty audiences are 400', async () => {
  const { key } = await project();
  const empty = await create(key);
  assert.is((await d.request('POST', `/campaigns/${empty.id}/send`, {}, key)).status, 400, 'no recipients');
  await contacts(key, [{ email: 'later@readers.test' }]);
  assert.is((await d.request('POST', `/campaigns/${empty.id}/send`, { scheduledFor: 'next tuesday-ish' }, key)).status, 400);
  const at = new Date((await env.advance(1)) + 3_600_000).toISOString();
  const scheduled = await d.request('POST', `/campaigns/${empty.id}/send`, { scheduledFor: at }, key);
  assert.is(scheduled.body.data.status, 'SCHEDULED');
  assert.is(scheduled.body.data.scheduledFor, at);
  // still editable, and re-schedulable
  assert.is((await d.request('PUT', `/campaigns/${empty.id}`, { ...base, name: 'Renamed' }, key)).body.status, 'SCHEDULED');
  await env.advance(3_700_000);
  const done = await until(key, empty.id, (x) => x.status === 'SENT', 'scheduled send');
  assert.is(done.sentCount, 1);
  assert.is(done.name, 'Renamed');
  const past = await create(key);
  const now = await d.request('POST', `/campaigns/${past.id}/send`, { scheduledFor: '2001-01-01' }, key);
  assert.is(now.body.data.status, 'SENDING');
  await until(key, past.id, (x) => x.status === 'SENT', 'past date sends now');
});

campaigns('a SCHEDULED campaign can be sent now or scheduled again; only the newest round sends, once', async () => {
  const { key } = await project();
  await contacts(key, [{ email: 'resend@readers.test' }]);
  // earlier tests moved the daemon's clock: times are counted from its own
  const daemonNow = await env.advance(1);
  const hour = (n: number) => new Date(daemonNow + n * 3_600_000).toISOString();
  const now = await create(key);
  assert.is((await d.request('POST', `/campaigns/${now.id}/send`, { scheduledFor: hour(1) }, key)).body.data.status, 'SCHEDULED');
  const sent = await d.request('POST', `/campaigns/${now.id}/send`, { scheduledFor: null }, key);
  assert.is(sent.status, 200);
  assert.is(sent.body.data.status, 'SENDING');
  assert.is(typeof sent.body.message, 'string');
  await until(key, now.id, (x) => x.status === 'SENT', 'sent now from SCHEDULED');
  assert.is((await d.request('POST', `/campaigns/${now.id}/send`, {}, key)).status, 400, 'SENT is not sendable');
  // moved from one hour to three: the first timer fires into a newer round and sends nothing
  const moved = await create(key, { ...base, name: 'Moved' });
  await d.request('POST', `/campaigns/${moved.id}/send`, { scheduledFor: hour(1) }, key);
  const threeHours = hour(3);
  const later = await d.request('POST', `/campaigns/${moved.id}/send`, { scheduledFor: threeHours }, key);
  assert.is(later.body.data.scheduledFor, threeHours);
  await env.advance(3_700_000);
  // the first timer has fired (and found a newer round); the second is due later
  await env.idle();
  assert.is((await get(key, moved.id)).status, 'SCHEDULED', 'the first time no longer counts');
  await env.advance(7_300_000);
  const done = await until(key, moved.id, (x) => x.status === 'SENT', 'the newer time');
  assert.is(done.sentCount, 1);
  await env.advance(7_300_000);
  await env.idle();
  assert.is(mailTo('resend@readers.test').length, 2, 'one email per campaign');
});

campaigns('cancel: from SCHEDULED nothing is ever sent; from SENDING unsent mail stays unsent; DELETE rules', async () => {
  const { key } = await project();
  await contacts(key, [{ email: 'cancel1@readers.test' }, { email: 'cancel2@readers.test' }]);
  const scheduled = await create(key);
  await d.request('POST', `/campaigns/${scheduled.id}/send`, { scheduledFor: new Date((await env.advance(1)) + 7_200_000).toISOString() }, key);
  const cancelled = await d.request('POST', `/campaigns/${scheduled.id}/cancel`, {}, key);
  assert.is(cancelled.status, 200);
  assert.is(cancelled.body.status, 'CANCELLED');
  assert.is((await d.request('POST', `/campaigns/${scheduled.id}/cancel`, {}, key)).status, 400, 'only SCHEDULED or SENDING');
  await env.advance(7_300_000);
  await env.idle();
  assert.is((await get(key, scheduled.id)).sentCount, 0);
  assert.is(mailTo('cancel1@readers.test').length, 0);
  // the sink defers everything: the emails stay queued, the campaign SENDING
  let refusals = 0;
  env.sink.onRecipient(() => (refusals++, { code: 451, message: 'try later' }));
  const sending = await create(key);
  await d.request('POST', `/campaigns/${sending.id}/send`, {}, key);
  await until(key, sending.id, (x) => x.sentCount === 2, 'fan-out');
  // both first attempts answered (an attempt under way when the cancel comes may still complete)
  await eventually((saw) => (saw({ refusals }), refusals >= 2), 8000, 'first attempts');
  assert.is((await d.request('DELETE', `/campaigns/${sending.id}`, undefined, key)).status, 409, 'not while SENDING');
  assert.is((await d.request('POST', `/campaigns/${sending.id}/cancel`, {}, key)).body.status, 'CANCELLED');
  env.sink.onRecipient(() => null);
  await env.advance(3_600_000);
  // the retries came due with the clock: whatever was to run of them has run
  await env.idle();
  assert.is(mailTo('cancel2@readers.test').length, 0, 'deferred mail of a cancelled campaign is not retried');
  assert.is((await d.request('DELETE', `/campaigns/${sending.id}`, undefined, key)).status, 204);
  assert.is((await d.request('DELETE', `/campaigns/${scheduled.id}`, undefined, key)).status, 204);
  assert.is((await d.request('GET', `/campaigns/${sending.id}`, undefined, key)).status, 404);
});

campaigns('cancel: mail waiting behind others for its destination is withdrawn, only attempts already under way complete', async () => {
  const { key } = await project();
  env.routeToSink('queue.test');
  const readers = Array.from({ length: 8 }, (_, i) => ({ email: `wait${i}@queue.test` }));
  await contacts(key, readers);
  // the sink holds its answers: five deliveries (the destination's places) stay under way, three wait
  const release = env.sink.hold((rcpt) => rcpt.endsWith('@queue.test'));
  const opened = env.sink.connections;
  const c = await create(key);
  await d.request('POST', `/campaigns/${c.id}/send`, {}, key);
  await eventually(async () => env.sink.connections >= opened + 5, 8000, 'five sessions under way');
  assert.is((await d.request('POST', `/campaigns/${c.id}/cancel`, {}, key)).body.status, 'CANCELLED');
  release();
  // the held deliveries complete; the three that waited for a place are due and end, sent or withdrawn
  await env.idle();
  const delivered = env.sink.messages.filter((m) => m.rcptTo.some((r) => r.endsWith('@queue.test'))).length;
  assert.ok(delivered <= 5, `${delivered} delivered: the three waiting for a place were sent after the cancel`);
});

campaigns('duplicate is a DRAFT copy; test sends are [TEST], untracked and uncounted', async () => {
  const { key } = await project();
  const c = await create(key);
  const copy = await d.request('POST', `/campaigns/${c.id}/duplicate`, undefined, key);
  assert.is(copy.status, 201);
  assert.is(copy.body.name, 'Spring news (Copy)');
  assert.is(copy.body.status, 'DRAFT');
  assert.is.not(copy.body.id, c.id);
  const test = await d.request('POST', `/campaigns/${c.id}/test`, { email: 'tester@readers.test' }, key);
  assert.is(test.status, 200, JSON.stringify(test.body));
  const [message] = await eventually(async () => mailTo('tester@readers.test').length > 0 && mailTo('tester@readers.test'), 8000, 'test mail');
  const mail = await simpleParser(message!.raw);
  assert.is(mail.subject, '[TEST] Hello friend');
  assert.not.match(String(mail.html), '/t/c/', 'no click tracking');
  assert.not.match(String(mail.html), '/t/o/', 'no open pixel');
  assert.is((await get(key, c.id)).sentCount, 0);
  assert.is((await d.request('POST', `/campaigns/${c.id}/test`, { email: 'nope' }, key)).status, 422);
});

campaigns('counters follow opens, clicks, bounces and complaints of each recipient; stats has the rates', async () => {
  const { key, domain } = await project();
  await contacts(key, [{ email: 'open@readers.test' }, { email: 'bounce@readers.test' }, { email: 'angry@readers.test' }]);
  const c = await create(key);
  await d.request('POST', `/campaigns/${c.id}/send`, {}, key);
  await until(key, c.id, (x) => x.deliveredCount === 3, 'delivered');
  const html = String((await simpleParser(mailTo('open@readers.test')[0]!.raw)).html);
  const path = (url: string) => new URL(url).pathname;
  const pixel = /<img src="([^"]*\/t\/o\/[^"]+)"/.exec(html)![1]!;
  const click = /href="([^"]*\/t\/c\/[^"]+)"/.exec(html)![1]!;
  for (const url of [pixel, pixel, click, click]) assert.ok((await fetch(d.url + path(url), { redirect: 'manual' })).status < 400);
  // the VERP return path names each recipient's email
  const emailIdOf = (rcpt: string) => /^b-([0-9a-f-]{36})@/.exec(mailTo(rcpt)[0]!.mailFrom)![1]!;
  const bounced = emailIdOf('bounce@readers.test');
  const complained = emailIdOf('angry@readers.test');
  await smtpSend(d.smtpPort, '', [`b-${bounced}@bounces.${domain}`], inboundFixture('postfix-dsn-user-unknown.eml', bounced, domain));
  await smtpSend(d.smtpPort, 'fbl@isp.test', [`fbl@${domain}`], inboundFixture('arf-yahoo.eml', complained, domain));
  const final = await until(key, c.id, (x) => x.bouncedCount === 1 && x.complainedCount === 1, 'feedback');
  assert.equal([final.openedCount, final.clickedCount], [1, 1], 'unique opens and clicks');
  const stats = await d.request('GET', `/campaigns/${c.id}/stats`, undefined, key);
  assert.equal(stats.body, {
    success: true,
    data: {
      totalRecipients: 3,
      sentCount: 3,
      deliveredCount: 3,
      openedCount: 1,
      clickedCount: 1,
      bouncedCount: 1,
      complainedCount: 1,
      unsubscribedCount: 0,
      openRate: 33.33,
      clickRate: 33.33,
      bounceRate: 33.33,
      deliveryRate: 100,
      unsubscribeRate: 0,
      complaintRate: 33.33,
      status: 'SENT',
      queuedCount: 0,
      deferredCount: 0,
      suppressedCount: 0,
    },
  });
});

campaigns("unsubscribes through a campaign's emails are counted once each (one-click, manage page, mailto); others are not", async () => {
  const { key, domain } = await project();
  const readers = ['click@readers.test', 'manage@readers.test', 'mailto@readers.test', 'elsewhere@readers.test', 'stays@readers.test'];
  await contacts(key, readers.map((email) => ({ email })));
  const c = await create(key, { ...base, body: '<p>Hi <a href="{{manageUrl}}">Preferences</a></p>' });
  await d.request('POST', `/campaigns/${c.id}/send`, {}, key);
  await until(key, c.id, (x) => x.deliveredCount === 5, 'delivered');
  const listUnsubscribe = (rcpt: string) => header(mailTo(rcpt).at(-1)!.raw, 'List-Unsubscribe');
  const unsubscribePath = (rcpt: string) => new URL(/<(http[^>]+)>/.exec(listUnsubscribe(rcpt))![1]!).pathname;
  const oneClick = (path: string) => fetch(d.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
  const subscribed = async (email: string) => (await d.request('POST', '/contacts/lookup', { emails: [email] }, key)).body.found[0].subscribed as boolean;

  // One-click, twice, and again after subscribing once more: one unsubscribe of this email.
  const clickPath = unsubscribePath('click@readers.test');
  assert.is((await oneClick(clickPath)).status, 200);
  assert.is((await oneClick(clickPath)).status, 200);
  await d.request('PATCH', `/contacts/${(await d.request('POST', '/contacts/lookup', { emails: ['click@readers.test'] }, key)).body.found[0].id}`, { subscribed: true }, key);
  assert.is((await oneClick(clickPath)).status, 200);
  // The manage page of the campaign's email.
  const html = String((await simpleParser(mailTo('manage@readers.test')[0]!.raw)).html);
  const manage = new URL(/href="([^"]+\/m\/[^"]+)"/.exec(html)![1]!).pathname;
  const managed = await fetch(d.url + manage, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'subscribed=false' });
  assert.is(managed.status, 200);
  // The mailto fallback, through the inbound listener.
  const [, mailbox, subject] = /<mailto:([^?>]+)\?subject=([^>]+)>/.exec(listUnsubscribe('mailto@readers.test'))!;
  assert.is(mailbox, `unsubscribe@bounces.${domain}`);
  await smtpSend(d.smtpPort, 'mailto@readers.test', [mailbox!], `From: mailto@readers.test\r\nTo: ${mailbox}\r\nSubject: ${subject}\r\n\r\nunsubscribe\r\n`);
  await eventually(async () => !(await subscribed('mailto@readers.test')), 8000, 'the mailto unsubscribe');
  // An unsubscribe through another email (a marketing send) is that email's, not the campaign's.
  const template = await d.request('POST', '/templates', { name: 'Other', subject: 'Other', body: '<p>x</p>', from: base.from, type: 'MARKETING' }, key);
  const before = mailTo('elsewhere@readers.test').length;
  assert.is((await d.request('POST', '/v1/send', { to: 'elsewhere@readers.test', template: template.body.id }, key)).status, 200);
  await eventually(async () => mailTo('elsewhere@readers.test').length > before, 8000, 'the other email');
  assert.is((await oneClick(unsubscribePath('elsewhere@readers.test'))).status, 200);
  assert.is(await subscribed('elsewhere@readers.test'), false);

  const campaign = await until(key, c.id, (x) => x.unsubscribedCount === 3, 'three unsubscribes counted');
  assert.is(campaign.deliveredCount, 5);
  const stats = (await d.request('GET', `/campaigns/${c.id}/stats`, undefined, key)).body.data;
  assert.is(stats.unsubscribedCount, 3);
  assert.is(stats.unsubscribeRate, 60);
  assert.is(await subscribed('stays@readers.test'), true);
});

campaigns('SEGMENT (static and dynamic) and FILTERED audiences; a segment a scheduled campaign uses cannot be deleted', async () => {
  const { key } = await project();
  await contacts(key, [
    { email: 'pro1@readers.test', data: { plan: 'pro' } },
    { email: 'pro2@readers.test', data: { plan: 'pro' } },
    { email: 'free@readers.test', data: { plan: 'free' } },
    { email: 'vip@readers.test', data: { plan: 'free' } },
  ]);
  const dynamic = await d.request('POST', '/segments', { name: 'Pros', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] } }, key);
  assert.is(dynamic.status, 201, JSON.stringify(dynamic.body));
  const vips = await d.request('POST', '/segments', { name: 'VIPs', type: 'STATIC' }, key);
  await d.request('POST', `/segments/${vips.body.id}/members`, { emails: ['vip@readers.test'] }, key);
  const toPros = await create(key, { ...base, audienceType: 'SEGMENT', segmentId: dynamic.body.id });
  const toVips = await create(key, { ...base, audienceType: 'SEGMENT', segmentId: vips.body.id });
  const filtered = await create(key, {
    ...base,
    audienceType: 'FILTERED',
    audienceCondition: { logic: 'OR', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'free' }] }, { filters: [{ field: 'email', operator: 'contains', value: 'PRO1' }] }] },
  });
  assert.is((await d.request('POST', `/campaigns/${toPros.id}/send`, {}, key)).body.data.totalRecipients, 2);
  assert.is((await d.request('POST', `/campaigns/${toVips.id}/send`, {}, key)).body.data.totalRecipients, 1);
  assert.is((await d.request('POST', `/campaigns/${filtered.id}/send`, {}, key)).body.data.totalRecipients, 3);
  for (const id of [toPros.id, toVips.id, filtered.id]) await until(key, id, (x) => x.status === 'SENT', 'SENT');
  const rcpts = (id: string) => env.sink.messages.filter((m) => m.raw.toString('latin1').includes(id)).flatMap((m) => m.rcptTo).sort();
  assert.equal(rcpts(toPros.id), ['pro1@readers.test', 'pro2@readers.test']);
  assert.equal(rcpts(toVips.id), ['vip@readers.test']);
  assert.equal(rcpts(filtered.id), ['free@readers.test', 'pro1@readers.test', 'vip@readers.test']);
  // audience errors
  assert.is((await d.request('POST', '/campaigns', { ...base, audienceType: 'SEGMENT', segmentId: '00000000-0000-4000-8000-000000000000' }, key)).status, 400);
  const badFilter = await d.request('POST', '/campaigns', { ...base, audienceType: 'FILTERED', audienceCondition: { logic: 'XOR', groups: [] } }, key);
  assert.is(badFilter.status, 422);
  assert.ok(badFilter.body.error.errors.every((e: { field: string }) => e.field.startsWith('audienceCondition')));
  // a segment that a scheduled campaign sends to is held
  const later = await create(key, { ...base, audienceType: 'SEGMENT', segmentId: vips.body.id });
  await d.request('POST', `/campaigns/${later.id}/send`, { scheduledFor: '2999-01-01T00:00:00Z' }, key);
  assert.is((await d.request('DELETE', `/segments/${vips.body.id}`, undefined, key)).status, 409);
  await d.request('POST', `/campaigns/${later.id}/cancel`, {}, key);
  assert.is((await d.request('DELETE', `/segments/${vips.body.id}`, undefined, key)).status, 204);
  // a field a draft campaign filters on is in use
  const usage = await d.request('GET', '/contacts/fields/plan/usage', undefined, key);
  assert.ok(usage.body.campaigns.some((c: { id: string }) => c.id === filtered.id) === false, 'a SENT campaign no longer holds it');
  const draft = await create(key, { ...base, audienceType: 'FILTERED', audienceCondition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'exists' }] }] } });
  const held = await d.request('GET', '/contacts/fields/plan/usage', undefined, key);
  assert.ok(held.body.campaigns.some((c: { id: string }) => c.id === draft.id));
  assert.is((await d.request('DELETE', '/contacts/fields/plan', undefined, key)).status, 409);
});

campaigns.run();
