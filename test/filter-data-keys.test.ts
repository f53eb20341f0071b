// Data keys of any characters through the daemon: a segment's page, its count (refresh), tracked
// membership (the memory engine records entries as contacts are written; compute, the SQL
// engine, must find nothing to change) and a FILTERED campaign's count and fan-out all read
// exactly the key named. Empty keys and control characters are refused at validation (422).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestDaemon } from './helpers/daemon.js';
import { AWKWARD_KEYS, REFUSED_DATA_FIELDS } from './helpers/filter-cases.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;

test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['keys.test'] });
  d = env.daemon;
  await env.verifySender('keys-sender.test');
});
test.after(async () => env.close());

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const r = await d.request(method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

interface KeyCase {
  field: string;
  value: string;
  data: Record<string, unknown>;
  email: string;
}

const cases: KeyCase[] = [
  ...AWKWARD_KEYS.flatMap((key) => [
    { field: `data.${key}`, value: `hit ${key}`, data: { [key]: `hit ${key}` } },
    { field: `data.${key}.${key}`, value: 'deep', data: { [key]: { [key]: 'deep' } } },
  ]),
  { field: 'data.a\\.b', value: 'dotted', data: { 'a\\': { b: 'dotted' } } },
].map((c, i) => ({ ...c, email: `k${i}@keys.test` }));

const conditionOf = (c: KeyCase) => ({ logic: 'AND', groups: [{ filters: [{ field: c.field, operator: 'equals', value: c.value }] }] });

test('segments: page, count, tracked entries and compute read exactly the key named', async () => {
  const segments = [];
  for (const [i, c] of cases.entries()) segments.push(await ok('POST', '/segments', { name: `key ${i}`, condition: conditionOf(c), trackMembership: true }));
  // written after the segments: each contact's re-evaluation job (the memory engine) records its entries
  for (const c of cases) await ok('POST', '/contacts', { email: c.email, data: c.data });
  for (const [i, c] of cases.entries()) {
    const what = JSON.stringify(c.field);
    const page = await ok('GET', `/segments/${segments[i].id}/contacts`);
    assert.equal([page.total, page.data.map((x: { email: string }) => x.email)], [1, [c.email]], `${what}: page`);
    assert.equal(await ok('POST', `/segments/${segments[i].id}/refresh`), { memberCount: 1 }, `${what}: refresh`);
    await eventually(async () => (await ok('GET', `/events?name=segment.key-${i}.entry`)).data.length === 1, 10_000, `${what}: entry recorded by the memory engine`);
    assert.equal(await ok('POST', `/segments/${segments[i].id}/compute`), { added: 0, removed: 0, total: 1 }, `${what}: compute agrees with the memory engine`);
  }
});

test('FILTERED campaigns: the audience count and the fan-out reach exactly the contact with the key', async () => {
  const sent: { id: string; c: KeyCase }[] = [];
  for (const c of cases) {
    const campaign = (
      await ok('POST', '/campaigns', { name: c.field, subject: 'Keys', body: '<p>hi</p>', from: 'news@keys-sender.test', audienceType: 'FILTERED', audienceCondition: conditionOf(c) })
    ).data;
    const send = await ok('POST', `/campaigns/${campaign.id}/send`, {});
    assert.is(send.data.totalRecipients, 1, `${JSON.stringify(c.field)}: audience count`);
    sent.push({ id: campaign.id, c });
  }
  for (const { id, c } of sent) {
    const done = await eventually(async () => {
      const campaign = await ok('GET', `/campaigns/${id}`);
      return campaign.status === 'SENT' ? campaign : null;
    }, 20_000, `${JSON.stringify(c.field)}: campaign SENT`);
    assert.is(done.sentCount, 1);
    const received = () => env.sink.messages.filter((m) => m.raw.toString('latin1').toLowerCase().includes(`x-postmill-campaign-id: ${id}`));
    await eventually(async () => received().length > 0, 10_000, `${JSON.stringify(c.field)}: the campaign at the sink`);
    assert.equal(received().flatMap((m) => m.rcptTo), [c.email], `${JSON.stringify(c.field)}: the one contact got the campaign`);
  }
});

test('empty keys and control characters are 422 on the field, for segments and campaign audiences', async () => {
  for (const field of REFUSED_DATA_FIELDS) {
    const condition = { logic: 'AND', groups: [{ filters: [{ field, operator: 'exists' }] }] };
    const segment = await d.request('POST', '/segments', { name: 'refused', condition });
    assert.is(segment.status, 422, JSON.stringify(field));
    assert.is(segment.body.error.errors[0].field, 'condition.groups.0.filters.0.field');
    const campaign = await d.request('POST', '/campaigns', { name: 'refused', subject: 'x', body: 'x', from: 'news@keys-sender.test', audienceType: 'FILTERED', audienceCondition: condition });
    assert.is(campaign.status, 422, JSON.stringify(field));
    assert.is(campaign.body.error.errors[0].field, 'audienceCondition.groups.0.filters.0.field');
  }
});

test.run();
