// A segment's condition is expanded in place wherever memberOfSegment names it: in other segments,
// campaign audiences and workflow CONDITION steps. An edit that would leave one of those invalid
// (past the expansion bound, too deep a chain of references, a cycle) is refused, naming them, and
// every condition keeps its members; a type change and a delete of a segment in use are refused too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;
let projects = 0;

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
});
test.after(async () => env.close());

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** A project of its own with a verified sender and two contacts: `pro@` (plan pro) and `free@`. */
async function project(): Promise<{ keys: Keys; call: Call; ok: (method: string, path: string, body?: unknown) => Promise<any>; from: string }> {
  const keys = d.createProject(`references ${++projects}`);
  const domain = `refs${projects}.test`;
  await env.verifySender(domain, keys);
  const call: Call = (method, path, body) => d.request(method, path, body, { key: keys.secretKey });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await call(method, path, body);
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await ok('POST', '/contacts', { email: 'pro@people.test', data: { plan: 'pro' } });
  await ok('POST', '/contacts', { email: 'free@people.test', data: { plan: 'free' } });
  return { keys, call, ok, from: `news@${domain}` };
}

const PRO = { field: 'data.plan', operator: 'equals', value: 'pro' };
const memberOf = (id: string) => ({ field: 'segment', operator: 'memberOfSegment', value: id });
const all = (...filters: unknown[]) => ({ logic: 'AND', groups: [{ filters }] });
const any = (...filters: unknown[]) => ({ logic: 'OR', groups: filters.map((f) => ({ filters: [f] })) });
/** `n` filters ORed, one of them `PRO`: matches the pro contact, as PRO alone does. */
const wide = (n: number) => any(PRO, ...Array.from({ length: n - 1 }, (_, i) => ({ field: 'data.plan', operator: 'equals', value: `other${i}` })));

const emailsOf = async (ok: (m: string, p: string) => Promise<any>, segmentId: string) =>
  (await ok('GET', `/segments/${segmentId}/contacts`)).data.map((c: { email: string }) => c.email);

test('an edit that makes a referencing segment expand past 2000 filters is refused (409 naming it); both keep their members', async () => {
  const { call, ok } = await project();
  const b = await ok('POST', '/segments', { name: 'B', condition: all(PRO) });
  // A names B twenty times: B's filters count twenty times in A
  const a = await ok('POST', '/segments', { name: 'A', condition: any(...Array.from({ length: 20 }, () => memberOf(b.id))) });
  const refused = await call('PATCH', `/segments/${b.id}`, { condition: wide(100) });
  assert.is(refused.status, 409, JSON.stringify(refused.body));
  assert.is(refused.body.error.code, 'CONFLICT');
  assert.match(refused.body.error.message, /segment "A"/);
  assert.equal(refused.body.error.details.segments.map((s: { id: string; name: string }) => [s.id, s.name]), [[a.id, 'A']]);
  assert.match(refused.body.error.details.segments[0].problem, /expands to more than 2000 filters/);
  assert.equal([refused.body.error.details.campaigns, refused.body.error.details.workflows], [[], []]);
  assert.equal((await ok('GET', `/segments/${b.id}`)).condition, all(PRO), 'B is unchanged');
  assert.equal(await emailsOf(ok, a.id), ['pro@people.test'], 'A keeps its member');
  // an edit within the bound passes, and A reads B's new condition
  await ok('PATCH', `/segments/${b.id}`, { condition: wide(90) });
  assert.equal(await emailsOf(ok, a.id), ['pro@people.test']);
});

test('a chain of references one too deep: the segment, campaigns (SEGMENT and FILTERED, drafts too) and workflow steps at its head are named', async () => {
  const { call, ok, from } = await project();
  // X0 -> X1 -> ... -> X15 -> B: planning X0 expands 16 segments, the most a chain may hold
  const b = await ok('POST', '/segments', { name: 'B', condition: all(PRO) });
  let next = b;
  const chain = [];
  for (let i = 15; i >= 0; i--) chain.unshift((next = await ok('POST', '/segments', { name: `X${i}`, condition: all(memberOf(next.id)) })));
  const [x0, x1] = chain;
  const base = { subject: 'Hi', body: '<p>hi</p>', from };
  const bySegment = (await ok('POST', '/campaigns', { ...base, name: 'by segment', audienceType: 'SEGMENT', segmentId: x1.id })).data;
  const byFilter = (await ok('POST', '/campaigns', { ...base, name: 'by filter', audienceType: 'FILTERED', audienceCondition: all(memberOf(x1.id)) })).data;
  const unrelated = (await ok('POST', '/campaigns', { ...base, name: 'unrelated', audienceType: 'FILTERED', audienceCondition: all(PRO) })).data;
  const workflow = await ok('POST', '/workflows', { name: 'flow', eventName: 'checked' });
  await ok('POST', `/workflows/${workflow.id}/steps`, { type: 'CONDITION', name: 'member?', config: memberOf(x1.id) });
  const c = await ok('POST', '/segments', { name: 'C', condition: all(PRO) });

  const refused = await call('PATCH', `/segments/${b.id}`, { condition: all(memberOf(c.id)) });
  assert.is(refused.status, 409, JSON.stringify(refused.body));
  const { details } = refused.body.error;
  assert.equal(details.segments.map((s: { name: string }) => s.name), ['X0'], 'X1 and later stay within the bound');
  assert.equal(details.campaigns.map((x: { id: string }) => x.id).sort(), [bySegment.id, byFilter.id].sort());
  assert.ok(!details.campaigns.some((x: { id: string }) => x.id === unrelated.id));
  assert.equal(details.workflows.map((w: { id: string; name: string }) => [w.id, w.name]), [[workflow.id, 'flow']]);
  for (const broken of [...details.segments, ...details.campaigns, ...details.workflows]) assert.match(broken.problem, /at most 16 deep/);
  assert.equal(await emailsOf(ok, x0.id), ['pro@people.test'], 'X0 keeps its member');

  // once X0 no longer reaches that deep, only the campaigns and the workflow stand in the way; without them the edit passes
  await ok('PATCH', `/segments/${x0.id}`, { condition: all(PRO) });
  const still = await call('PATCH', `/segments/${b.id}`, { condition: all(memberOf(c.id)) });
  assert.is(still.status, 409);
  assert.equal(still.body.error.details.segments, []);
  for (const id of [bySegment.id, byFilter.id]) await ok('DELETE', `/campaigns/${id}`);
  await ok('DELETE', `/workflows/${workflow.id}`);
  await ok('PATCH', `/segments/${b.id}`, { condition: all(memberOf(c.id)) });
  assert.equal(await emailsOf(ok, x1.id), ['pro@people.test'], 'X1 reads B through C');
});

test('a cycle, a type change and a delete of a referenced segment are refused; the referencing segment keeps its members', async () => {
  const { call, ok } = await project();
  const b = await ok('POST', '/segments', { name: 'B', condition: all(PRO) });
  const a = await ok('POST', '/segments', { name: 'A', condition: all(memberOf(b.id)) });
  const cycle = await call('PATCH', `/segments/${b.id}`, { condition: all(memberOf(a.id)) });
  assert.is(cycle.status, 422);
  assert.match(cycle.body.error.errors[0].message, /contain themselves/);
  const retype = await call('PATCH', `/segments/${b.id}`, { type: 'STATIC' });
  assert.is(retype.status, 422);
  const removed = await call('DELETE', `/segments/${b.id}`);
  assert.is(removed.status, 409);
  assert.equal(removed.body.error.details.segments, [{ id: a.id, name: 'A' }]);
  assert.equal((await ok('GET', `/segments/${b.id}`)).type, 'DYNAMIC');
  assert.equal(await emailsOf(ok, a.id), ['pro@people.test']);
  // an ordinary edit of B is still free, and A follows it
  await ok('PATCH', `/segments/${b.id}`, { condition: all({ field: 'data.plan', operator: 'equals', value: 'free' }) });
  assert.equal(await emailsOf(ok, a.id), ['free@people.test']);
});

test.run();
