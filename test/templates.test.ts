import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { assemble } from '../src/assembly.js';
import { registerDomain } from '../src/domains/service.js';
import { saveCheck } from '../src/domains/store.js';
import { ApiError } from '../src/errors.js';
import type { Logger } from '../src/log.js';
import { createProject } from '../src/projects/service.js';
import { openStore } from '../src/store/db.js';
import { createTemplate, deleteTemplate, usageOfTemplate } from '../src/templates/service.js';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { GARBAGE_BODIES } from './helpers/routes.js';

let env: MailEnv;
let d: TestDaemon;
let other: Keys;

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  other = d.createProject('other');
  env.routeToSink('rcpt.test');
  await env.verifySender('tpl.test');
});
test.after(async () => env.close());

const valid = (over: Record<string, unknown> = {}) => ({ name: 'Welcome', subject: 'Hi {{name}}', body: '<p>Hello {{name}}</p>', from: 'hello@tpl.test', ...over });
const create = (body: unknown, key = d.project.secretKey) => d.request('POST', '/templates', body, { key });

const TEMPLATE_FIELDS = ['body', 'createdAt', 'description', 'from', 'fromName', 'id', 'name', 'projectId', 'replyTo', 'subject', 'type', 'updatedAt'];

test('POST /templates: 201 with exactly the Template fields, type MARKETING by default', async () => {
  const r = await create(valid());
  assert.is(r.status, 201);
  assert.equal(Object.keys(r.body).sort(), TEMPLATE_FIELDS);
  assert.is(r.body.type, 'MARKETING');
  assert.is(r.body.description, null);
  assert.is(r.body.fromName, null);
  assert.is(r.body.replyTo, null);
  assert.is(r.body.projectId, d.project.id);
  assert.is(r.body.subject, 'Hi {{name}}');
  assert.is(r.body.createdAt, r.body.updatedAt);
  const full = await create(valid({ description: 'note', fromName: 'Tpl Team', replyTo: 'help@elsewhere.test', type: 'TRANSACTIONAL' }));
  assert.is(full.status, 201);
  assert.is(full.body.type, 'TRANSACTIONAL');
  assert.is(full.body.fromName, 'Tpl Team');
  assert.is(full.body.replyTo, 'help@elsewhere.test', 'reply-to needs no verified domain');
});

test('POST /templates: flat 400 for missing name, subject, body or from; 422 for wrong values', async () => {
  for (const field of ['name', 'subject', 'body', 'from']) {
    const body: Record<string, unknown> = valid();
    delete body[field];
    const r = await create(body);
    assert.is(r.status, 400, field);
    assert.equal(r.body, { error: `${field} is required` });
  }
  const none = await create(undefined);
  assert.is(none.status, 400);
  assert.equal(none.body, { error: 'name, subject, body, from are required' });
  const bad = await create(valid({ from: 'not-an-email', type: 'NEWSLETTER', subject: 'two\nlines', name: '', replyTo: 5 }));
  assert.is(bad.status, 422);
  assert.is(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal(bad.body.error.errors.map((e: { field: string }) => e.field).sort(), ['from', 'name', 'replyTo', 'subject', 'type']);
  for (const raw of ['[]', '"x"', 'null', '7']) {
    assert.is((await d.request('POST', '/templates', undefined, { raw })).status, 422, `a body that is not an object: ${raw}`);
  }
  const wrong: [Record<string, unknown>, string, string][] = [
    [{ name: 5 }, 'name', 'invalid_type'],
    [{ subject: ['s'] }, 'subject', 'invalid_type'],
    [{ body: {} }, 'body', 'invalid_type'],
    [{ from: null }, 'from', 'invalid_type'],
    [{ description: 7 }, 'description', 'invalid_type'],
    [{ fromName: true }, 'fromName', 'invalid_type'],
    [{ type: 'marketing' }, 'type', 'invalid_enum_value'],
    [{ from: 'hello at tpl.test' }, 'from', 'invalid_string'],
    [{ from: 'hello@' }, 'from', 'invalid_string'],
    [{ replyTo: 'help@@tpl.test' }, 'replyTo', 'invalid_string'],
    [{ subject: 'x'.repeat(999) }, 'subject', 'too_big'],
  ];
  for (const [over, field, code] of wrong) {
    const r = await create(valid(over));
    assert.is(r.status, 422, JSON.stringify(over));
    assert.equal(r.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [[field, code]], JSON.stringify(over));
  }
});

test('assertSender through templates: 403 INTERNAL_SERVER_ERROR unless a verified domain covers the sender', async () => {
  const unregistered = await create(valid({ from: 'a@nowhere.test' }));
  assert.is(unregistered.status, 403);
  assert.is(unregistered.body.error.code, 'INTERNAL_SERVER_ERROR');
  assert.match(unregistered.body.error.message, /nowhere\.test is not registered to this project/);
  assert.match(unregistered.body.error.suggestion, /POST \/domains/);

  const pending = await d.request('POST', '/domains', { domain: 'pending.test' });
  const notYet = await create(valid({ from: 'a@pending.test' }));
  assert.is(notYet.status, 403);
  assert.is(notYet.body.error.code, 'INTERNAL_SERVER_ERROR');
  assert.match(notYet.body.error.message, /pending\.test is not verified/);
  assert.ok(notYet.body.error.suggestion.includes(`/domains/${pending.body.id}/verify`));

  assert.is((await create(valid({ from: 'a@news.tpl.test' }))).status, 201, 'a subdomain of a verified domain');
  assert.is((await create(valid({ from: 'a@deep.er.tpl.test' }))).status, 201, 'any depth');
  assert.is((await create(valid({ from: 'A@TPL.TEST' }))).status, 201, 'case-insensitive');

  await d.request('POST', '/domains', { domain: 'pending.tpl.test' });
  assert.is((await create(valid({ from: 'a@pending.tpl.test' }))).status, 201, 'a verified parent covers a pending registered subdomain');

  await env.verifySender('sender.test');
  assert.is((await create(valid({ from: 'news@mail.sender.test' }))).status, 201, 'news@mail.sender.test under sender.test');

  await env.verifySender('mail.parent.test');
  assert.is((await create(valid({ from: 'a@mail.parent.test' }))).status, 201);
  assert.is((await create(valid({ from: 'a@parent.test' }))).status, 403, 'a verified subdomain does not cover its parent');
  assert.is((await create(valid({ from: 'a@xtpl.test' }))).status, 403, 'suffix matching is by label');

  assert.is((await create(valid(), other.secretKey)).status, 403, "another project's verified domain does not count");
});

test('GET, PATCH (sender re-checked), DELETE 204', async () => {
  const created = (await create(valid({ description: 'd' }))).body;
  const got = await d.request('GET', `/templates/${created.id}`);
  assert.equal(got.body, created);

  await env.advance(1000); // a later updatedAt
  const patched = await d.request('PATCH', `/templates/${created.id}`, { name: 'Renamed', description: null, fromName: 'Team', type: 'HEADLESS', from: 'x@news.tpl.test' });
  assert.is(patched.status, 200);
  assert.is(patched.body.name, 'Renamed');
  assert.is(patched.body.description, null);
  assert.is(patched.body.fromName, 'Team');
  assert.is(patched.body.type, 'HEADLESS');
  assert.is(patched.body.from, 'x@news.tpl.test');
  assert.is(patched.body.subject, created.subject, 'absent fields are kept');
  assert.is(patched.body.createdAt, created.createdAt);
  assert.ok(patched.body.updatedAt > created.updatedAt);

  const refused = await d.request('PATCH', `/templates/${created.id}`, { from: 'x@nowhere.test' });
  assert.is(refused.status, 403);
  assert.is(refused.body.error.code, 'INTERNAL_SERVER_ERROR');
  assert.is((await d.request('GET', `/templates/${created.id}`)).body.from, 'x@news.tpl.test', 'nothing changed');

  const invalid = await d.request('PATCH', `/templates/${created.id}`, { name: null, body: '' });
  assert.is(invalid.status, 422);
  assert.equal(invalid.body.error.errors.map((e: { field: string }) => e.field).sort(), ['body', 'name']);
  assert.is((await d.request('PATCH', `/templates/${created.id}`)).status, 200, 'an empty patch changes nothing');

  const del = await d.request('DELETE', `/templates/${created.id}`);
  assert.is(del.status, 204);
  assert.is(del.body, '');
  for (const [method, path] of [
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['POST', '/duplicate'],
    ['GET', '/usage'],
  ] as const) {
    assert.is((await d.request(method, `/templates/${created.id}${path}`, method === 'PATCH' ? {} : undefined)).status, 404, `${method} ${path}`);
  }
});

test('a send takes the template as it is now: a PATCH or DELETE between two sends changes the second', async () => {
  const created = (await create(valid({ subject: 'First {{name}}', type: 'TRANSACTIONAL' }))).body;
  const send = () => d.request('POST', '/v1/send', { to: 'tess@rcpt.test', template: created.id, data: { name: 'Tess' } });
  const subjectOf = async (reply: { body: { data: { emails: { email: string }[] } } }) => {
    const emailId = reply.body.data.emails[0]!.email;
    const mail = await eventually(async () => env.sink.messages.find((m) => m.raw.includes(emailId)), 8000, 'the message at the sink');
    return /^Subject: (.*)$/m.exec(mail.raw.toString())?.[1];
  };
  assert.is(await subjectOf(await send()), 'First Tess');
  assert.is((await d.request('PATCH', `/templates/${created.id}`, { subject: 'Second {{name}}' })).status, 200);
  assert.is(await subjectOf(await send()), 'Second Tess');
  assert.is((await d.request('DELETE', `/templates/${created.id}`)).status, 204);
  const gone = await send();
  assert.is(gone.status, 404);
  assert.is(gone.body.error.code, 'TEMPLATE_NOT_FOUND');
});

test('PATCH after the sender domain lost its verification: other fields patch freely, a new address there is 403', async () => {
  const domain = await env.verifySender('lost.test');
  const created = (await create(valid({ from: 'hello@lost.test' }))).body;
  for (const record of domain.records) env.dns.clear(record.name);
  assert.is((await d.request('GET', `/domains/${domain.id}/verify`)).body.status, 'pending');

  const renamed = await d.request('PATCH', `/templates/${created.id}`, { name: 'Still editable', subject: 'New subject', from: 'HELLO@LOST.TEST' });
  assert.is(renamed.status, 200, 'the same sender in another case is no change of sender');
  assert.is(renamed.body.name, 'Still editable');
  const moved = await d.request('PATCH', `/templates/${created.id}`, { from: 'other@lost.test' });
  assert.is(moved.status, 403);
  assert.is(moved.body.error.code, 'INTERNAL_SERVER_ERROR');
  assert.match(moved.body.error.message, /lost\.test is not verified/);
  const back = await d.request('PATCH', `/templates/${created.id}`, { from: 'team@tpl.test' });
  assert.is(back.status, 200, 'a verified sender is accepted');
  assert.is(back.body.from, 'team@tpl.test');
});

test('duplicate: 201 {id} of a copy named "NAME (Copy)"; usage lists references and counts sent emails', async () => {
  const original = (await create(valid({ name: 'Receipt', description: 'orders', type: 'TRANSACTIONAL' }))).body;
  const dup = await d.request('POST', `/templates/${original.id}/duplicate`);
  assert.is(dup.status, 201);
  assert.equal(Object.keys(dup.body), ['id']);
  assert.is.not(dup.body.id, original.id);
  const copy = (await d.request('GET', `/templates/${dup.body.id}`)).body;
  assert.is(copy.name, 'Receipt (Copy)');
  for (const field of ['description', 'subject', 'body', 'from', 'fromName', 'replyTo', 'type', 'projectId']) assert.equal(copy[field], original[field], field);
  assert.ok(copy.createdAt >= original.createdAt);

  const longest = (await create(valid({ name: 'é'.repeat(199) + '😀' }))).body;
  const longCopy = await d.request('POST', `/templates/${longest.id}/duplicate`);
  const longName = (await d.request('GET', `/templates/${longCopy.body.id}`)).body.name as string;
  assert.is(longName, 'é'.repeat(193) + ' (Copy)', 'shortened to stay within the 200 characters of a name');
  assert.is((await d.request('PATCH', `/templates/${longCopy.body.id}`, { name: longName })).status, 200, 'the copy round-trips through PATCH');

  const usage = await d.request('GET', `/templates/${original.id}/usage`);
  assert.is(usage.status, 200);
  assert.equal(usage.body, { campaigns: [], workflowSteps: [], emailsSent: 0 });
  const before = env.sink.messages.length;
  const sent = await d.request('POST', '/v1/send', { to: 'reader@rcpt.test', template: original.id, data: { name: 'Ann' } });
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  assert.is((await d.request('GET', `/templates/${original.id}/usage`)).body.emailsSent, 1, 'the emails resource plugs its count in');
  assert.is((await d.request('GET', `/templates/${dup.body.id}/usage`)).body.emailsSent, 0);
  const arrived = (await env.sink.waitFor(before + 1, 8000))[before];
  assert.equal(arrived!.rcptTo, ['reader@rcpt.test']);
  assert.match(arrived!.raw.toString('latin1'), /^Subject: Hi Ann\r$/m);
  await d.request('POST', '/v1/send', { to: ['a@rcpt.test', 'b@rcpt.test'], template: original.id });
  assert.is((await d.request('GET', `/templates/${original.id}/usage`)).body.emailsSent, 3, 'one per recipient');
});

test('GET /templates: offset pages, type filter, search on name/description/subject, sort and dir', async () => {
  const p = d.createProject('list');
  const key = p.secretKey;
  await env.verifySender('list.test', p);
  const specs = [
    { name: 'bravo', subject: 'Weekly digest', type: 'MARKETING' },
    { name: 'Alpha', subject: 'Reset your password', type: 'TRANSACTIONAL' },
    { name: 'charlie', subject: 'Hello', description: 'Été special', type: 'MARKETING' },
    { name: 'delta', subject: 'Invoice ready', type: 'TRANSACTIONAL' },
    { name: 'Echo', subject: 'Raw', type: 'HEADLESS' },
  ];
  const ids: string[] = [];
  for (const spec of specs) {
    ids.push((await create(valid({ ...spec, from: 'team@list.test' }), key)).body.id);
    await env.advance(1000); // distinct createdAt
  }
  const get = async (query: string) => (await d.request('GET', `/templates${query}`, undefined, { key })).body;
  const names = (page: { data: { name: string }[] }) => page.data.map((t) => t.name);

  const first = await get('?pageSize=2');
  assert.equal(names(first), ['Echo', 'delta'], 'newest first by default');
  assert.is(first.total, 5);
  assert.is(first.page, 1);
  assert.is(first.pageSize, 2);
  assert.is(first.totalPages, 3);
  assert.equal(Object.keys(first.data[0]).sort(), TEMPLATE_FIELDS);
  assert.equal(names(await get('?pageSize=2&page=3')), ['bravo']);
  assert.equal(names(await get('?pageSize=2&page=9')), []);
  assert.is((await get('?pageSize=1000')).pageSize, 100, 'pageSize clamped');
  assert.is((await get('?page=-3&pageSize=abc')).page, 1);

  assert.equal(names(await get('?sort=name&dir=asc')), ['Alpha', 'bravo', 'charlie', 'delta', 'Echo'], 'names sort ignoring case');
  assert.equal(names(await get('?sort=name&dir=desc')), ['Echo', 'delta', 'charlie', 'bravo', 'Alpha']);
  assert.equal(names(await get('?sort=createdAt&dir=asc')), ['bravo', 'Alpha', 'charlie', 'delta', 'Echo']);
  assert.equal(names(await get('?sort=bogus&dir=sideways')), ['Echo', 'delta', 'charlie', 'Alpha', 'bravo'], 'unknown sort and dir fall back');
  await d.request('PATCH', `/templates/${ids[1]}`, { subject: 'Reset your password now' }, { key });
  assert.equal(names(await get('?sort=updatedAt&dir=desc&pageSize=1')), ['Alpha']);

  assert.equal(names(await get('?type=TRANSACTIONAL&sort=name&dir=asc')), ['Alpha', 'delta']);
  assert.is((await get('?type=HEADLESS')).total, 1);
  assert.is((await get('?type=transactional')).total, 2, 'type is matched ignoring case');
  const badType = await d.request('GET', '/templates?type=NEWS', undefined, { key });
  assert.is(badType.status, 400);
  assert.match(badType.body.error.suggestion, /TRANSACTIONAL, MARKETING, HEADLESS/);

  assert.equal(names(await get('?search=ALPH')), ['Alpha'], 'name');
  assert.equal(names(await get('?search=PASSWORD')), ['Alpha'], 'subject');
  assert.equal(names(await get('?search=été')), ['charlie'], 'description, non-ASCII case folded');
  assert.equal(names(await get('?search=ÉTÉ')), ['charlie']);
  assert.equal(names(await get('?search=e&type=MARKETING&sort=name&dir=asc')), ['bravo', 'charlie']);
  assert.is((await get('?search=%25')).total, 0, 'no LIKE wildcards');
  assert.is((await get(`?search=${encodeURIComponent('charlieété')}`)).total, 0, 'no match across fields');

  const theirs = (await d.request('GET', '/templates?pageSize=100')).body;
  assert.not.ok(theirs.data.some((t: { id: string }) => ids.includes(t.id)), "another project's templates are not listed");
});

test("another project's template is 404 on every route", async () => {
  const mine = (await create(valid())).body;
  const key = { key: other.secretKey };
  assert.is((await d.request('GET', `/templates/${mine.id}`, undefined, key)).status, 404);
  assert.is((await d.request('PATCH', `/templates/${mine.id}`, { name: 'x' }, key)).status, 404);
  assert.is((await d.request('DELETE', `/templates/${mine.id}`, undefined, key)).status, 404);
  assert.is((await d.request('POST', `/templates/${mine.id}/duplicate`, undefined, key)).status, 404);
  assert.is((await d.request('GET', `/templates/${mine.id}/usage`, undefined, key)).status, 404);
  assert.is((await d.request('GET', `/templates/${mine.id}`)).body.name, 'Welcome', 'untouched');
  assert.is((await d.request('POST', '/v1/send', { to: 'x@rcpt.test', template: mine.id }, key)).status, 404, 'nor sendable by it');

  const forged = await create(valid({ id: mine.id, projectId: other.id, createdAt: '2000-01-01T00:00:00.000Z' }));
  assert.is(forged.status, 201);
  assert.is.not(forged.body.id, mine.id, 'ids, projects and times come from the server');
  assert.is(forged.body.projectId, d.project.id);
  assert.is.not(forged.body.createdAt, '2000-01-01T00:00:00.000Z');
  const moved = await d.request('PATCH', `/templates/${forged.body.id}`, { projectId: other.id, id: mine.id });
  assert.is(moved.body.projectId, d.project.id);
  assert.is(moved.body.id, forged.body.id);
});

test('garbage bodies and ids never answer 500', async () => {
  const id = (await create(valid())).body.id;
  for (const path of ['/templates', `/templates/${id}`, `/templates/${id}/duplicate`, '/templates/%00%ff']) {
    for (const method of ['POST', 'PATCH'] as const) {
      for (const raw of GARBAGE_BODIES) {
        const r = await d.request(method, path, undefined, { raw });
        assert.ok(r.status < 500, `${method} ${path} answered ${r.status} to ${String(raw).slice(0, 60)}`);
      }
    }
  }
  for (const query of ['?page[]=1', '?sort[]=name', '?type=MARKETING&type=HEADLESS', '?search[x]=1', `?search=${'%ff'.repeat(50)}`]) {
    assert.ok((await d.request('GET', `/templates${query}`)).status < 500, query);
  }
});

test('DELETE is 409 while a workflow step uses the template (usage registry, in process)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-templates-'));
  const log: Logger = { debug() {}, info() {}, warn() {}, error() {} };
  const clock = new ShiftableClock();
  const db = openStore(dir);
  const parts = assemble({ db, clock, config: loadConfig(null, {}), log });
  const { core: ctx, usage } = parts;
  try {
    const project = createProject(db, clock, 'unit');
    const domain = await registerDomain(ctx, project.id, 'unit.test');
    saveCheck(db, domain.id, { status: 'verified', checks: { dkim: true }, failureReason: null, lastCheckedAt: clock.now() });
    const input = { name: 'n', subject: 's', body: 'b', from: 'a@unit.test' };
    const used = createTemplate(ctx, project.id, input);
    const free = createTemplate(ctx, project.id, input);
    const step = { workflowId: 'w1', stepId: 's1' };
    usage.templates.register((_ctx, projectId, templateId) => (projectId === project.id && templateId === used.id ? { workflowSteps: [step] } : {}));
    assert.equal(await usageOfTemplate(ctx, usage, project.id, used.id), { campaigns: [], workflowSteps: [step], emailsSent: 0 });
    try {
      deleteTemplate(ctx, usage, project.id, used.id);
      assert.unreachable('delete should be refused');
    } catch (err) {
      assert.instance(err, ApiError);
      assert.is((err as ApiError).status, 409);
      assert.equal((err as ApiError).extra.details, { workflowSteps: [step] });
    }
    deleteTemplate(ctx, usage, project.id, free.id);
    assert.is(db.prepare('SELECT COUNT(*) AS n FROM templates').pluck().get(), 1);
  } finally {
    await parts.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
