import { simpleParser } from 'mailparser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

const workflows = suite('workflows');
let env: MailEnv;
let d: TestDaemon;
let hooks: HttpReceiver;
let projects = 0;

workflows.before(async () => {
  hooks = await startHttpReceiver();
  env = await startMailEnv({ sinkDomains: ['people.test'], config: { webhooks: { allowPrivate: true } } });
  d = env.daemon;
});
workflows.after(async () => {
  await env.close();
  await hooks.close();
});

interface Core {
  keys: Keys;
  key: { key: string };
  domain: string;
  template: (type?: string, body?: string) => Promise<string>;
}

/** A project of its own with a verified sender and a template maker. */
async function project(): Promise<Core> {
  const keys = d.createProject('workflows');
  const domain = `flows${++projects}.test`;
  await env.verifySender(domain, keys);
  const key = { key: keys.secretKey };
  const template = async (type = 'TRANSACTIONAL', body = '<p>Hi {{name ?? you}}, plan {{plan}}, code {{event.code}}</p>') => {
    const r = await d.request('POST', '/templates', { name: 't', subject: 'Hello {{name ?? you}}', body, from: `bot@${domain}`, type }, key);
    assert.is(r.status, 201, JSON.stringify(r.body));
    return r.body.id as string;
  };
  return { keys, key, domain, template };
}

const trigger = (w: { steps: { id: string; type: string }[] }) => w.steps.find((s) => s.type === 'TRIGGER')!.id;

/** Builds a workflow from a chain description: each entry a step, linked in order (branches named). */
async function build(c: Core, eventName: string, steps: { type: string; name?: string; config?: unknown; from?: number; branch?: string }[], extra: Record<string, unknown> = {}) {
  const created = await d.request('POST', '/workflows', { name: `flow ${eventName}`, eventName, ...extra }, c.key);
  assert.is(created.status, 201, JSON.stringify(created.body));
  const ids: string[] = [trigger(created.body)];
  for (const [i, s] of steps.entries()) {
    const step = await d.request('POST', `/workflows/${created.body.id}/steps`, { type: s.type, name: s.name ?? `${s.type} ${i}`, config: s.config ?? {} }, c.key);
    assert.is(step.status, 201, JSON.stringify(step.body));
    ids.push(step.body.id);
    const from = ids[s.from ?? i]!;
    const t = await d.request('POST', `/workflows/${created.body.id}/transitions`, { fromStepId: from, toStepId: step.body.id, ...(s.branch ? { condition: { branch: s.branch } } : {}) }, c.key);
    assert.is(t.status, 201, JSON.stringify(t.body));
  }
  const enabled = await d.request('PATCH', `/workflows/${created.body.id}`, { enabled: true }, c.key);
  assert.is(enabled.status, 200, JSON.stringify(enabled.body));
  return { id: created.body.id as string, steps: ids };
}

const track = (c: Core, email: string, event: string, data: Record<string, unknown> = {}) =>
  d.request('POST', '/v1/track', { email, event, data }, { key: c.keys.publicKey }).then((r) => assert.is(r.status, 200));

const executions = async (c: Core, workflowId: string) => (await d.request('GET', `/workflows/${workflowId}/executions?pageSize=100`, undefined, c.key)).body.data as any[];
const execution = async (c: Core, workflowId: string, id: string) => (await d.request('GET', `/workflows/${workflowId}/executions/${id}`, undefined, c.key)).body;
const settled = (c: Core, workflowId: string, count: number, statuses: string[]) =>
  eventually(async () => {
    const list = await executions(c, workflowId);
    return list.length === count && list.every((e) => statuses.includes(e.status)) ? list : null;
  }, 10_000, `${count} executions ${statuses.join('/')}`);

workflows('create: disabled, EVENT, a TRIGGER step; flat 400 without name or eventName; 422 for wrong types', async () => {
  const c = await project();
  const r = await d.request('POST', '/workflows', { name: 'Onboarding', eventName: 'signed-up' }, c.key);
  assert.is(r.status, 201);
  assert.equal([r.body.enabled, r.body.triggerType, r.body.triggerConfig, r.body.allowReentry], [false, 'EVENT', { eventName: 'signed-up' }, false]);
  assert.equal(r.body.steps.map((s: { type: string }) => s.type), ['TRIGGER']);
  const missing = await d.request('POST', '/workflows', { name: 'x' }, c.key);
  assert.is(missing.status, 400);
  assert.type(missing.body.error, 'string');
  assert.is((await d.request('POST', '/workflows', { name: 5, eventName: 'x' }, c.key)).status, 422);
  assert.is((await d.request('GET', `/workflows/${r.body.id}`, undefined, c.key)).body.name, 'Onboarding');
  assert.is((await d.request('GET', `/workflows/${r.body.id}`)).status, 404, "another project's workflow");
  const list = await d.request('GET', '/workflows', undefined, c.key);
  assert.equal([list.body.total, list.body.data[0].id], [1, r.body.id]);
});

workflows('step configs are validated on save (422 with config.* fields); transitions follow the branch rules; enabling needs a sound graph', async () => {
  const c = await project();
  const w = (await d.request('POST', '/workflows', { name: 'rules', eventName: 'e' }, c.key)).body;
  const step = (body: unknown) => d.request('POST', `/workflows/${w.id}/steps`, body, c.key);
  const bad: [unknown, string][] = [
    [{ type: 'SEND_EMAIL', name: 's', config: { templateId: '00000000-0000-4000-8000-000000000000' } }, 'config.templateId'],
    [{ type: 'SEND_EMAIL', name: 's', config: {} }, 'config.templateId'],
    [{ type: 'DELAY', name: 'd', config: { amount: 366, unit: 'days' } }, 'config.amount'],
    [{ type: 'DELAY', name: 'd', config: { amount: 1, unit: 'weeks' } }, 'config.unit'],
    [{ type: 'WAIT_FOR_EVENT', name: 'w', config: { eventName: 'x', timeout: -5 } }, 'config.timeout'],
    [{ type: 'CONDITION', name: 'c', config: { field: 'data.plan', operator: 'isAwesome' } }, 'config.operator'],
    [{ type: 'WEBHOOK', name: 'h', config: { url: 'ftp://x.test' } }, 'config.url'],
    [{ type: 'WEBHOOK', name: 'h', config: { url: 'https://x.test', method: 'TRACE' } }, 'config.method'],
    [{ type: 'UPDATE_CONTACT', name: 'u', config: { subscriptionAction: 'maybe' } }, 'config.subscriptionAction'],
    [{ type: 'TELEPORT', name: 't', config: {} }, 'type'],
  ];
  for (const [body, field] of bad) {
    const r = await step(body);
    assert.is(r.status, 422, JSON.stringify(body));
    assert.ok(r.body.error.errors.some((e: { field: string }) => e.field === field), `${field}: ${JSON.stringify(r.body.error.errors)}`);
  }
  const cond = (await step({ type: 'CONDITION', name: 'pro?', config: { field: 'data.plan', operator: 'equals', value: 'pro' } })).body;
  const exit = (await step({ type: 'EXIT', name: 'bye', config: { reason: 'done' } })).body;
  const orphan = (await step({ type: 'EXIT', name: 'orphan' })).body;
  const link = (from: string, to: string, branch?: string) => d.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: from, toStepId: to, ...(branch ? { condition: { branch } } : {}) }, c.key);
  const enable = () => d.request('PATCH', `/workflows/${w.id}`, { enabled: true }, c.key);
  assert.match((await enable()).body.error.message, 'leads nowhere');
  assert.is((await link(trigger(w), cond.id)).status, 201);
  assert.is((await link(cond.id, exit.id)).status, 400, 'a CONDITION leads on by yes and no');
  assert.is((await link(exit.id, cond.id)).status, 400, 'EXIT has no way out');
  assert.is((await link(cond.id, trigger(w), 'yes')).status, 400, 'nothing leads to the trigger');
  assert.is((await link(cond.id, exit.id, 'event')).status, 400, 'a CONDITION has no event branch');
  assert.is((await link(cond.id, exit.id, 'yes')).status, 201);
  assert.is((await link(cond.id, orphan.id, 'yes')).status, 409, 'one transition per branch');
  const unreachable = await enable();
  assert.is(unreachable.status, 400);
  assert.match(unreachable.body.error.message, '"orphan" cannot be reached');
  assert.is((await d.request('DELETE', `/workflows/${w.id}/steps/${orphan.id}`, undefined, c.key)).status, 204);
  assert.match((await enable()).body.error.message, 'no no branch');
  assert.is((await link(cond.id, exit.id, 'no')).status, 201);
  assert.is((await enable()).body.enabled, true);
  // an enabled workflow stays sound: removing a required branch is refused
  const edges = (await d.request('GET', `/workflows/${w.id}`, undefined, c.key)).body.transitions;
  const no = edges.find((t: { condition: { branch: string } | null }) => t.condition?.branch === 'no');
  assert.is((await d.request('DELETE', `/workflows/${w.id}/transitions/${no.id}`, undefined, c.key)).status, 400);
  assert.is((await d.request('PATCH', `/workflows/${w.id}/steps/${trigger(w)}`, { config: { x: 1 } }, c.key)).status, 400);
  assert.is((await d.request('DELETE', `/workflows/${w.id}/steps/${trigger(w)}`, undefined, c.key)).status, 400);
});

workflows('an event runs the graph: CONDITION branches, UPDATE_CONTACT with its events, SEND_EMAIL rendered with data, EXIT', async () => {
  const c = await project();
  const template = await c.template();
  const w = await build(c, 'purchased', [
    { type: 'CONDITION', config: { field: 'data.plan', operator: 'equals', value: 'pro' } },
    { type: 'UPDATE_CONTACT', branch: 'yes', config: { updates: { tier: 'gold', plan: null }, subscriptionAction: 'unsubscribe' } },
    { type: 'SEND_EMAIL', config: { templateId: template } },
    { type: 'EXIT', from: 1, branch: 'no', config: { reason: 'not pro' } },
  ]);
  await track(c, 'pro@people.test', 'purchased', { plan: 'pro', name: 'Pat', code: { value: 'C-1', persistent: false } });
  await track(c, 'free@people.test', 'purchased', { plan: 'free' });
  const done = await settled(c, w.id, 2, ['COMPLETED', 'EXITED']);
  const byContact = async (email: string) => {
    const found = (await d.request('POST', '/contacts/lookup', { emails: [email] }, c.key)).body.found[0];
    return { contact: (await d.request('GET', `/contacts/${found.id}`, undefined, c.key)).body, run: done.find((e) => e.contactId === found.id) };
  };
  const pro = await byContact('pro@people.test');
  assert.is(pro.run.status, 'COMPLETED');
  assert.equal(pro.contact.data, { name: 'Pat', tier: 'gold' }, 'null deletes, primitives stored');
  assert.is(pro.contact.subscribed, false);
  assert.ok((await eventsNamed(d, 'contact.unsubscribed', c.key.key)).some((e) => e.contactId === pro.contact.id));
  const free = await byContact('free@people.test');
  assert.is(free.run.status, 'EXITED');
  const detail = await execution(c, w.id, pro.run.id);
  assert.equal(detail.steps.map((s: { stepType: string; status: string }) => `${s.stepType}:${s.status}`), ['TRIGGER:COMPLETED', 'CONDITION:COMPLETED', 'UPDATE_CONTACT:COMPLETED', 'SEND_EMAIL:COMPLETED']);
  assert.is(detail.triggerEvent.name, 'purchased');
  const sent = detail.steps[3].output;
  const message = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes('pro@people.test')), 8000, 'workflow mail');
  const mail = await simpleParser(message.raw);
  assert.is(mail.subject, 'Hello Pat');
  assert.match(String(mail.html), 'Hi Pat, plan , code C-1', 'the data as the update left it; the trigger event under event.');
  assert.is(sent.to, 'pro@people.test');
});

workflows('DELAY waits on a durable timer; WAIT_FOR_EVENT goes on by the event or by its timeout', async () => {
  const c = await project();
  const delayed = await build(c, 'delay-me', [{ type: 'DELAY', config: { amount: 2, unit: 'hours' } }, { type: 'UPDATE_CONTACT', config: { updates: { woke: true } } }]);
  const waiting = await build(c, 'wait-me', [
    { type: 'WAIT_FOR_EVENT', config: { eventName: 'confirmed', timeout: 3600 } },
    { type: 'UPDATE_CONTACT', branch: 'event', config: { updates: { outcome: 'confirmed' } } },
    { type: 'UPDATE_CONTACT', from: 1, branch: 'timeout', config: { updates: { outcome: 'timed out' } } },
  ]);
  await track(c, 'sleeper@people.test', 'delay-me');
  await track(c, 'quick@people.test', 'wait-me');
  await track(c, 'slow@people.test', 'wait-me');
  await settled(c, delayed.id, 1, ['WAITING']);
  await settled(c, waiting.id, 2, ['WAITING']);
  await track(c, 'quick@people.test', 'confirmed');
  await track(c, 'someone-else@people.test', 'confirmed');
  await eventually(async () => (await executions(c, waiting.id)).filter((e) => e.status === 'COMPLETED').length === 1, 8000, 'event branch');
  await env.advance(2 * 3_600_000 + 1000);
  await settled(c, delayed.id, 1, ['COMPLETED']);
  await settled(c, waiting.id, 2, ['COMPLETED']);
  const dataOf = async (email: string) => {
    const found = (await d.request('POST', '/contacts/lookup', { emails: [email] }, c.key)).body.found[0];
    return (await d.request('GET', `/contacts/${found.id}`, undefined, c.key)).body.data;
  };
  assert.equal(await dataOf('sleeper@people.test'), { woke: true });
  assert.equal(await dataOf('quick@people.test'), { outcome: 'confirmed' });
  assert.equal(await dataOf('slow@people.test'), { outcome: 'timed out' });
});

workflows('re-entry: without allowReentry a contact enters once; with it, once at a time. MANUAL executions take a context', async () => {
  const c = await project();
  const once = await build(c, 'enter', [{ type: 'UPDATE_CONTACT', config: { updates: { entered: true } } }]);
  const again = await build(c, 'enter', [{ type: 'DELAY', config: { amount: 1, unit: 'hours' } }], { allowReentry: true });
  await track(c, 'r@people.test', 'enter');
  await settled(c, once.id, 1, ['COMPLETED']);
  await settled(c, again.id, 1, ['WAITING']);
  await track(c, 'r@people.test', 'enter');
  // the event's triggers have run: whatever executions it was to start exist
  await env.idle();
  assert.is((await executions(c, once.id)).length, 1, 'entered once, ever');
  assert.is((await executions(c, again.id)).length, 1, 'one at a time');
  await env.advance(3_700_000);
  await settled(c, again.id, 1, ['COMPLETED']);
  await track(c, 'r@people.test', 'enter');
  await settled(c, again.id, 2, ['COMPLETED', 'WAITING']);
  // MANUAL
  const template = await c.template('TRANSACTIONAL', '<p>Order {{orderId}} for {{email}}</p>');
  const manual = await build(c, 'never-tracked', [{ type: 'SEND_EMAIL', config: { templateId: template } }]);
  const contact = (await d.request('POST', '/contacts', { email: 'manual@people.test' }, c.key)).body;
  const started = await d.request('POST', `/workflows/${manual.id}/executions`, { contactId: contact.id, context: { orderId: 'A-77' } }, c.key);
  assert.is(started.status, 201, JSON.stringify(started.body));
  assert.equal(started.body.context, { orderId: 'A-77' });
  assert.is(started.body.triggerEvent, null);
  const message = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes('manual@people.test')), 8000, 'manual mail');
  assert.match(String((await simpleParser(message.raw)).html), 'Order A-77 for manual@people.test');
  assert.is((await d.request('POST', `/workflows/${manual.id}/executions`, { contactId: contact.id }, c.key)).status, 409, 'no re-entry');
  assert.is((await d.request('POST', `/workflows/${manual.id}/executions`, { email: 'nobody@people.test' }, c.key)).status, 400);
});

workflows('SEND_EMAIL: marketing content skips unsubscribed and suppressed contacts; a CUSTOM recipient gets the contact\'s variables', async () => {
  const c = await project();
  const marketing = await c.template('MARKETING', '<p>News for {{email}}</p>');
  const notify = await c.template('TRANSACTIONAL', '<p>{{email}} signed up with plan {{plan}}</p>');
  const w = await build(c, 'joined', [
    { type: 'SEND_EMAIL', config: { templateId: marketing } },
    { type: 'SEND_EMAIL', config: { templateId: notify, recipient: { type: 'CUSTOM', customEmail: 'sales+{{plan}}@people.test' } } },
  ]);
  await d.request('POST', '/contacts', { email: 'optout@people.test', subscribed: false, data: { plan: 'team' } }, c.key);
  await track(c, 'optout@people.test', 'joined', {});
  const [run] = await settled(c, w.id, 1, ['COMPLETED']);
  const detail = await execution(c, w.id, run.id);
  assert.equal(detail.steps[1].output, { skipped: 'unsubscribed', to: 'optout@people.test' });
  const message = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes('sales+team@people.test')), 8000, 'custom recipient');
  assert.match(String((await simpleParser(message.raw)).html), 'optout@people.test signed up with plan team');
  assert.is(env.sink.messages.filter((m) => m.rcptTo.includes('optout@people.test')).length, 0);
  // the template a step sends cannot be deleted; the trigger event name reports the workflow
  assert.is((await d.request('DELETE', `/templates/${notify}`, undefined, c.key)).status, 409);
  const usage = await d.request('GET', `/templates/${notify}/usage`, undefined, c.key);
  assert.equal(usage.body.workflowSteps.map((s: { workflowId: string }) => s.workflowId), [w.id]);
  assert.ok((await d.request('GET', '/events/joined/usage', undefined, c.key)).body.workflows.some((x: { id: string }) => x.id === w.id));
});

workflows('executions: list by status, get with every step, cancel one (409 once ended), cancel all; delete only without active ones; splice', async () => {
  const c = await project();
  const w = await build(c, 'long', [{ type: 'DELAY', config: { amount: 1, unit: 'days' } }, { type: 'EXIT' }]);
  for (const who of ['a', 'b', 'c']) await track(c, `${who}@people.test`, 'long');
  const [first] = await settled(c, w.id, 3, ['WAITING']);
  assert.is((await d.request('DELETE', `/workflows/${w.id}`, undefined, c.key)).status, 409);
  const cancelled = await d.request('DELETE', `/workflows/${w.id}/executions/${first.id}`, undefined, c.key);
  assert.is(cancelled.body.status, 'CANCELLED');
  assert.is((await d.request('DELETE', `/workflows/${w.id}/executions/${first.id}`, undefined, c.key)).status, 409);
  const waiting = await d.request('GET', `/workflows/${w.id}/executions?status=WAITING`, undefined, c.key);
  assert.equal([waiting.body.total, waiting.body.page, waiting.body.pageSize, waiting.body.totalPages], [2, 1, 20, 1]);
  assert.is((await d.request('GET', `/workflows/${w.id}/executions?status=NAPPING`, undefined, c.key)).status, 400);
  assert.equal((await d.request('POST', `/workflows/${w.id}/executions/cancel-all`, {}, c.key)).body, { cancelled: 2 });
  await env.advance(2 * 86_400_000);
  // their delays came due with the clock: whatever was to run of them has run
  await env.idle();
  assert.ok((await executions(c, w.id)).every((e) => e.status === 'CANCELLED'), 'cancelled executions do not wake up');
  // splice: deleting the DELAY reconnects the trigger to the EXIT
  const graph = (await d.request('GET', `/workflows/${w.id}`, undefined, c.key)).body;
  assert.is((await d.request('DELETE', `/workflows/${w.id}/steps/${w.steps[1]}?splice=true`, undefined, c.key)).status, 204);
  const after = (await d.request('GET', `/workflows/${w.id}`, undefined, c.key)).body;
  assert.equal(after.transitions.map((t: { fromStepId: string; toStepId: string }) => [t.fromStepId, t.toStepId]), [[trigger(graph), w.steps[2]]]);
  assert.is((await d.request('DELETE', `/workflows/${w.id}`, undefined, c.key)).status, 204);
  assert.is((await d.request('GET', `/workflows/${w.id}`, undefined, c.key)).status, 404);
});

workflows('a campaign whose emails started executions cannot be deleted while they are active (409), then can', async () => {
  const c = await project();
  const w = await build(c, 'email.delivery', [{ type: 'DELAY', config: { amount: 1, unit: 'days' } }]);
  assert.is((await d.request('POST', '/contacts', { email: 'reader@people.test' }, c.key)).status, 201);
  const created = await d.request('POST', '/campaigns', { name: 'News', subject: 'News', body: '<p>News</p>', from: `editor@${c.domain}`, audienceType: 'ALL' }, c.key);
  const id = created.body.data.id as string;
  assert.is((await d.request('POST', `/campaigns/${id}/send`, {}, c.key)).status, 200);
  await settled(c, w.id, 1, ['WAITING']);
  await eventually(async () => (await d.request('GET', `/campaigns/${id}`, undefined, c.key)).body.status === 'SENT', 10_000, 'campaign SENT');
  const refused = await d.request('DELETE', `/campaigns/${id}`, undefined, c.key);
  assert.is(refused.status, 409);
  assert.is(refused.body.error.details.activeExecutions, 1);
  assert.match(refused.body.error.message, /1 workflow execution started by this campaign is active/);
  assert.equal((await d.request('POST', `/workflows/${w.id}/executions/cancel-all`, {}, c.key)).body, { cancelled: 1 });
  assert.is((await d.request('DELETE', `/campaigns/${id}`, undefined, c.key)).status, 204);
});

workflows('internal events start workflows too: contact.unsubscribed, email.delivery, segment.<slug>.entry', async () => {
  const c = await project();
  const onUnsub = await build(c, 'contact.unsubscribed', [{ type: 'UPDATE_CONTACT', config: { updates: { left: true } } }]);
  const onDelivery = await build(c, 'email.delivery', [{ type: 'UPDATE_CONTACT', config: { updates: { reached: true } } }]);
  const segment = await d.request('POST', '/segments', { name: 'Big Spenders', trackMembership: true, condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.spend', operator: 'greaterThan', value: 100 }] }] } }, c.key);
  assert.is(segment.status, 201, JSON.stringify(segment.body));
  const onEntry = await build(c, 'segment.big-spenders.entry', [{ type: 'UPDATE_CONTACT', config: { updates: { vip: true } } }]);
  const contact = (await d.request('POST', '/contacts', { email: 'events@people.test', data: { spend: 5 } }, c.key)).body;
  await d.request('PATCH', `/contacts/${contact.id}`, { data: { spend: 500 } }, c.key);
  await d.request('PATCH', `/contacts/${contact.id}`, { subscribed: false }, c.key);
  await d.request('POST', '/v1/send', { to: 'events@people.test', from: `bot@${c.domain}`, subject: 's', body: 'b' }, c.key);
  for (const w of [onUnsub, onDelivery, onEntry]) await settled(c, w.id, 1, ['COMPLETED']);
  const data = (await d.request('GET', `/contacts/${contact.id}`, undefined, c.key)).body.data;
  assert.equal(data, { spend: 500, left: true, reached: true, vip: true });
  const started = await execution(c, onEntry.id, (await executions(c, onEntry.id))[0].id);
  assert.equal(started.triggerEvent.data, { segmentId: segment.body.id, segmentName: 'Big Spenders' });
});

workflows('SEND_EMAIL: a CUSTOM recipient with an internationalised domain is sent to, and recorded as, its punycode form', async () => {
  const c = await project();
  env.routeToSink('xn--bcher-kva.test');
  const notify = await c.template('TRANSACTIONAL', '<p>hello</p>');
  const w = await build(c, 'idn.checked', [{ type: 'SEND_EMAIL', config: { templateId: notify, recipient: { type: 'CUSTOM', customEmail: 'ann@bücher.test' } } }]);
  await track(c, 'idn@people.test', 'idn.checked');
  const [run] = await settled(c, w.id, 1, ['COMPLETED']);
  assert.is((await execution(c, w.id, run.id)).steps[1].output.to, 'ann@xn--bcher-kva.test');
  // smtp-server shows the RCPT TO domain decoded back to Unicode
  await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes('ann@bücher.test')), 8000, 'the recipient at the MX of the punycode domain');
});

workflows('a segment a CONDITION step tests cannot be deleted while the workflow has the step (409 naming it)', async () => {
  const c = await project();
  const segment = (await d.request('POST', '/segments', { name: 'Members', type: 'STATIC' }, c.key)).body;
  const w = await build(c, 'member.checked', [
    { type: 'CONDITION', config: { field: 'segment', operator: 'memberOfSegment', value: segment.id } },
    { type: 'EXIT', from: 1, branch: 'yes' },
    { type: 'EXIT', from: 1, branch: 'no' },
  ]);
  const refused = await d.request('DELETE', `/segments/${segment.id}`, undefined, c.key);
  assert.is(refused.status, 409);
  assert.equal(refused.body.error.details.workflows, [{ id: w.id, name: 'flow member.checked' }]);
  assert.is((await d.request('DELETE', `/workflows/${w.id}`, undefined, c.key)).status, 204);
  assert.is((await d.request('DELETE', `/segments/${segment.id}`, undefined, c.key)).status, 204);
});

workflows.run();
