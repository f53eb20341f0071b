import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { GARBAGE_BODIES, ROUTES } from './helpers/routes.js';

let env: MailEnv;
let d: TestDaemon;
let a: Keys;
let b: Keys;
const ids: Record<string, string> = {};

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  a = d.createProject('A');
  b = d.createProject('B');
  const contact = await d.request('POST', '/contacts', { email: 'owned-by-a@iso.test', data: { secret: 'a-only' } }, { key: a.secretKey });
  ids.contactId = contact.body.id;
  ids.projectId = a.id;
  ids.field = 'secret';
  ids.eventName = 'a-only-event';
  await d.request('POST', '/v1/track', { email: 'owned-by-a@iso.test', event: 'a-only-event', data: { secret: 'a-only' } }, { key: a.publicKey });
  ids.domainId = (await env.verifySender('a-only.test', a)).id;
  const template = await d.request('POST', '/templates', { name: 'a-only', subject: 's', body: 'b', from: 'x@a-only.test' }, { key: a.secretKey });
  ids.templateId = template.body.id;
  const campaign = await d.request('POST', '/campaigns', { name: 'a-only', subject: 's', body: 'b', from: 'x@a-only.test', audienceType: 'ALL' }, { key: a.secretKey });
  ids.campaignId = campaign.body.data.id;
  const segment = await d.request('POST', '/segments', { name: 'a-only', type: 'STATIC' }, { key: a.secretKey });
  ids.segmentId = segment.body.id;
  const member = await d.request('POST', '/members', { email: 'a-only-member@iso.test', role: 'ADMIN' }, { key: a.secretKey });
  ids.userId = member.body.member.userId;
  await d.request('POST', `/segments/${ids.segmentId}/members`, { emails: ['owned-by-a@iso.test'] }, { key: a.secretKey });
  const bulk = await d.request('POST', '/contacts/bulk-subscribe', { contactIds: [ids.contactId] }, { key: a.secretKey });
  ids.bulkJobId = bulk.body.jobId;
  const form = new FormData();
  form.append('file', new Blob(['email,secret\nowned-by-a@iso.test,a-only\n'], { type: 'text/csv' }), 'a.csv');
  const upload = await fetch(`${d.url}/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${a.secretKey}` }, body: form });
  ids.importJobId = ((await upload.json()) as { jobId: string }).jobId;
});
test.after(async () => env.close());

const fill = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? 'x');

test('every route answers garbage bodies with a 4xx envelope (or success), never a 500', async () => {
  const victim = d.createProject('garbage');
  const own = await d.request('POST', '/contacts', { email: 'garbage@iso.test' }, { key: victim.secretKey });
  await env.verifySender('garbage.test', victim);
  const campaign = await d.request('POST', '/campaigns', { name: 'g', subject: 's', body: 'b', from: 'x@garbage.test', audienceType: 'ALL' }, { key: victim.secretKey });
  const local: Record<string, string> = {
    contactId: own.body.id,
    projectId: victim.id,
    field: 'x',
    eventName: 'x',
    domainId: 'x',
    templateId: 'x',
    campaignId: campaign.body.data.id,
    segmentId: 'x',
    importJobId: 'x',
    bulkJobId: 'x',
  };
  for (const route of ROUTES.filter((r) => r.method !== 'GET' && !r.path.includes('regenerate'))) {
    for (const raw of GARBAGE_BODIES) {
      const path = route.path.replace(/:(\w+)/g, (_, n: string) => local[n]!);
      const key = route.key === 'public' ? victim.publicKey : victim.secretKey;
      const r = await d.request(route.method, path, undefined, { key, raw });
      assert.ok(r.status < 500, `${route.method} ${path} answered ${r.status} to ${String(raw).slice(0, 60)}`);
      if (r.status >= 400) {
        assert.ok(r.body.success === false || typeof r.body.error === 'string', `${route.method} ${path}: envelope`);
      }
    }
  }
  assert.is(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  const health = await d.request('GET', '/health', undefined, { key: null });
  assert.is(health.status, 200, 'the daemon is still up');
});

test("project B's key never reads or changes project A's rows", async () => {
  const bulkJobsOfB: string[] = [];
  for (const route of ROUTES) {
    const path = fill(route.path);
    const body =
      route.method === 'GET'
        ? undefined
        : { email: 'owned-by-a@iso.test', emails: ['owned-by-a@iso.test'], contactIds: [ids.contactId], subscribed: false, data: { secret: 'b' } };
    const r = await d.request(route.method, path, body, { key: route.key === 'public' ? b.publicKey : b.secretKey });
    const text = JSON.stringify(r.body);
    assert.not.ok(text.includes(ids.contactId!), `${route.method} ${path} leaked A's contact id`);
    assert.not.ok(text.includes('a-only'), `${route.method} ${path} leaked A's data`);
    if (route.path.startsWith('/contacts/bulk-') && r.status === 202) bulkJobsOfB.push(r.body.jobId);
  }
  // B's bulk jobs named A's contact: they end with it not found, and A's contact is untouched
  for (const jobId of bulkJobsOfB) {
    const job = await eventually(async () => {
      const r = await d.request('GET', `/contacts/bulk/${jobId}`, undefined, { key: b.secretKey });
      return r.body.state === 'completed' ? r.body : null;
    }, 8000, `bulk job ${jobId} completed`);
    assert.is(job.result.failed, 1);
    assert.not.ok(JSON.stringify(job).includes('a-only'));
  }
  const still = await d.request('GET', `/contacts/${ids.contactId}`, undefined, { key: a.secretKey });
  assert.is(still.status, 200);
  assert.equal(still.body.data, { secret: 'a-only' });
  assert.is(still.body.subscribed, true);
  assert.is((await d.request('GET', `/contacts/${ids.contactId}`, undefined, { key: b.secretKey })).status, 404);
  const fieldsOfB = await d.request('GET', '/contacts/fields', undefined, { key: b.secretKey });
  assert.not.ok(fieldsOfB.body.fields.some((f: { field: string }) => f.field === 'data.secret'));
  const eventsOfA = await d.request('GET', '/events?name=a-only-event', undefined, { key: a.secretKey });
  assert.is(eventsOfA.body.data.length, 1, "B's DELETE /events/{name} left A's events alone");
  const domainsOfA = await d.request('GET', `/domains/project/${a.id}`, undefined, { key: a.secretKey });
  assert.ok(JSON.stringify(domainsOfA.body).includes('a-only.test'), "B's DELETE /domains/{id} left A's domain alone");
  // A's key still works: B's call to A's regenerate-keys was refused.
  assert.is((await d.request('GET', '/contacts', undefined, { key: a.secretKey })).status, 200);
});

test('kill -9 loses nothing that was answered 2xx', async () => {
  const p = d.createProject('crash');
  const writes = await Promise.all(
    Array.from({ length: 50 }, (_, i) => d.request('POST', '/contacts', { email: `c${i}@crash.test`, data: { i } }, { key: p.secretKey })),
  );
  assert.ok(writes.every((w) => w.status === 201));
  await d.kill();
  await d.restart();
  const list = await d.request('GET', '/contacts?limit=100', undefined, { key: p.secretKey });
  assert.is(list.body.total, 50);
});

test.run();
