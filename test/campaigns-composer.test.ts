// What the console's campaign composer asks of the API: the preview text (stored, composed as the
// hidden preheader of what is sent, tested and previewed), POST /campaigns/preview, the audience
// counted apart (POST /campaigns/audience-count: unsubscribed and suppressed never skipped unseen)
// and a send's progress in GET /campaigns/{id}/stats (queued and deferred apart, the status).
import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;
const pro = { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] };
const free = { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'free' }] }] };
const base = { name: 'Spring', subject: 'Hello {{name ?? friend}}', body: '<p>Body of {{email}}</p>', from: 'editor@news.test', audienceType: 'ALL' };
let segmentId: string;
const contactIds: Record<string, string> = {};

const ok = async (method: string, path: string, body?: unknown, key?: Keys) => {
  const r = await d.request(method, path, body, key ? { key: key.secretKey } : undefined);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['readers.test'], senders: ['news.test'] });
  d = env.daemon;
  // two addresses that hard-bounce: suppressed
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 no such user' } : null));
  const notice = await ok('POST', '/templates', { name: 'notice', subject: 'Notice', body: '<p>Hi</p>', from: 'editor@news.test', type: 'TRANSACTIONAL' });
  for (const to of ['gone1@readers.test', 'gone2@readers.test']) await ok('POST', '/v1/send', { to, template: notice.id });
  await eventually(async () => ((await d.request('GET', '/suppressions')).body.data.length === 2 ? true : null), 10_000, 'two suppressions');
  const people: [string, string, boolean][] = [
    ['ann@readers.test', 'pro', true],
    ['bob@readers.test', 'free', true],
    ['cy@readers.test', 'pro', false],
    // suppressed and subscribed (skipped as suppressed), suppressed and unsubscribed (left out as unsubscribed)
    ['gone1@readers.test', 'pro', true],
    ['gone2@readers.test', 'free', false],
  ];
  for (const [email, plan, subscribed] of people) {
    const r = await d.request('POST', '/contacts', { email, subscribed, data: { plan, name: email.split('@')[0]!.replace(/^./, (c) => c.toUpperCase()) } });
    assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.body));
    contactIds[email] = r.body.id;
  }
  const states = (await ok('POST', '/contacts/lookup', { emails: people.map(([e]) => e) })).found as { email: string; subscribed: boolean }[];
  assert.equal(Object.fromEntries(states.map((c) => [c.email, c.subscribed])), Object.fromEntries(people.map(([e, , s]) => [e, s])), 'the subscriptions as set');
  segmentId = (await ok('POST', '/segments', { name: 'Pro', condition: pro })).id;
});
test.after(async () => env?.close());

const count = (body: Record<string, unknown>, key?: Keys) => d.request('POST', '/campaigns/audience-count', body, key ? { key: key.secretKey } : undefined);

test('the audience counted apart: recipients, unsubscribed and suppressed, for ALL, a segment and a filter', async () => {
  const cases: [string, Record<string, unknown>, { recipients: number; unsubscribed: number; suppressed: number; matching: number }][] = [
    ['ALL', { audienceType: 'ALL' }, { recipients: 2, unsubscribed: 2, suppressed: 1, matching: 5 }],
    ['ALL, TRANSACTIONAL: the unsubscribed are reached, the suppressed are not', { audienceType: 'ALL', type: 'TRANSACTIONAL' }, { recipients: 3, unsubscribed: 0, suppressed: 2, matching: 5 }],
    ['a segment', { audienceType: 'SEGMENT', segmentId }, { recipients: 1, unsubscribed: 1, suppressed: 1, matching: 3 }],
    ['a filter', { audienceType: 'FILTERED', audienceCondition: free }, { recipients: 1, unsubscribed: 1, suppressed: 0, matching: 2 }],
    ['HEADLESS like MARKETING', { audienceType: 'FILTERED', audienceCondition: pro, type: 'HEADLESS' }, { recipients: 1, unsubscribed: 1, suppressed: 1, matching: 3 }],
  ];
  for (const [what, body, expected] of cases) {
    const r = await count(body);
    assert.is(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body, expected, what);
  }
});

test('audience-count refuses what a campaign refuses: companions missing 400, an unknown segment 400, a bad filter or body 422', async () => {
  assert.is((await count({ audienceType: 'SEGMENT' })).status, 400);
  assert.is((await count({ audienceType: 'FILTERED' })).status, 400);
  assert.is((await count({ audienceType: 'SEGMENT', segmentId: '00000000-0000-4000-8000-000000000000' })).status, 400);
  const badFilter = await count({ audienceType: 'FILTERED', audienceCondition: { logic: 'XOR', groups: [] } });
  assert.is(badFilter.status, 422);
  assert.ok(badFilter.body.error.errors.every((e: { field: string }) => e.field.startsWith('audienceCondition')), JSON.stringify(badFilter.body.error.errors));
  assert.is((await count({ audienceType: 'EVERYONE' })).status, 422);
  assert.is((await count({ audienceType: 'ALL', extra: 1 })).status, 422);
});

test("audience-count sees only the key's project: its contacts, its segments", async () => {
  const other = d.createProject('other');
  await ok('POST', '/contacts', { email: 'zed@readers.test' }, other);
  assert.equal((await count({ audienceType: 'ALL' }, other)).body, { recipients: 1, unsubscribed: 0, suppressed: 0, matching: 1 });
  assert.is((await count({ audienceType: 'SEGMENT', segmentId }, other)).status, 400, "another project's segment is unknown");
  assert.is((await count({ audienceType: 'ALL' }, other)).body.matching, 1);
});

test('preview text: stored, duplicated, cleared by PUT, one line of at most 500 characters', async () => {
  const created = (await ok('POST', '/campaigns', { ...base, previewText: 'Spring is here' })).data;
  assert.is(created.previewText, 'Spring is here');
  assert.is((await ok('GET', `/campaigns/${created.id}`)).previewText, 'Spring is here');
  assert.is((await ok('POST', `/campaigns/${created.id}/duplicate`)).previewText, 'Spring is here');
  assert.is((await ok('PUT', `/campaigns/${created.id}`, base)).previewText, null, 'PUT replaces every field: omitted is none');
  assert.is((await ok('PUT', `/campaigns/${created.id}`, { ...base, previewText: '' })).previewText, null, 'empty is none');
  for (const previewText of ['two\nlines', 'x'.repeat(501), 42]) {
    const r = await d.request('POST', '/campaigns', { ...base, previewText });
    assert.is(r.status, 422, JSON.stringify(previewText));
    assert.equal(r.body.error.errors.map((e: { field: string }) => e.field), ['previewText']);
  }
});

const preview = (body: Record<string, unknown>) => d.request('POST', '/campaigns/preview', body);
const HIDDEN_DIV = /^<div class="preheader" style="display:none;[^"]*">(.*?)<\/div>/;

test('POST /campaigns/preview: the preview text leads the body, rendered for the contact and escaped; after <body> in a whole document', async () => {
  const r = await preview({ subject: 'Hi {{name}}', previewText: 'For {{name ?? you}} & <friends>', body: '<p>Body of {{email}}</p>', contactId: contactIds['ann@readers.test'] });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.subject, 'Hi Ann');
  assert.is(HIDDEN_DIV.exec(r.body.html)?.[1], 'For Ann &amp; &lt;friends&gt;');
  assert.ok(r.body.html.endsWith('<p>Body of ann@readers.test</p>'), r.body.html);
  assert.match(r.body.text, /^For Ann & <friends>/, 'the text part starts with it');

  const page = '<!doctype html><html><head><title>T</title></head><BODY class="x"><p>B</p></BODY></html>';
  const whole = await preview({ subject: 's', previewText: 'Lead', body: page });
  assert.ok(whole.body.html.startsWith('<!doctype html><html><head><title>T</title></head><BODY class="x"><div class="preheader" style="display:none;'), whole.body.html);
  assert.ok(whole.body.html.endsWith('">Lead</div><p>B</p></BODY></html>'), whole.body.html);
  for (const none of [{}, { previewText: null }, { previewText: '  ' }]) {
    assert.is((await preview({ subject: 's', body: '<p>B</p>', ...none })).body.html, '<p>B</p>', `no preheader for ${JSON.stringify(none)}`);
  }
  assert.is((await preview({ subject: 's', body: 'b', contactId: '00000000-0000-4000-8000-000000000000' })).status, 404);
  assert.is((await preview({ subject: 's' })).status, 422);
  assert.is((await preview({ subject: 's', body: 'b', data: {} })).status, 422, 'a campaign has no one-off data');
});

test('what is sent and tested carries the preheader, rendered per recipient; the send reaches the counted recipients', async () => {
  const campaign = (await ok('POST', '/campaigns', { ...base, previewText: 'Just for {{name}}' })).data;
  const counted = (await count({ audienceType: 'ALL' })).body;
  await ok('POST', `/campaigns/${campaign.id}/test`, { email: 'tester@readers.test' });
  await ok('POST', `/campaigns/${campaign.id}/send`, {});
  const done = await eventually(async () => {
    const c = await ok('GET', `/campaigns/${campaign.id}`);
    return c.status === 'SENT' ? c : null;
  }, 20_000, 'the campaign SENT');
  assert.is(done.totalRecipients, counted.recipients, 'what was sent is what the count said');
  assert.is(done.suppressedCount, counted.suppressed);
  const html = async (rcpt: string) => {
    const message = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes(rcpt) && m.raw.includes('Just for')) ?? null, 10_000, `the campaign at ${rcpt}`);
    return String((await simpleParser(message.raw)).html);
  };
  assert.is(HIDDEN_DIV.exec(await html('ann@readers.test'))?.[1], 'Just for Ann');
  assert.is(HIDDEN_DIV.exec(await html('bob@readers.test'))?.[1], 'Just for Bob');
  assert.is(HIDDEN_DIV.exec(await html('tester@readers.test'))?.[1], 'Just for ', 'a test renders for a stand-in without data');
});

test('stats show the progress: the status, queued, deferred (a retry due) and delivered, until SENT', async () => {
  const keys = d.createProject('progress');
  await env.verifySender('progress.test', keys);
  for (const email of ['delivered@simulator.postmill.invalid', 'delay@simulator.postmill.invalid']) await ok('POST', '/contacts', { email }, keys);
  const campaign = (await ok('POST', '/campaigns', { ...base, from: 'editor@progress.test' }, keys)).data;
  const stats = async () => (await ok('GET', `/campaigns/${campaign.id}/stats`, undefined, keys)).data;
  assert.equal(pick(await stats()), { status: 'DRAFT', queuedCount: 0, deferredCount: 0, deliveredCount: 0, sentCount: 0, suppressedCount: 0 });
  await ok('POST', `/campaigns/${campaign.id}/send`, {}, keys);
  const waiting = await eventually(async () => {
    const s = await stats();
    return s.deferredCount === 1 && s.deliveredCount === 1 ? s : null;
  }, 15_000, 'one delivered, one deferred');
  assert.equal(pick(waiting), { status: 'SENDING', queuedCount: 0, deferredCount: 1, deliveredCount: 1, sentCount: 2, suppressedCount: 0 });
  await env.advance(61_000);
  const done = await eventually(async () => {
    const s = await stats();
    return s.status === 'SENT' ? s : null;
  }, 15_000, 'SENT after the retry');
  assert.equal(pick(done), { status: 'SENT', queuedCount: 0, deferredCount: 0, deliveredCount: 2, sentCount: 2, suppressedCount: 0 });
});

test('a cancel ends the deferral: the counter does not keep a retry that will never come', async () => {
  const keys = d.createProject('cancel');
  await env.verifySender('cancel.test', keys);
  await ok('POST', '/contacts', { email: 'delay@simulator.postmill.invalid' }, keys);
  const campaign = (await ok('POST', '/campaigns', { ...base, from: 'editor@cancel.test' }, keys)).data;
  await ok('POST', `/campaigns/${campaign.id}/send`, {}, keys);
  const stats = async () => (await ok('GET', `/campaigns/${campaign.id}/stats`, undefined, keys)).data;
  await eventually(async () => ((await stats()).deferredCount === 1 ? true : null), 15_000, 'deferred');
  await ok('POST', `/campaigns/${campaign.id}/cancel`, {}, keys);
  assert.equal(pick(await stats()), { status: 'CANCELLED', queuedCount: 0, deferredCount: 0, deliveredCount: 0, sentCount: 1, suppressedCount: 0 });
});

const pick = (s: Record<string, unknown>) => ({
  status: s.status,
  queuedCount: s.queuedCount,
  deferredCount: s.deferredCount,
  deliveredCount: s.deliveredCount,
  sentCount: s.sentCount,
  suppressedCount: s.suppressedCount,
});

test.run();
