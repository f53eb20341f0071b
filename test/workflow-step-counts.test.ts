// GET /workflows/{id}/step-counts through the real daemon: executions at each step now (running or
// waiting there) and the runs that passed or failed it, as executions move (the clock moved past a
// DELAY), branch (a CONDITION) and fail (a WEBHOOK answered 400); counts leave with a deleted contact
// and stay in their project; the count of active executions, which grows with the project's contacts,
// is read on a reader thread under the request's budget.
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { seedStore } from './helpers/seed.js';
import { trackPublic } from './helpers/webhook-flows.js';

let env: MailEnv;
let hooks: HttpReceiver;

test.before(async () => {
  hooks = await startHttpReceiver();
  env = await startMailEnv({ config: { webhooks: { allowPrivate: true } } });
});
test.after(async () => {
  await env.close();
  await hooks.close();
});

interface Counts {
  now: number;
  passed: number;
  failed: number;
}

/** trigger -> DELAY 1 hour -> CONDITION plan = pro: yes -> EXIT, no -> WEBHOOK (answers 400). */
async function flow(eventName: string): Promise<{ id: string; step: Record<'trigger' | 'delay' | 'condition' | 'exit' | 'hook', string> }> {
  const d = env.daemon;
  const w = (await d.request('POST', '/workflows', { name: eventName, eventName })).body;
  const add = async (type: string, config: unknown) => {
    const r = await d.request('POST', `/workflows/${w.id}/steps`, { type, name: type, config });
    assert.is(r.status, 201, JSON.stringify(r.body));
    return r.body.id as string;
  };
  const step = {
    trigger: w.steps[0].id as string,
    delay: await add('DELAY', { amount: 1, unit: 'hours' }),
    condition: await add('CONDITION', { field: 'data.plan', operator: 'equals', value: 'pro' }),
    exit: await add('EXIT', {}),
    hook: await add('WEBHOOK', { url: `${hooks.url}/refuse` }),
  };
  for (const [from, to, branch] of [
    [step.trigger, step.delay],
    [step.delay, step.condition],
    [step.condition, step.exit, 'yes'],
    [step.condition, step.hook, 'no'],
  ] as const) {
    const r = await d.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: from, toStepId: to, ...(branch ? { condition: { branch } } : {}) });
    assert.is(r.status, 201, JSON.stringify(r.body));
  }
  assert.is((await d.request('PATCH', `/workflows/${w.id}`, { enabled: true })).status, 200);
  return { id: w.id, step };
}

async function counts(workflowId: string): Promise<Record<string, Counts>> {
  const r = await env.daemon.request('GET', `/workflows/${workflowId}/step-counts`);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return Object.fromEntries((r.body.steps as ({ stepId: string } & Counts)[]).map(({ stepId, ...c }) => [stepId, c]));
}

/** What the executions' own step runs say: the counts recomputed the slow way. */
async function recount(workflowId: string): Promise<Record<string, Counts>> {
  const d = env.daemon;
  const list = (await d.request('GET', `/workflows/${workflowId}/executions?pageSize=100`)).body.data as { id: string; status: string; currentStepId: string }[];
  const out: Record<string, Counts> = {};
  const at = (id: string) => (out[id] ??= { now: 0, passed: 0, failed: 0 });
  for (const e of list) {
    if (e.status === 'RUNNING' || e.status === 'WAITING') at(e.currentStepId).now++;
    const runs = (await d.request('GET', `/workflows/${workflowId}/executions/${e.id}`)).body.steps as { stepId: string; status: string }[];
    for (const r of runs) {
      if (r.status === 'COMPLETED') at(r.stepId).passed++;
      if (r.status === 'FAILED') at(r.stepId).failed++;
    }
  }
  return out;
}

const zero: Counts = { now: 0, passed: 0, failed: 0 };

test('counts follow executions through a DELAY, a CONDITION and a failing WEBHOOK, and equal the executions\' own runs', async () => {
  hooks.answer(() => ({ status: 400 }));
  const w = await flow('counted');
  const s = w.step;
  assert.equal(await counts(w.id), { [s.trigger]: zero, [s.delay]: zero, [s.condition]: zero, [s.exit]: zero, [s.hook]: zero }, 'every step, zero before anything ran');

  for (const [email, plan] of [['a@count.test', 'pro'], ['b@count.test', 'pro'], ['c@count.test', 'free']]) {
    assert.is((await trackPublic(env.daemon, email!, 'counted', { plan })).status, 200);
  }
  await env.idle();
  let c = await counts(w.id);
  assert.equal(c[s.trigger], { now: 0, passed: 3, failed: 0 });
  assert.equal(c[s.delay], { now: 3, passed: 0, failed: 0 }, 'three wait in the delay');
  assert.equal(c[s.condition], zero);
  assert.equal(c, { ...(await recount(w.id)), [s.condition]: zero, [s.exit]: zero, [s.hook]: zero });

  await env.advance(3_600_000 + 1000);
  await env.idle();
  c = await counts(w.id);
  assert.equal(c[s.delay], { now: 0, passed: 3, failed: 0 });
  assert.equal(c[s.condition], { now: 0, passed: 3, failed: 0 });
  assert.equal(c[s.exit], { now: 0, passed: 2, failed: 0 }, 'the two pro contacts took yes');
  assert.equal(c[s.hook], { now: 0, passed: 0, failed: 1 }, 'the free one took no, and the webhook refused it');
  assert.equal(c, await recount(w.id));

  // a deleted contact takes its execution and its runs along
  const contact = (await env.daemon.request('POST', '/contacts/lookup', { emails: ['c@count.test'] })).body.found[0];
  assert.is((await env.daemon.request('DELETE', `/contacts/${contact.id}`)).status, 204);
  c = await counts(w.id);
  assert.equal(c[s.trigger], { now: 0, passed: 2, failed: 0 });
  assert.equal(c[s.hook], zero);
  assert.equal(c, { ...(await recount(w.id)), [s.hook]: zero });
});

test('a deleted step leaves the counts; a workflow of another project is 404', async () => {
  hooks.answer(() => ({ status: 200 }));
  const w = await flow('pruned');
  await trackPublic(env.daemon, 'p@count.test', 'pruned', { plan: 'pro' });
  await env.idle();
  assert.is((await env.daemon.request('PATCH', `/workflows/${w.id}`, { enabled: false })).status, 200);
  assert.is((await env.daemon.request('DELETE', `/workflows/${w.id}/steps/${w.step.hook}`)).status, 204);
  const c = await counts(w.id);
  assert.equal(Object.keys(c).sort(), [w.step.trigger, w.step.delay, w.step.condition, w.step.exit].sort());
  assert.equal(c[w.step.delay], { now: 1, passed: 0, failed: 0 });

  const other = env.daemon.createProject('elsewhere');
  const r = await env.daemon.request('GET', `/workflows/${w.id}/step-counts`, undefined, { key: other.secretKey });
  assert.is(r.status, 404);
  assert.is(r.body.error.code, 'NOT_FOUND');
});

test('executions waiting at a step are counted on a reader thread, under the request\'s budget', async () => {
  const w = await flow('crowded');
  // a crowd in the delay (a campaign's audience entering at once): counting it is the read that grows
  const file = env.daemon.configFile;
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), reads: { threads: 2, requestBudgetMs: 10, jobBudgetMs: 60_000 } }));
  await seedStore(env.daemon, (db) => {
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 300000 - 1)
       INSERT INTO workflow_executions (id, workflow_id, project_id, contact_id, status, current_step_id, seq, started_at, updated_at)
       SELECT 'crowd-' || x, ?, ?, NULL, 'WAITING', ?, 1, x, x FROM n`,
    ).run(w.id, env.daemon.project.id, w.step.delay);
  });
  const r = await env.daemon.request('GET', `/workflows/${w.id}/step-counts`);
  assert.is(r.status, 422, JSON.stringify(r.body));
  assert.is(r.body.error.code, 'QUERY_TIMEOUT');
  assert.equal(r.body.error.details, { budgetMs: 10 });
});

test.run();
