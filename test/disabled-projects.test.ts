import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROUTES, type RouteSpec } from './helpers/routes.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

// A disabled project reads (including reads sent as POST) and never writes (including writes
// behind a GET): every route of the API, judged by what it does rather than by its method.

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv();
});
test.after(async () => env.close());

const writes = (route: RouteSpec) => (route.access ? route.access === 'write' : route.method !== 'GET');

test('every route: reads answer for a disabled project, writes are 403 PROJECT_DISABLED and change nothing', async () => {
  const d = env.daemon;
  const p = d.createProject('to-disable');
  const contact = await d.request('POST', '/contacts', { email: 'kept@rcpt.test', data: { plan: 'pro' } }, { key: p.secretKey });
  const domain = await d.request('POST', '/domains', { domain: 'disabled.test' }, { key: p.secretKey });
  const ids: Record<string, string> = { contactId: contact.body.id, projectId: p.id, field: 'plan', eventName: 'x', domainId: domain.body.id, templateId: 'x' };
  d.cli('project', 'disable', p.id);
  const body = { email: 'kept@rcpt.test', emails: ['kept@rcpt.test'], event: 'x', domain: 'other.test', subscribed: false, data: { plan: 'free' } };
  for (const route of ROUTES) {
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => ids[name]!);
    const key = route.key === 'public' ? p.publicKey : p.secretKey;
    const r = await d.request(route.method, path, route.method === 'GET' ? undefined : body, { key });
    if (writes(route)) {
      assert.is(r.status, 403, `${route.method} ${route.path} writes: ${r.status}`);
      assert.is(r.body.error.code, 'PROJECT_DISABLED');
    } else {
      assert.is.not(r.status, 403, `${route.method} ${route.path} reads`);
    }
  }
  const lookup = await d.request('POST', '/contacts/lookup', { emails: ['kept@rcpt.test', 'nobody@rcpt.test'] }, { key: p.secretKey });
  assert.is(lookup.status, 200);
  assert.equal(lookup.body, { found: [{ id: contact.body.id, email: 'kept@rcpt.test', subscribed: true }], notFound: ['nobody@rcpt.test'] });
  const listed = await d.request('GET', `/domains/project/${p.id}`, undefined, { key: p.secretKey });
  assert.is(listed.body.data[0].lastCheckedAt, null, 'the refused verify stored no check');
  const kept = await d.request('GET', `/contacts/${contact.body.id}`, undefined, { key: p.secretKey });
  assert.equal(kept.body.data, { plan: 'pro' });

  d.cli('project', 'enable', p.id);
  const verify = await d.request('GET', `/domains/${domain.body.id}/verify`, undefined, { key: p.secretKey });
  assert.is(verify.status, 200, 'enabled again, verify works');
  assert.ok(verify.body.lastCheckedAt !== null);
});

test.run();
