// The table of filter cases (test/helpers/filter-cases.ts) through the daemon's API: each case is
// a tracked segment. Its contacts page and the preview of its condition answer with the SQL engine;
// contact changes make the re-evaluation jobs record membership with the memory engine (entry
// events); compute then diffs the SQL engine's answer against what the memory engine recorded, and
// must find nothing to change.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { CASES, CONTACTS, DYNAMIC_CONDITION, EVENTS, OLD_AGO, RECENT_AGO, STATIC_MEMBERS, type FilterCase, type Refs } from './helpers/filter-cases.js';
import { eventually } from './helpers/mail-env.js';

const ADMIN = 'filters-admin-token-0123456789';
let d: TestDaemon;
const idOf = new Map<string, string>();
const keyOf = (id: string) => [...idOf.entries()].find(([, v]) => v === id)?.[0] ?? id;
const sorted = (xs: string[]) => [...xs].sort();

async function advance(ms: number): Promise<number> {
  const r = await d.request('POST', '/_test/clock', { advanceMs: ms }, { key: ADMIN });
  assert.is(r.status, 200);
  return Date.parse(r.body.now);
}

async function ok(method: string, path: string, body?: unknown, key = d.project.secretKey): Promise<any> {
  const r = await d.request(method, path, body, { key });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Builds the fixture in two waves, moving the daemon's clock: answers the `now` the table is evaluated at. */
async function buildFixture(): Promise<number> {
  const start = await advance(1);
  const now = start + OLD_AGO;
  for (const ago of [OLD_AGO, RECENT_AGO]) {
    for (const c of CONTACTS.filter((x) => x.ago === ago)) idOf.set(c.key, (await ok('POST', '/contacts', { email: c.email, data: c.data(now) })).id);
    for (const e of EVENTS.filter((x) => x.ago === ago)) {
      await ok('POST', '/v1/track', { email: CONTACTS.find((c) => c.key === e.contact)!.email, event: e.name }, d.project.publicKey);
    }
    if (ago === RECENT_AGO) for (const c of CONTACTS.filter((x) => x.unsubscribes)) await ok('PATCH', `/contacts/${idOf.get(c.key)}`, { subscribed: false });
    await advance(ago === OLD_AGO ? OLD_AGO - RECENT_AGO : RECENT_AGO);
  }
  return now;
}

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, testHooks: true, adminToken: ADMIN } });
});
test.after(async () => d.dispose());

test('every case gives the same contacts through the SQL engine and the memory engine', async () => {
  const now = await buildFixture();
  const staticSegment = await ok('POST', '/segments', { name: 'S', type: 'STATIC' });
  await ok('POST', `/segments/${staticSegment.id}/members`, { emails: STATIC_MEMBERS.map((k) => CONTACTS.find((c) => c.key === k)!.email) });
  const dynamicSegment = await ok('POST', '/segments', { name: 'D', condition: DYNAMIC_CONDITION });
  const refs: Refs = { staticId: staticSegment.id, dynamicId: dynamicSegment.id, now };

  const segments: { c: FilterCase; segment: { id: string }; slug: string }[] = [];
  for (const [i, c] of CASES.entries()) {
    const segment = await ok('POST', '/segments', { name: `case ${i}`, condition: c.condition(refs), trackMembership: true });
    const page = await ok('GET', `/segments/${segment.id}/contacts?pageSize=100`);
    assert.equal(sorted(page.data.map((x: { id: string }) => keyOf(x.id))), sorted(c.expect), `${c.name}: SQL page`);
    assert.is(page.total, c.expect.length, `${c.name}: SQL count`);
    const preview = await ok('POST', '/segments/preview', { condition: c.condition(refs) });
    assert.equal([preview.count, sorted(preview.sample.map((x: { id: string }) => keyOf(x.id)))], [c.expect.length, sorted(c.expect)], `${c.name}: the preview, not saved`);
    segments.push({ c, segment, slug: `case-${i}` });
  }

  for (const [i, id] of [...idOf.values()].entries()) await ok('PATCH', `/contacts/${id}`, { data: { touched: i } });
  const entered = async (slug: string) =>
    (await ok('GET', `/events?name=segment.${slug}.entry&limit=500`)).data.map((e: { contactId: string }) => keyOf(e.contactId)) as string[];
  await eventually(
    async () => {
      for (const { c, slug } of segments) if ((await entered(slug)).length !== c.expect.length) return false;
      return true;
    },
    20_000,
    'every case recorded by the re-evaluation jobs',
  );
  for (const { c, segment, slug } of segments) {
    assert.equal(sorted(await entered(slug)), sorted(c.expect), `${c.name}: memory engine`);
    assert.equal(await ok('POST', `/segments/${segment.id}/compute`), { added: 0, removed: 0, total: c.expect.length }, `${c.name}: compute agrees`);
  }
});

test.run();
