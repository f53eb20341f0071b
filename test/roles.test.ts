// The role matrix on every route: each route of the OpenAPI document (which test/openapi.test.ts
// holds to every mounted route) that takes a console session states its least role; this table says
// what that role must be, and every route is called as MEMBER, ADMIN and OWNER (and with the secret
// key, which has every right) to see the server refuse exactly what the role does not allow. Then
// the credentials: every way a role obtains a key (regenerate-keys, by a session, a key or the admin
// token), a link (the invitation email in the log) or a session (the invitation link), walked or
// checked against the power of the role that obtained it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { as, cookieOf, makeUser, signIn, tokenOf, type Session } from './helpers/console-session.js';
import { startTestDaemon, type RequestOptions, type TestDaemon } from './helpers/daemon.js';
import { ADMIN } from './helpers/test-hooks.js';

type Role = 'OWNER' | 'ADMIN' | 'MEMBER';
const RANK: Record<Role, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };

/**
 * The least role of each route, by method and path. OWNER: members (and, when it lands, deleting
 * the project). ADMIN: keys, sender domains, settings. MEMBER: the everyday work. A route that no
 * line matches fails the test: a new route needs its line here, so none is MEMBER by accident.
 */
const MATRIX: [method: RegExp, path: RegExp, role: Role][] = [
  [/.*/, /^\/members(\/|$)/, 'OWNER'],
  [/.*/, /^\/domains(\/|$)/, 'ADMIN'],
  [/^POST$/, /^\/users\/@me\/projects\/\{id\}\/regenerate-keys$/, 'ADMIN'],
  [/.*/, /^\/settings(\/|$)/, 'ADMIN'],
  // a campaign's analytics and the comparison read what its counters say: the everyday work
  [/^GET$/, /^\/campaigns\/(\{id\}\/analytics|compare)$/, 'MEMBER'],
  [/.*/, /^\/(contacts|templates|campaigns|segments|workflows|events|activity)(\/|$)/, 'MEMBER'],
  // the media library is part of writing emails: as templates
  [/.*/, /^\/media(\/|$)/, 'MEMBER'],
  [/^POST$/, /^\/v1\/(send|verify)$/, 'MEMBER'],
  [/^GET$/, /^\/stats\/(daily|overview)$/, 'MEMBER'],
  [/^GET$/, /^\/suppressions(\/removals)?$/, 'MEMBER'],
  [/^DELETE$/, /^\/suppressions\/\{email\}$/, 'ADMIN'],
  [/^GET$/, /^\/emails(\/\{id\})?$/, 'MEMBER'],
  // the message as sent carries every link of the email
  [/^GET$/, /^\/emails\/\{id\}\/(raw|checks)$/, 'ADMIN'],
];

const expectedRole = (method: string, path: string): Role | null => MATRIX.find(([m, p]) => m.test(method) && p.test(path))?.[2] ?? null;

interface SessionRoute {
  method: string;
  path: string;
  role: Role;
}

let d: TestDaemon;
let routes: SessionRoute[];
const sessions = {} as Record<Role, Session>;

test.before(async () => {
  // capture mode: a sender domain is marked verified without DNS, and the invitation email is kept here
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, adminToken: ADMIN, delivery: { mode: 'capture' } } });
  const doc = (await (await fetch(`${d.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { security: Record<string, string[]>[]; 'x-postmill-role'?: Role }>> };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) => {
      const session = op.security.find((s) => 'session' in s);
      // /auth/* take a session in no project, with no role
      if (!session || session.session!.length === 0) return [];
      assert.is(op['x-postmill-role'], session.session![0], `${method} ${path}: x-postmill-role and the security requirement agree`);
      assert.ok(op.security.some((s) => 'secretKey' in s), `${method} ${path}: a session route takes the secret key too`);
      return [{ method: method.toUpperCase(), path, role: session.session![0] as Role }];
    }),
  );
  for (const role of ['OWNER', 'ADMIN', 'MEMBER'] as Role[]) {
    makeUser(d, `${role.toLowerCase()}@example.test`, { id: d.project.id, role });
    sessions[role] = await signIn(d, `${role.toLowerCase()}@example.test`);
  }
});
test.after(() => d.dispose());

test('every route that takes a session states the role the table gives it', () => {
  assert.ok(routes.length > 70, `found only ${routes.length} session routes`);
  const wrong = routes.filter((r) => expectedRole(r.method, r.path) !== r.role).map((r) => `${r.method} ${r.path}: ${r.role}, the table says ${expectedRole(r.method, r.path) ?? 'nothing (add a line)'}`);
  assert.equal(wrong, []);
  // the console's account routes take a session but no project and no role
  for (const path of ['/auth/me', '/auth/logout', '/auth/password']) assert.not.ok(routes.some((r) => r.path === path));
});

/** A concrete path: UUIDs for ids, plain words for names. */
const concrete = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => (/name|field/i.test(name) ? 'some-name' : name === 'email' ? 'someone%40example.test' : '0190a0a0-0000-7000-8000-000000000000'));

/** Calls every session route with `opts` and names each answer out of `role`'s power: refused (403 FORBIDDEN) exactly above it, never 401. */
async function powerMismatches(who: string, role: Role, opts: RequestOptions): Promise<string[]> {
  const mismatches: string[] = [];
  for (const route of routes) {
    const path = concrete(route.path);
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
    const res = await d.request(route.method, path, body, opts);
    const refused = res.status === 403 && res.body?.error?.code === 'FORBIDDEN';
    const allowed = RANK[role] >= RANK[route.role];
    if (refused === allowed || res.status === 401) mismatches.push(`${who} ${route.method} ${path}: ${res.status} ${res.body?.error?.code ?? ''}`);
  }
  return mismatches;
}

test("MEMBER, ADMIN and OWNER sessions are refused (403 FORBIDDEN) exactly on the routes above their role; the operator's secret key nowhere", async () => {
  for (const role of ['MEMBER', 'ADMIN', 'OWNER'] as Role[]) assert.equal(await powerMismatches(`${role} session`, role, as(d, sessions[role], d.project.id)), []);
  assert.equal(await powerMismatches("the operator's secret key", 'OWNER', { key: d.project.secretKey }), []);
});

// Credentials: every way a role obtains a key, a link or a session, checked against its own power.

test("the daemon's account mail is its recipient's: no role, OWNER included, reads an invitation's link through the email log", async () => {
  const owner = as(d, sessions.OWNER, d.project.id);
  const domain = await d.request('POST', '/domains', { domain: 'roles-mail.test' }, owner);
  assert.is((await d.request('POST', `/domains/${domain.body.id}/mark-verified`, undefined, owner)).status, 200);
  const invited = await d.request('POST', '/members', { email: 'next.owner@invitee.test', role: 'OWNER' }, owner);
  assert.type(invited.body.emailId, 'string', 'the invitation is emailed');
  const token = tokenOf(invited.body.inviteUrl);
  const readers: [string, RequestOptions][] = [
    ...(['OWNER', 'ADMIN', 'MEMBER'] as Role[]).map((role): [string, RequestOptions] => [`${role} session`, as(d, sessions[role], d.project.id)]),
    ["the operator's key", { key: d.project.secretKey }],
  ];
  const emailId = invited.body.emailId as string;
  for (const [who, opts] of readers) {
    for (const path of [`/emails/${emailId}/raw`, `/emails/${emailId}/checks`]) {
      const res = await d.request('GET', path, undefined, opts);
      assert.is(res.status, 403, `${who} GET ${path}`);
      assert.is(res.body.error.code, 'FORBIDDEN');
    }
    for (const path of [`/emails/${emailId}`, '/emails', '/events', '/activity']) {
      const res = await d.request('GET', path, undefined, opts);
      assert.is(res.status, 200, `${who} GET ${path}`);
      assert.not.ok(JSON.stringify(res.body).includes(token), `${who} GET ${path} shows no link`);
    }
  }
  // its recipient's link gives the role it was invited to, in this project only
  const joined = await d.request('POST', '/auth/setup', { token, password: 'the next owner of it all' }, { key: null });
  assert.is(joined.status, 200);
  const next = { cookie: cookieOf(joined.headers), csrfToken: joined.body.csrfToken, user: joined.body.user };
  assert.equal((await d.request('GET', '/auth/me', undefined, as(d, next, null))).body.projects, [{ id: d.project.id, name: 'default', role: 'OWNER' }]);
});

// Run last: rotating keys replaces the project's key the tests above use.

test("a key made through regenerate-keys acts with the role of whoever made it, a key made by a key with that key's role", async () => {
  const rotate = async (opts: RequestOptions) => {
    const res = await d.request('POST', `/users/@me/projects/${d.project.id}/regenerate-keys`, undefined, opts);
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body.secretKey as string;
  };
  const byAdmin = await rotate(as(d, sessions.ADMIN, d.project.id));
  assert.equal(await powerMismatches('key made by an ADMIN', 'ADMIN', { key: byAdmin }), []);
  const byAdminsKey = await rotate({ key: byAdmin });
  assert.equal(await powerMismatches("key made by an ADMIN's key", 'ADMIN', { key: byAdminsKey }), []);
  const byOwner = await rotate(as(d, sessions.OWNER, d.project.id));
  assert.equal(await powerMismatches('key made by an OWNER', 'OWNER', { key: byOwner }), []);
  assert.equal(await powerMismatches('key made by the admin token', 'OWNER', { key: await rotate({ key: ADMIN }) }), []);
});

test('a key made by a member ends when the member loses the role: demoted, removed or disabled', async () => {
  const made = (await d.request('POST', `/users/@me/projects/${d.project.id}/regenerate-keys`, undefined, as(d, sessions.ADMIN, d.project.id))).body.secretKey as string;
  const owner = as(d, sessions.OWNER, d.project.id);
  const works = async () => (await d.request('GET', '/contacts', undefined, { key: made })).status;
  assert.is(await works(), 200);
  assert.is((await d.request('PATCH', `/members/${sessions.ADMIN.user.id}`, { role: 'MEMBER' }, owner)).status, 200);
  assert.is(await works(), 401, 'demoted below the key');
  assert.is((await d.request('PATCH', `/members/${sessions.ADMIN.user.id}`, { role: 'OWNER' }, owner)).status, 200);
  assert.is(await works(), 200, 'a role that allows the key again: the key acts, still as ADMIN');
  assert.is((await d.request('GET', '/members', undefined, { key: made })).status, 403);
  d.cli('user', 'disable', sessions.ADMIN.user.id);
  assert.is(await works(), 401, 'disabled');
  d.cli('user', 'enable', sessions.ADMIN.user.id);
  assert.is(await works(), 200);
  assert.is((await d.request('DELETE', `/members/${sessions.ADMIN.user.id}`, undefined, owner)).status, 204);
  assert.is(await works(), 401, 'removed');
});

test.run();
