// The API routes behind the console's Overview, Contacts and Suppressions pages, through the real
// daemon: the daily series and the overview equal what the events say, the outbound check the
// daemon runs itself, data-field filters on GET /contacts, suppressions with their removal audit,
// a segment counted at creation; another project sees none of it.
import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { as, makeUser, signIn } from './helpers/console-session.js';
import { startTestDaemon, type Keys } from './helpers/daemon.js';
import { seedStore } from './helpers/seed.js';
import { inboundFixture, smtpSend } from './helpers/inbound.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['readers.test'], config: { doctor: { probeDomain: 'probe.test' } } });
});
test.after(async () => env.close());

const get = (path: string, p: Keys) => env.daemon.request('GET', path, undefined, { key: p.secretKey });
const today = () => new Date().toISOString().slice(0, 10);

/** Sends `to` each an email of a tracked MARKETING template of `p`; answers the sink's copies in order. */
async function sendTo(p: Keys, domain: string, recipients: string[]) {
  const template = await env.daemon.request('POST', '/templates', { name: 'n', subject: 'News', body: '<p>Hi <a href="https://example.com/">read</a></p>', from: `news@${domain}`, type: 'MARKETING' }, { key: p.secretKey });
  const before = env.sink.messages.length;
  for (const to of recipients) {
    const r = await env.daemon.request('POST', '/v1/send', { to, template: template.body.id, subscribed: true }, { key: p.secretKey });
    assert.is(r.status, 200, JSON.stringify(r.body));
  }
  return before;
}

test('GET /stats/daily and /stats/overview equal what the events say; another project sees zeros', async () => {
  const p = env.daemon.createProject('stats-daily');
  const domain = 'daily.test';
  await env.verifySender(domain, p);
  await env.daemon.request('POST', '/domains', { domain: 'unverified.test' }, { key: p.secretKey });
  // one hard bounce at RCPT: its email.bounce is permanent, the address suppressed
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone@') ? { code: 550, message: '5.1.1 no such user' } : null));
  const before = await sendTo(p, domain, ['a@readers.test', 'b@readers.test', 'c@readers.test', 'gone@readers.test']);
  const messages = await env.sink.waitFor(before + 3, 10_000);
  env.sink.onRecipient(() => null);
  const html = String((await simpleParser(messages[before]!.raw)).html);
  const pixel = new URL(/<img src="([^"]*\/t\/o\/[^"]+)"/.exec(html)![1]!).pathname;
  const click = new URL(/href="([^"]*\/t\/c\/[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&')).pathname;
  for (let i = 0; i < 3; i++) await env.daemon.request('GET', pixel, undefined, { key: null });
  await fetch(env.daemon.url + click, { redirect: 'manual' });
  await fetch(env.daemon.url + click, { redirect: 'manual' });
  const complained = /^b-([0-9a-f-]{36})@/.exec(messages[before + 1]!.mailFrom)![1]!;
  await smtpSend(env.daemon.smtpPort, 'fbl@isp.test', [`fbl@${domain}`], inboundFixture('arf-yahoo.eml', complained, domain));

  const expected = { sent: 4, delivered: 3, bounced: 1, complained: 1, opened: 1, clicked: 1 };
  const day = await eventually(
    async () => {
      const r = await get('/stats/daily?days=7', p);
      const last = r.body.data[6];
      return JSON.stringify({ ...last, date: undefined }) === JSON.stringify({ date: undefined, ...expected }) ? r.body.data : null;
    },
    10_000,
    `today's row to be ${JSON.stringify(expected)}`,
  );
  assert.is(day.length, 7);
  assert.is(day[6].date, today());
  assert.ok(day.slice(0, 6).every((d: Record<string, unknown>) => d.sent === 0 && d.opened === 0), 'the days before are zero');
  assert.is(new Date(Date.parse(day[0].date) + 6 * 86_400_000).toISOString().slice(0, 10), today(), 'oldest first, consecutive days');
  // the same numbers from the events themselves
  const events = async (name: string) => (await eventsNamed(env.daemon, name, p.secretKey)).length;
  assert.is(await events('email.sent'), expected.sent);
  assert.is(await events('email.delivery'), expected.delivered);
  assert.is(await events('email.complaint'), expected.complained);
  assert.is(await events('email.open'), 3, 'three opens, one of them the first');
  const stats = (await get('/activity/stats', p)).body;
  assert.equal([stats.emailsSent, stats.delivered, stats.opened, stats.clicked, stats.bounced, stats.complained], [4, 3, 1, 1, 1, 1]);
  assert.is((await get('/stats/daily?days=30', p)).body.data.length, 30);
  assert.is((await get('/stats/daily?days=90', p)).body.data.length, 90);
  assert.is((await get('/stats/daily', p)).body.data.length, 30, '30 days unless said');
  for (const days of ['8', 'x', '0']) {
    const r = await get(`/stats/daily?days=${days}`, p);
    assert.is(r.status, 400, days);
    assert.match(r.body.error.message, '7, 30 or 90');
  }

  const overview = (await get('/stats/overview', p)).body;
  assert.equal(overview.last7Days, { sent: 4, bounced: 1, complained: 1, bounceRate: 25, complaintRate: 25 });
  assert.equal(overview.queue, { queued: 0, deferred: 0 });
  // outboundBlocked is the daemon's (its test is below)
  const kinds = overview.alerts.map((a: { kind: string }) => a.kind).filter((k: string) => k !== 'outboundBlocked').sort();
  assert.equal(kinds, ['bounceRate', 'complaintRate', 'domainNotVerified']);
  assert.match(overview.alerts.find((a: { kind: string }) => a.kind === 'domainNotVerified').message, 'unverified.test');
  assert.match(overview.alerts.find((a: { kind: string }) => a.kind === 'bounceRate').message, '25% of the emails sent in the last 7 days bounced (1 of 4)');

  const other = env.daemon.createProject('stats-other');
  assert.ok((await get('/stats/daily?days=7', other)).body.data.every((d: Record<string, number>) => d.sent + d.delivered + d.opened === 0));
  const otherOverview = (await get('/stats/overview', other)).body;
  assert.equal([otherOverview.last7Days.sent, otherOverview.alerts.filter((a: { kind: string }) => a.kind !== 'outboundBlocked')], [0, []]);

  // a day later the same counts are yesterday's; the bounce rate alert holds for the 7 days
  await env.advance(86_400_000);
  const later = (await get('/stats/daily?days=7', p)).body.data;
  assert.equal({ ...later[5], date: undefined }, { date: undefined, ...expected });
  assert.is(later[6].sent, 0);
  assert.ok((await get('/stats/overview', p)).body.alerts.some((a: { kind: string }) => a.kind === 'bounceRate'));
});

test('the queue depth counts queued and deferred emails of the project', async () => {
  const p = env.daemon.createProject('stats-queue');
  const domain = 'queue.test';
  await env.verifySender(domain, p);
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('later@') ? { code: 451, message: '4.7.1 try again later' } : null));
  const release = env.sink.hold((rcpt) => rcpt.startsWith('held@'));
  try {
    await sendTo(p, domain, ['later@readers.test', 'held@readers.test']);
    const queue = await eventually(
      async () => {
        const q = (await get('/stats/overview', p)).body.queue;
        return q.deferred === 1 && q.queued === 1 ? q : null;
      },
      10_000,
      'one deferred email and one in delivery',
    );
    assert.equal(queue, { queued: 1, deferred: 1 });
  } finally {
    release();
    env.sink.onRecipient(() => null);
  }
  await eventually(async () => ((await get('/stats/overview', p)).body.queue.queued === 0 ? true : null), 10_000, 'the held email delivered');
});

test('the daemon runs the outbound SMTP check at start and daily; the overview alerts while it fails', async () => {
  const p = env.daemon.project;
  const outbound = async () => (await get('/stats/overview', p)).body;
  // at start probe.test had no mail server: the check failed
  const first = await eventually(async () => (await outbound()).outbound, 10_000, 'the check at start');
  assert.is(first.ok, false);
  assert.match(first.detail, 'probe.test');
  // the loopback sink answers: the daily run passes
  env.routeToSink('probe.test');
  await env.advance(24 * 3600_000 + 1000);
  const passed = await eventually(async () => ((await outbound()).outbound?.ok ? await outbound() : null), 10_000, 'the daily check to pass');
  assert.match(passed.outbound.detail, '220');
  assert.not.ok(passed.alerts.some((a: { kind: string }) => a.kind === 'outboundBlocked'));
  // a closed port (nothing listens on 127.0.0.2): the check at the next start fails
  env.dns.set('mx.probe.test', 'A', ['127.0.0.2']);
  await env.daemon.stop();
  await env.daemon.restart();
  const blocked = await eventually(
    async () => {
      const o = await outbound();
      return o.outbound?.ok === false ? o : null;
    },
    15_000,
    'the check at start to fail',
  );
  assert.match(blocked.outbound.detail, 'looks blocked');
  const alert = blocked.alerts.find((a: { kind: string }) => a.kind === 'outboundBlocked');
  assert.ok(alert, 'an alert');
  assert.match(alert.fix, 'relay');
  env.dns.set('mx.probe.test', 'A', ['127.0.0.1']);
});

test('GET /contacts?where= filters on data fields through the filter engine, with search, sort and cursor', async () => {
  const p = env.daemon.createProject('contacts-where');
  for (let i = 0; i < 12; i++) {
    await env.daemon.request('POST', '/contacts', { email: `c${String(i).padStart(2, '0')}@where.test`, data: { plan: i % 3 === 0 ? 'pro' : 'free', seats: i } }, { key: p.secretKey });
  }
  const where = (condition: unknown) => encodeURIComponent(JSON.stringify(condition));
  const pro = { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] };
  const first = await get(`/contacts?where=${where(pro)}&sort=email&dir=asc&limit=2`, p);
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.is(first.body.total, 4);
  assert.equal(first.body.data.map((c: { email: string }) => c.email), ['c00@where.test', 'c03@where.test']);
  const second = await get(`/contacts?where=${where(pro)}&sort=email&dir=asc&limit=2&cursor=${first.body.cursor}`, p);
  assert.equal(second.body.data.map((c: { email: string }) => c.email), ['c06@where.test', 'c09@where.test']);
  assert.is(second.body.hasMore, false);
  const searched = await get(`/contacts?where=${where(pro)}&search=c0`, p);
  assert.equal(searched.body.data.map((c: { email: string }) => c.email).sort(), ['c00@where.test', 'c03@where.test', 'c06@where.test', 'c09@where.test']);
  const many = await get(`/contacts?where=${where({ logic: 'AND', groups: [{ filters: [{ field: 'data.seats', operator: 'greaterThan', value: 9 }] }] })}`, p);
  assert.equal(many.body.data.map((c: { email: string }) => c.email).sort(), ['c10@where.test', 'c11@where.test']);
  const notJson = await get('/contacts?where=%7Bnope', p);
  assert.is(notJson.status, 400);
  assert.match(notJson.body.error.message, '"where" is not JSON');
  const invalid = await get(`/contacts?where=${where({ logic: 'AND', groups: [{ filters: [{ field: 'plan', operator: 'equals', value: 'pro' }] }] })}`, p);
  assert.is(invalid.status, 422);
  assert.ok(invalid.body.error.errors.some((e: { field: string }) => e.field.startsWith('where.')), JSON.stringify(invalid.body));
  // another project's contacts never match
  const other = env.daemon.createProject('contacts-where-other');
  assert.is((await get(`/contacts?where=${where(pro)}`, other)).body.total, 0);
});

test('suppressions: listed with reason and search, removed by an ADMIN with a reason kept; the contact stays unsubscribed', async () => {
  const p = env.daemon.createProject('suppressions');
  const domain = 'supp.test';
  await env.verifySender(domain, p);
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('dead') ? { code: 550, message: '5.1.1 no such user' } : null));
  const before = await sendTo(p, domain, ['dead1@readers.test', 'dead2@readers.test', 'angry@readers.test']);
  const messages = await env.sink.waitFor(before + 1, 10_000);
  const complained = /^b-([0-9a-f-]{36})@/.exec(messages[before]!.mailFrom)![1]!;
  await smtpSend(env.daemon.smtpPort, 'fbl@isp.test', [`fbl@${domain}`], inboundFixture('arf-yahoo.eml', complained, domain));
  const all = await eventually(
    async () => {
      const r = await get('/suppressions', p);
      return r.body.data.length === 3 ? r.body : null;
    },
    10_000,
    'three suppressions',
  );
  // the dead addresses are refused until both bounces are in (a reset before raced the second delivery)
  env.sink.onRecipient(() => null);
  assert.equal(all.data.map((s: { email: string; reason: string }) => `${s.email}:${s.reason}`).sort(), ['angry@readers.test:complaint', 'dead1@readers.test:bounce', 'dead2@readers.test:bounce']);
  assert.ok(all.data.every((s: { contactId: string | null; emailId: string }) => s.contactId && s.emailId));
  assert.equal((await get('/suppressions?reason=complaint', p)).body.data.map((s: { email: string }) => s.email), ['angry@readers.test']);
  assert.equal((await get('/suppressions?search=DEAD2', p)).body.data.map((s: { email: string }) => s.email), ['dead2@readers.test']);
  const page1 = (await get('/suppressions?limit=2', p)).body;
  const page2 = (await get(`/suppressions?limit=2&cursor=${page1.cursor}`, p)).body;
  assert.equal([...page1.data, ...page2.data].map((s: { email: string }) => s.email).sort(), all.data.map((s: { email: string }) => s.email).sort());
  assert.is(page2.hasMore, false);
  assert.is((await get('/suppressions?reason=unsubscribe', p)).status, 400);

  // a MEMBER reads but may not remove; an ADMIN removes with a reason
  makeUser(env.daemon, 'supp-member@example.test', { id: p.id, role: 'MEMBER' });
  makeUser(env.daemon, 'supp-admin@example.test', { id: p.id, role: 'ADMIN' });
  const member = as(env.daemon, await signIn(env.daemon, 'supp-member@example.test'), p.id);
  const admin = as(env.daemon, await signIn(env.daemon, 'supp-admin@example.test'), p.id);
  assert.is((await env.daemon.request('GET', '/suppressions', undefined, member)).status, 200);
  const refused = await env.daemon.request('DELETE', '/suppressions/dead1%40readers.test', { reason: 'typo fixed' }, member);
  assert.is(refused.status, 403);
  for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 'ok', extra: 1 }]) {
    const r = await env.daemon.request('DELETE', '/suppressions/dead1%40readers.test', body, admin);
    assert.ok(r.status === 400 || r.status === 422, `${JSON.stringify(body)}: ${r.status}`);
  }
  const removed = await env.daemon.request('DELETE', '/suppressions/DEAD1%40readers.test', { reason: 'the mailbox exists again (support ticket 42)' }, admin);
  assert.is(removed.status, 200, JSON.stringify(removed.body));
  assert.equal(
    { ...removed.body, id: undefined, suppressedAt: undefined, removedAt: undefined },
    { id: undefined, email: 'dead1@readers.test', reason: 'bounce', suppressedAt: undefined, removedBy: 'supp-admin@example.test', note: 'the mailbox exists again (support ticket 42)', removedAt: undefined },
  );
  assert.is((await env.daemon.request('DELETE', '/suppressions/dead1%40readers.test', { reason: 'again' }, admin)).status, 404);
  assert.not.ok((await get('/suppressions', p)).body.data.some((s: { email: string }) => s.email === 'dead1@readers.test'));
  const audit = (await get('/suppressions/removals', p)).body.data;
  assert.equal(audit.map((r: { email: string; removedBy: string }) => [r.email, r.removedBy]), [['dead1@readers.test', 'supp-admin@example.test']]);
  const contact = (await get('/contacts?search=dead1', p)).body.data[0];
  assert.is(contact.subscribed, false, 'removing the suppression does not resubscribe');
  // the secret key removes as "secret key"
  const byKey = await env.daemon.request('DELETE', '/suppressions/dead2%40readers.test', { reason: 'checked by hand' }, { key: p.secretKey });
  assert.is(byKey.body.removedBy, 'secret key');

  // another project sees none of it and removes nothing
  const other = env.daemon.createProject('suppressions-other');
  assert.equal((await get('/suppressions', other)).body.data, []);
  assert.equal((await get('/suppressions/removals', other)).body.data, []);
  assert.is((await env.daemon.request('DELETE', '/suppressions/angry%40readers.test', { reason: 'x' }, { key: other.secretKey })).status, 404);
  assert.is((await get('/suppressions?reason=complaint', p)).body.data.length, 1);
});

test('POST /segments answers the member count at creation; past the budget it says the count is queued', async () => {
  const p = env.daemon.createProject('segment-count');
  for (let i = 0; i < 5; i++) await env.daemon.request('POST', '/contacts', { email: `s${i}@count.test`, data: { vip: i < 3 } }, { key: p.secretKey });
  const condition = { logic: 'AND', groups: [{ filters: [{ field: 'data.vip', operator: 'equals', value: true }] }] };
  const created = await env.daemon.request('POST', '/segments', { name: 'VIPs', condition }, { key: p.secretKey });
  assert.is(created.status, 201);
  assert.is(created.body.memberCount, 3);
  assert.is(created.headers.get('x-postmill-member-count'), 'counted');
  assert.not.ok('_meta' in created.body, 'the body is exactly a Segment');
  assert.is((await get(`/segments/${created.body.id}`, p)).body.memberCount, 3, 'the count is kept');
  const staticOne = await env.daemon.request('POST', '/segments', { name: 'Hand-picked', type: 'STATIC' }, { key: p.secretKey });
  assert.equal([staticOne.body.memberCount, staticOne.headers.get('x-postmill-member-count')], [0, 'counted']);
});

test('a count past the request budget: the segment is created, answered with the count queued, and its count job counts it', async () => {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, reads: { threads: 1, requestBudgetMs: 10, jobBudgetMs: 60_000 } } });
  try {
    const CONTACTS = 40_000;
    await seedStore(d, (db) => {
      db.prepare(
        `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
         INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
         SELECT printf('00000000-0000-4000-8000-%012d', x), ?, x || '@budget.test', x || '@budget.test', 1, json_object('note', hex(randomblob(24)), 'n', x), x, x FROM n`,
      ).run(CONTACTS, d.project.id);
    });
    // many ORed tests on every contact: far more than 10 ms, well within the job's minute
    const filters = Array.from({ length: 40 }, (_, i) => ({ field: 'data.note', operator: 'contains', value: `ZZ${i}` }));
    const condition = { logic: 'OR', groups: [{ filters: [{ field: 'data.n', operator: 'lessThan', value: 7 }] }, ...filters.map((f) => ({ filters: [f] }))] };
    const created = await d.request('POST', '/segments', { name: 'Heavy', condition });
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.equal([created.body.memberCount, created.headers.get('x-postmill-member-count')], [0, 'queued']);
    const counted = await eventually(
      async () => {
        const r = await d.request('GET', `/segments/${created.body.id}`);
        return r.body.memberCount > 0 ? r.body.memberCount : null;
      },
      30_000,
      'the count job to count the segment',
    );
    assert.ok(counted >= 7, `counted ${counted}`);
  } finally {
    await d.dispose();
  }
});

test.run();
