// The role matrix on every route: each route of the OpenAPI document (which test/openapi.test.ts
// holds to every mounted route) that takes a console session states its least role; this table says
// what that role must be, and every route is called as MEMBER, ADMIN and OWNER (and with the secret
// key, which has every right) to see the server refuse exactly what the role does not allow.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { as, makeUser, signIn, type Session } from './helpers/console-session.js';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

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
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
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

test('MEMBER, ADMIN and OWNER sessions are refused (403 FORBIDDEN) exactly on the routes above their role; the secret key nowhere', async () => {
  const mismatches: string[] = [];
  for (const route of routes) {
    const path = concrete(route.path);
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
    for (const role of ['MEMBER', 'ADMIN', 'OWNER'] as Role[]) {
      const res = await d.request(route.method, path, body, as(d, sessions[role], d.project.id));
      const refused = res.status === 403 && res.body?.error?.code === 'FORBIDDEN';
      const allowed = RANK[role] >= RANK[route.role];
      if (refused === allowed || res.status === 401) mismatches.push(`${role} ${route.method} ${path}: ${res.status} ${res.body?.error?.code ?? ''}`);
    }
    const byKey = await d.request(route.method, path, body);
    if (byKey.status === 401 || byKey.body?.error?.code === 'FORBIDDEN') mismatches.push(`secret key ${route.method} ${path}: ${byKey.status}`);
  }
  assert.equal(mismatches, []);
});

test.run();
