// GET /campaigns/{id}/analytics through the daemon: a campaign sent to the loopback sink and the
// simulator, opened and clicked through the tracking routes, bounced by the sink's 550, complained
// about by ARF reports (a real one and the simulator's), unsubscribed through its link; every count
// of every bucket equals what the events and email records say, in each bucket size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore } from '../src/store/db.js';
import type { TestDaemon } from './helpers/daemon.js';
import { inboundFixture, smtpSend } from './helpers/inbound.js';
import { eventsNamed, startMailEnv, type MailEnv } from './helpers/mail-env.js';

const analytics = suite('campaign analytics');
let env: MailEnv;
let d: TestDaemon;
let key: { key: string };
let sender: string;
let projects = 0;

analytics.before(async () => {
  env = await startMailEnv({ sinkDomains: ['readers.test', 'other.test'] });
  d = env.daemon;
});

/** Each test's project of its own (a campaign to ALL reaches no other test's contacts), with a verified sender domain. */
analytics.before.each(async () => {
  const keys = d.createProject('analytics');
  key = { key: keys.secretKey };
  sender = `news${++projects}.test`;
  await env.verifySender(sender, keys);
});
analytics.after(async () => env.close());

const HOUR = 3_600_000;
const METRICS = ['delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed'] as const;
type Metric = (typeof METRICS)[number];
type Point = { at: string } & Record<Metric, number>;
type Analytics = { series: Point[]; links: { url: string; clicks: number; uniqueClicks: number }[]; domains: Record<string, number | string>[] };

const mailTo = (rcpt: string) => env.sink.messages.filter((m) => m.rcptTo.includes(rcpt));
const htmlOf = async (rcpt: string) => String((await simpleParser(mailTo(rcpt).at(-1)!.raw)).html);
const visit = async (url: string, init?: RequestInit) => {
  const r = await fetch(d.url + new URL(url).pathname, { redirect: 'manual', ...init });
  assert.ok(r.status < 400, `${url}: ${r.status}`);
};
const trackingUrls = async (rcpt: string) => {
  const html = await htmlOf(rcpt);
  const clicks = [...html.matchAll(/href="([^"]*\/t\/c\/[^"]+)"/g)].map((m) => m[1]!);
  return { pixel: /<img src="([^"]*\/t\/o\/[^"]+)"/.exec(html)![1]!, a: clicks[0]!, b: clicks[1]! };
};
const unsubscribe = async (rcpt: string) => {
  const raw = mailTo(rcpt).at(-1)!.raw.toString('latin1').split('\r\n\r\n')[0]!.replace(/\r\n[ \t]/g, ' ');
  const url = /List-Unsubscribe: <(http[^>]+)>/.exec(raw)![1]!;
  await visit(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
};
/** The daemon's time (moved on by a millisecond: the hook moves the clock forward only). */
const now = () => env.advance(1);

async function sendCampaign(recipients: string[]): Promise<string> {
  for (const email of recipients) assert.is((await d.request('POST', '/contacts', { email }, key)).status, 201);
  const body = '<p>Hi <a href="https://news.test/a">story a</a> and <a href="https://news.test/b">story b</a></p>';
  const created = await d.request('POST', '/campaigns', { name: 'Spring', subject: 'Spring', body, from: `editor@${sender}`, audienceType: 'ALL' }, key);
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.id as string;
  const sent = await d.request('POST', `/campaigns/${id}/send`, {}, key);
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  await env.idle();
  return id;
}

const get = async (id: string, query = '', as = key) => {
  const r = await d.request<Analytics>('GET', `/campaigns/${id}/analytics${query}`, undefined, as);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body;
};

/** The bucket of an instant, hours since the send's hour: the test's own reading of the rule. */
function bucketIndex(hours: number, size: 'auto' | 'hour' | 'day'): number {
  if (size === 'hour') return hours;
  if (size === 'day') return Math.floor(hours / 24);
  return hours < 48 ? hours : 48 + Math.floor((hours - 48) / 24);
}
const bucketStartHours = (i: number, size: 'auto' | 'hour' | 'day') => (size === 'hour' ? i : size === 'day' ? i * 24 : i < 48 ? i : 48 + (i - 48) * 24);

/** What the events of the campaign's emails say, bucketed from the hour of `sentAt`. */
async function seriesFromEvents(id: string, sentAt: number, size: 'auto' | 'hour' | 'day', length: number): Promise<Record<Metric, number>[]> {
  const emails = (await d.request('GET', `/emails?campaignId=${id}&limit=100`, undefined, key)).body.data as { id: string; contactId: string }[];
  const ours = new Set(emails.map((e) => e.id));
  const contacts = new Set(emails.map((e) => e.contactId));
  const counted: [Metric, (e: any) => boolean, string][] = [
    ['delivered', () => true, 'email.delivery'],
    ['opened', (e) => e.data.isFirstOpen === true, 'email.open'],
    ['clicked', (e) => e.data.isFirstClick === true, 'email.click'],
    ['bounced', (e) => e.data.bounceType === 'Permanent', 'email.bounce'],
    ['complained', () => true, 'email.complaint'],
  ];
  const buckets = Array.from({ length }, () => Object.fromEntries(METRICS.map((m) => [m, 0])) as Record<Metric, number>);
  const firstHour = Math.floor(sentAt / HOUR);
  const add = (metric: Metric, at: string) => buckets[bucketIndex(Math.floor(Date.parse(at) / HOUR) - firstHour, size)]![metric]++;
  for (const [metric, counts, name] of counted) {
    for (const e of await eventsNamed(d, name, key.key)) if (ours.has(e.emailId) && counts(e)) add(metric, e.createdAt);
  }
  // an unsubscribe through a link has no reason in its data (a bounce's or complaint's has)
  for (const e of await eventsNamed(d, 'contact.unsubscribed', key.key)) if (contacts.has(e.contactId) && e.data.reason === undefined) add('unsubscribed', e.createdAt);
  return buckets;
}

analytics('the counts equal what the events and email records say, in each bucket size; simulated outcomes count here and not in the rates', async () => {
  const readers = ['open@readers.test', 'click@readers.test', 'unsub@readers.test', 'angry@readers.test', 'late@readers.test'];
  const simulator = ['complaint@simulator.postmill.invalid', 'delay@simulator.postmill.invalid'];
  env.sink.onRecipient((rcpt) => (rcpt === 'gone@other.test' ? { code: 550, message: '5.1.1 no such user' } : null));
  const id = await sendCampaign([...readers, ...simulator, 'gone@other.test']);
  // delay@ was deferred once; its retry is due a minute later
  await env.advance(2 * 60_000);
  await env.idle();

  const open = await trackingUrls('open@readers.test');
  await visit(open.pixel);
  await visit(open.pixel);
  const click = await trackingUrls('click@readers.test');
  await visit(click.pixel);
  await visit(click.a);
  await visit(click.a);
  await visit(click.b);
  await unsubscribe('unsub@readers.test');
  const emails = (await d.request('GET', `/emails?campaignId=${id}&limit=100`, undefined, key)).body.data as { id: string; to: string }[];
  const angry = emails.find((e) => e.to === 'angry@readers.test')!.id;
  await smtpSend(d.smtpPort, 'fbl@isp.test', [`fbl@${sender}`], inboundFixture('arf-yahoo.eml', angry, sender));
  await env.idle();
  // two days and more later: one more reader opens and clicks
  await env.advance(50 * HOUR);
  const late = await trackingUrls('late@readers.test');
  await visit(late.pixel);
  await visit(late.b);
  await env.idle();

  const before = await now();
  const auto = await get(id);
  const byHour = await get(id, '?bucket=hour');
  const byDay = await get(id, '?bucket=DAY');
  const after = await now();

  const totals = (series: Point[]) => Object.fromEntries(METRICS.map((m) => [m, series.reduce((sum, p) => sum + p[m], 0)]));
  const expected = { delivered: 7, opened: 3, clicked: 2, bounced: 1, complained: 2, unsubscribed: 1 };
  for (const series of [auto.series, byHour.series, byDay.series]) assert.equal(totals(series), expected);
  const stats = (await d.request('GET', `/campaigns/${id}/stats`, undefined, key)).body.data;
  assert.equal([stats.deliveredCount, stats.openedCount, stats.clickedCount, stats.bouncedCount, stats.complainedCount, stats.unsubscribedCount], Object.values(expected), 'the same counts as the stats');

  const sentAt = Date.parse((await d.request('GET', `/campaigns/${id}`, undefined, key)).body.sentAt);
  const firstHour = Math.floor(sentAt / HOUR);
  for (const [size, series] of [['auto', auto.series], ['hour', byHour.series], ['day', byDay.series]] as const) {
    const lengths = [before, after].map((t) => bucketIndex(Math.floor(t / HOUR) - firstHour, size) + 1);
    assert.ok(lengths.includes(series.length), `${size}: ${series.length} buckets, through now (${lengths.join(' or ')})`);
    assert.equal(
      series.map((p) => p.at),
      series.map((_, i) => new Date((firstHour + bucketStartHours(i, size)) * HOUR).toISOString()),
      `${size}: buckets start at the send's hour`,
    );
    assert.equal(
      series.map(({ at: _, ...counts }) => counts),
      await seriesFromEvents(id, sentAt, size, series.length),
      `${size}: each bucket as the events say`,
    );
  }
  assert.ok(auto.series.length > 48 && auto.series.length < byHour.series.length, 'hourly for 48 hours, then daily');
  assert.is(byDay.series.length, 3);

  assert.equal(auto.links, [
    { url: 'https://news.test/a', clicks: 2, uniqueClicks: 1 },
    { url: 'https://news.test/b', clicks: 2, uniqueClicks: 2 },
  ]);
  const clicks = (await eventsNamed(d, 'email.click', key.key)).filter((e) => e.data.campaignId === id);
  for (const link of auto.links) {
    const of = clicks.filter((e) => e.data.link === link.url);
    assert.equal([link.clicks, link.uniqueClicks], [of.length, new Set(of.map((e) => e.emailId)).size], `${link.url} as the click events say`);
  }

  assert.equal(auto.domains, [
    { domain: 'readers.test', delivered: 5, deferred: 0, bounced: 0, complained: 1 },
    { domain: 'simulator.postmill.invalid', delivered: 2, deferred: 1, bounced: 0, complained: 1 },
    { domain: 'other.test', delivered: 0, deferred: 0, bounced: 1, complained: 0 },
  ]);
  const delay = emails.find((e) => e.to === 'delay@simulator.postmill.invalid')!.id;
  const attempts = (await d.request('GET', `/emails/${delay}`, undefined, key)).body.attempts as { outcome: string }[];
  assert.equal(attempts.map((a) => a.outcome), ['deferred', 'delivered'], 'the simulator deferred it once');
  assert.equal([byHour.links, byHour.domains, byDay.links, byDay.domains], [auto.links, auto.domains, auto.links, auto.domains], 'links and domains whatever the buckets');

  const daily = (await d.request('GET', '/stats/daily?days=7', undefined, key)).body.data as { complained: number }[];
  assert.is(
    daily.reduce((sum, day) => sum + day.complained, 0),
    1,
    "the project's rates leave the simulator's complaint out",
  );
});

analytics("another project's campaign is 404; a bad bucket is 400; a campaign not sent yet has empty analytics", async () => {
  const draft = await d.request('POST', '/campaigns', { name: 'Draft', subject: 'Draft', body: '<p>x</p>', from: `editor@${sender}`, audienceType: 'ALL' }, key);
  const id = draft.body.data.id as string;
  assert.equal(await get(id), { series: [], links: [], domains: [] });
  const other = await d.request('GET', `/campaigns/${id}/analytics`);
  assert.is(other.status, 404, "the default project's key does not see it");
  assert.is(other.body.error.code, 'NOT_FOUND');
  for (const query of ['?bucket=week', '?bucket=hour&bucket=day', '?bucket=1']) {
    const bad = await d.request('GET', `/campaigns/${id}/analytics${query}`, undefined, key);
    assert.is(bad.status, 400, query);
    assert.is(bad.body.error.code, 'BAD_REQUEST');
  }
  assert.equal(await get(id, '?bucket='), { series: [], links: [], domains: [] }, 'an empty bucket is the default');
  assert.is((await d.request('GET', '/campaigns/not-a-uuid/analytics', undefined, key)).status, 422);
  assert.is((await d.request('GET', '/campaigns/00000000-0000-4000-8000-000000000000/analytics', undefined, key)).status, 404);
});

analytics("a deleted campaign's analytics go with it; its emails still record opens and clicks", async () => {
  const id = await sendCampaign(['kept@readers.test']);
  const urls = await trackingUrls('kept@readers.test');
  await visit(urls.a);
  assert.is((await get(id)).links.length, 1);
  assert.is((await d.request('DELETE', `/campaigns/${id}`, undefined, key)).status, 204);
  const opensBefore = (await eventsNamed(d, 'email.open', key.key)).length;
  const clicksBefore = (await eventsNamed(d, 'email.click', key.key)).length;
  await visit(urls.pixel);
  await visit(urls.b);
  await env.idle();
  assert.is((await eventsNamed(d, 'email.open', key.key)).length, opensBefore + 1);
  assert.is((await eventsNamed(d, 'email.click', key.key)).length, clicksBefore + 1);
  assert.is((await d.request('GET', `/campaigns/${id}/analytics`, undefined, key)).status, 404);
});

analytics('campaigns side by side: each as its stats and analytics say, in the order asked, their buckets lined up from each send', async () => {
  const first = await sendCampaign(['one@readers.test']);
  const opened = await trackingUrls('one@readers.test');
  await visit(opened.pixel);
  await visit(opened.a);
  await env.advance(3 * HOUR);
  const second = await sendCampaign(['two@readers.test', 'three@other.test']);
  await env.idle();
  const draft = await d.request('POST', '/campaigns', { name: 'Draft', subject: 'Draft', body: '<p>x</p>', from: `editor@${sender}`, audienceType: 'ALL' }, key);
  const draftId = draft.body.data.id as string;

  for (const query of ['', '?bucket=day']) {
    const r = await d.request('GET', `/campaigns/compare?ids=${second},${first}&ids=${draftId}&ids=${second}${query.replace('?', '&')}`, undefined, key);
    assert.is(r.status, 200, JSON.stringify(r.body));
    const compared = r.body.data as { id: string; name: string; status: string; sentAt: string | null; stats: unknown; series: Point[] }[];
    assert.equal(compared.map((c) => c.id), [second, first, draftId], 'in the order asked, each once');
    for (const c of compared) {
      const campaign = (await d.request('GET', `/campaigns/${c.id}`, undefined, key)).body;
      assert.equal([c.name, c.status, c.sentAt], [campaign.name, campaign.status, campaign.sentAt]);
      assert.equal(c.stats, (await d.request('GET', `/campaigns/${c.id}/stats`, undefined, key)).body.data, `${c.name}: its stats`);
      assert.equal(c.series, (await get(c.id, query)).series, `${c.name}: its analytics series`);
    }
    const [two, one] = compared;
    const hoursAfterSend = (c: { sentAt: string | null; series: Point[] }) => c.series.map((p) => Math.round((Date.parse(p.at) - Math.floor(Date.parse(c.sentAt!) / HOUR) * HOUR) / HOUR));
    assert.equal(hoursAfterSend(two!), hoursAfterSend(one!).slice(0, two!.series.length), 'bucket i starts as long after each send');
    assert.ok(one!.series.length > two!.series.length || query !== '', 'the older campaign has more buckets');
    assert.equal([one!.stats, two!.stats].map((s: any) => [s.deliveredCount, s.openedCount, s.clickedCount]), [[1, 1, 1], [3, 0, 0]]);
    assert.equal(compared[2]!.series, [], 'a draft: no series');
  }
});

analytics('comparing: no ids is 400, more than ten 400, a bad id 422, an unknown or another project\'s campaign 404', async () => {
  const id = await sendCampaign(['solo@readers.test']);
  const status = async (query: string, as = key) => {
    const r = await d.request('GET', `/campaigns/compare${query}`, undefined, as);
    return [r.status, r.body.error?.code];
  };
  assert.equal(await status(''), [400, 'BAD_REQUEST']);
  assert.equal(await status('?ids='), [400, 'BAD_REQUEST']);
  const eleven = Array.from({ length: 11 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  assert.equal(await status(`?ids=${eleven.join(',')}`), [400, 'BAD_REQUEST']);
  assert.equal(await status(`?ids=${id},nope`), [422, 'VALIDATION_ERROR']);
  assert.equal(await status(`?ids=${id},${eleven[0]}`), [404, 'NOT_FOUND']);
  assert.equal(await status(`?ids=${id}&bucket=week`), [400, 'BAD_REQUEST']);
  const other = await d.request('GET', `/campaigns/compare?ids=${id}`);
  assert.equal([other.status, other.body.error.code], [404, 'NOT_FOUND'], "the default project's key does not see it");
  assert.equal(await status(`?ids=${id}`), [200, undefined], 'one campaign alone is a comparison of one');
});

analytics("migration 099's backfill counts what its triggers counted", async () => {
  await d.stop();
  const db = openStore(join(d.dataDir, 'store'));
  try {
    const TABLES = ['campaign_hourly', 'campaign_domains', 'campaign_links', 'campaign_link_clickers'];
    const rows = () => TABLES.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).all());
    const kept = rows();
    assert.ok(kept.every((r) => r.length > 0), 'the campaigns above left counts in every table');
    db.transaction(() => {
      for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'campaign_analytics_%'").all() as { name: string }[]) db.exec(`DROP TRIGGER ${name}`);
      for (const table of TABLES) db.exec(`DROP TABLE ${table}`);
      // the migration alone, as it ran over a store of 098 (later migrations are already in place)
      db.exec(readFileSync(fileURLToPath(new URL('../../src/store/migrations/099_campaign_analytics.sql', import.meta.url)), 'utf8'));
    })();
    assert.equal(rows(), kept);
  } finally {
    db.close();
  }
  await d.restart();
});

analytics.run();
