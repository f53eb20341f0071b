import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listActivity } from '../src/activity/service.js';
import type { ActivityEntry, ActivitySource } from '../src/activity/sources.js';
import { ShiftableClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { assemble } from '../src/assembly.js';
import { createDns } from '../src/dns/resolver.js';
import { eventActivitySource } from '../src/events/activity.js';
import type { CustomEventName } from '../src/bus/catalogue.js';
import { decodeCursor } from '../src/http/pagination.js';
import type { Logger } from '../src/log.js';
import { createProject } from '../src/projects/service.js';
import { openStore } from '../src/store/db.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
test.before(async () => {
  env = await startMailEnv();
});
test.after(async () => env.close());

/** Every entry of the feed, page by page. */
async function walk(query: string, key = env.daemon.project.secretKey): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 200; pages++) {
    const r: any = await env.daemon.request('GET', `/activity?${query}${cursor ? `&cursor=${cursor}` : ''}`, undefined, { key });
    assert.is(r.status, 200, JSON.stringify(r.body));
    all.push(...r.body.data);
    if (!r.body.hasMore) {
      assert.is(r.body.cursor, null);
      return all;
    }
    cursor = r.body.cursor;
  }
  throw new Error('the feed never ended');
}

test('GET /activity: newest first, shaped entries, cursor pages that neither repeat nor skip (same-millisecond events too)', async () => {
  const p = env.daemon.createProject('feed');
  const track = (email: string, event: string) => env.daemon.request('POST', '/v1/track', { email, event, data: { n: event } }, { key: p.publicKey });
  // concurrent tracks share commits and often a millisecond
  await Promise.all(Array.from({ length: 25 }, (_, i) => track(`u${i % 5}@feed.test`, `step-${i}`)));
  const contact = (await env.daemon.request('POST', '/contacts/lookup', { emails: ['u0@feed.test'] }, { key: p.secretKey })).body.found[0];
  await env.daemon.request('PATCH', `/contacts/${contact.id}`, { subscribed: false }, { key: p.secretKey });

  const everything = await walk('limit=100', p.secretKey);
  assert.is(everything.length, 26);
  const paged = await walk('limit=3', p.secretKey);
  assert.equal(
    paged.map((e) => e.id),
    everything.map((e) => e.id),
  );
  for (let i = 1; i < everything.length; i++) assert.ok(everything[i - 1].timestamp >= everything[i].timestamp, 'newest first');
  const first = everything[0];
  assert.is(first.type, 'contact.unsubscribed');
  assert.is(first.contactId, contact.id);
  assert.is(first.contactEmail, 'u0@feed.test');
  assert.equal(Object.keys(first).sort(), ['contactEmail', 'contactId', 'id', 'metadata', 'timestamp', 'type']);
  const step = everything.find((e) => e.type === 'step-3');
  assert.equal(step.metadata, { n: 'step-3' });

  const types = await walk('limit=2&types=step-1,step-2&types=contact.unsubscribed', p.secretKey);
  assert.equal(types.map((e) => e.type).sort(), ['contact.unsubscribed', 'step-1', 'step-2']);
  const ofContact = await walk(`limit=2&contactId=${contact.id}`, p.secretKey);
  assert.equal(ofContact.length, 6);
  assert.ok(ofContact.every((e) => e.contactId === contact.id));
  const ofContactTyped = await walk(`contactId=${contact.id}&types=contact.unsubscribed`, p.secretKey);
  assert.is(ofContactTyped.length, 1);

  const middle = everything[10].timestamp;
  const window = await walk(`limit=4&to=${encodeURIComponent(middle)}`, p.secretKey);
  assert.ok(window.length >= 16 && window.every((e) => e.timestamp <= middle));
  const none = await walk(`from=${encodeURIComponent(new Date(Date.parse(everything[0].timestamp) + 1).toISOString())}`, p.secretKey);
  assert.is(none.length, 0);
});

test("another project's key sees none of it; bad parameters are 400", async () => {
  const p = env.daemon.createProject('feed-private');
  await env.daemon.request('POST', '/v1/track', { email: 'secret@private.test', event: 'private-event' }, { key: p.publicKey });
  const other = env.daemon.createProject('feed-other');
  assert.equal(await walk('', other.secretKey), []);
  const otherStats = await env.daemon.request('GET', '/activity/stats', undefined, { key: other.secretKey });
  assert.is(otherStats.body.totalEvents, 0);
  for (const query of ['cursor=garbage', 'from=yesterday', `types=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, `cursor=${Buffer.from('["x","y"]').toString('base64url')}`]) {
    const r = await env.daemon.request('GET', `/activity?${query}`, undefined, { key: p.secretKey });
    assert.is(r.status, 400, query);
    assert.is(r.body.error.code, 'BAD_REQUEST');
  }
});

test('GET /activity/stats counts sends, deliveries, unique opens and clicks; rates in percent of sent', async () => {
  const p = env.daemon.createProject('stats');
  await env.verifySender('stats.test', p);
  env.routeToSink('readers.test');
  const template = await env.daemon.request(
    'POST',
    '/templates',
    { name: 'n', subject: 'News', body: '<p>Hi <a href="https://example.com/">read</a></p>', from: 'news@stats.test', type: 'MARKETING' },
    { key: p.secretKey },
  );
  const before = env.sink.messages.length;
  for (const to of ['a@readers.test', 'b@readers.test', 'c@readers.test', 'd@readers.test']) {
    const r = await env.daemon.request('POST', '/v1/send', { to, template: template.body.id, subscribed: true }, { key: p.secretKey });
    assert.is(r.status, 200, JSON.stringify(r.body));
  }
  const messages = await env.sink.waitFor(before + 4, 10_000);
  const html = String((await simpleParser(messages[before]!.raw)).html);
  const pixel = new URL(/<img src="([^"]*\/t\/o\/[^"]+)"/.exec(html)![1]!).pathname;
  const click = new URL(/href="([^"]*\/t\/c\/[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&')).pathname;
  for (let i = 0; i < 3; i++) await env.daemon.request('GET', pixel, undefined, { key: null });
  await fetch(env.daemon.url + click, { redirect: 'manual' });
  const stats = await eventually(
    async () => {
      const body = (await env.daemon.request('GET', '/activity/stats', undefined, { key: p.secretKey })).body;
      return body.delivered === 4 ? body : null;
    },
    10_000,
    'four deliveries counted',
  );
  assert.equal(stats, {
    totalEvents: 4 + 4 + 3 + 1,
    emailsSent: 4,
    delivered: 4,
    opened: 1,
    clicked: 1,
    bounced: 0,
    complained: 0,
    openRate: 25,
    clickRate: 25,
  });
  const feed = await walk('types=email.open', p.secretKey);
  assert.is(feed.length, 3);
  assert.is(feed[0].contactEmail, messages[before]!.rcptTo[0], 'the opened message went to this contact');
  assert.type(feed[0].metadata.emailId, 'string');
  assert.is(feed[2].metadata.isFirstOpen, true);
});

test('a second source plugs into the feed: entries merge by time, ties keep one order, cursors cross sources', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-activity-'));
  const log: Logger = { debug() {}, info() {}, warn() {}, error() {} };
  const clock = new ShiftableClock();
  const db = openStore(dir);
  const parts = assemble({ db, clock, config: loadConfig(null, {}), log, dns: createDns([]) });
  const { core: ctx, activity } = parts;
  try {
    const project = createProject(db, clock, 'unit');
    for (const at of [1000, 1000, 1001, 1003, 1003, 1005]) ctx.bus.emit({ projectId: project.id, name: `e${at}` as CustomEventName, at });
    const runs: ActivityEntry[] = [1000, 1002, 1003, 1003, 1006].map((at, i) => ({ key: i, id: `run-${i}`, type: 'workflow.run', at, contactId: null, metadata: {} }));
    const workflowSource: ActivitySource = {
      name: 'workflows',
      entries: (_ctx, q) =>
        runs
          .filter((r) => r.at >= q.from && r.at <= q.to && (r.at < q.before.at || (r.at === q.before.at && r.key < q.before.key)))
          .sort((a, b) => b.at - a.at || b.key - a.key)
          .slice(0, q.limit),
    };
    activity.register(eventActivitySource);
    activity.register(workflowSource);
    assert.throws(() => activity.register(workflowSource), /twice/);

    const all = (limit: number) => {
      const seen: { type: string; timestamp: string }[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 50; i++) {
        const page = listActivity(ctx, activity, project.id, { limit, cursor: decodeCursor(cursor ?? undefined), types: null, contactId: null, from: 0, to: Number.MAX_SAFE_INTEGER });
        seen.push(...page.data);
        if (!page.hasMore) return seen;
        cursor = page.cursor;
      }
      throw new Error('no end');
    };
    const whole = all(100);
    assert.is(whole.length, 11);
    const times = whole.map((e) => Date.parse(e.timestamp));
    assert.equal(times, [...times].sort((a, b) => b - a));
    for (const limit of [1, 2, 3, 4]) assert.equal(all(limit), whole, `pages of ${limit}`);
  } finally {
    await parts.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
