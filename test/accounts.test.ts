// Accounts, sessions and their rules through the real daemon: the first owner's link, sign-in and
// its cookie, the same answer for unknown users, logout, session expiry (the clock moved), CSRF,
// throttling, disabled users, setup links, password changes, members and the invitation email.
import { execFileSync, spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { as, cookieOf, makeUser, PASSWORD, signIn, tokenOf, type Session } from './helpers/console-session.js';
import { MAIN, startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;
const HOUR = 3600_000;

test.before(async () => {
  env = await startMailEnv({
    // 127.0.0.1 is a trusted proxy here, so each test names its client address in X-Forwarded-For
    config: { http: { host: '127.0.0.1', port: 0, trustProxy: ['127.0.0.1'] }, console: { sessionMaxDays: 1 } },
    sinkDomains: ['rcpt.test'],
  });
  d = env.daemon;
});
test.after(() => env.close());

const from = (address: string) => ({ key: null, headers: { 'x-forwarded-for': address } });
const login = (email: string, password: string, address: string) => d.request('POST', '/auth/login', { email, password }, from(address));
const me = (s: Session) => d.request('GET', '/auth/me', undefined, as(d, s, null));
/** The envelope without what differs per request. */
const shape = (body: any) => ({ ...body, timestamp: undefined, error: { ...body.error, requestId: undefined } });
const cli = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args, '--json', '--config', d.configFile]);

test('the first start prints a setup link that makes the OWNER of the default project, once', async () => {
  assert.match(d.ownerSetupUrl, new RegExp(`^${d.url}/app/setup#token=[A-Za-z0-9_-]{43}$`));
  const token = tokenOf(d.ownerSetupUrl);
  const check = await d.request('POST', '/auth/setup/check', { token }, { key: null });
  assert.equal(check.body, { email: null, purpose: 'owner' });
  const noEmail = await d.request('POST', '/auth/setup', { token, password: PASSWORD }, { key: null });
  assert.is(noEmail.status, 422, 'the first owner gives the email to sign in with');
  const set = await d.request('POST', '/auth/setup', { token, password: PASSWORD, email: 'Owner@Example.test' }, { key: null });
  assert.is(set.status, 200, JSON.stringify(set.body));
  const owner = { cookie: cookieOf(set.headers), csrfToken: set.body.csrfToken, user: set.body.user };
  assert.equal((await me(owner)).body.projects, [{ id: d.project.id, name: 'default', role: 'OWNER' }]);
  const again = await d.request('POST', '/auth/setup', { token, password: PASSWORD, email: 'other@example.test' }, { key: null });
  assert.is(again.status, 400);
  assert.is(again.body.error.code, 'INVALID_SETUP_LINK');
  // signs in with the email in any case
  assert.is((await login('owner@example.TEST', PASSWORD, '10.9.0.1')).status, 200);
});

test('sign-in: 200 with the user, the CSRF token and an HttpOnly SameSite=Strict cookie; a wrong pair and an unknown email get one answer', async () => {
  const id = makeUser(d, 'ann@example.test', { id: d.project.id, role: 'MEMBER' });
  const ok = await login('ann@example.test', PASSWORD, '10.1.0.1');
  assert.is(ok.status, 200);
  assert.equal(ok.body.user, { id, email: 'ann@example.test' });
  assert.match(ok.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
  const cookie = ok.headers.get('set-cookie')!;
  assert.match(cookie, /^postmill_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Strict$/, 'no Secure: publicUrl is http here');
  const wrong = await login('ann@example.test', 'not the password at all', '10.1.0.2');
  const unknown = await login('nobody@example.test', 'not the password at all', '10.1.0.3');
  const noPassword = await login('ann@example.test', '', '10.1.0.4');
  assert.is(wrong.status, 401);
  assert.is(unknown.status, 401);
  assert.equal(shape(unknown.body), shape(wrong.body));
  assert.is(wrong.headers.get('set-cookie'), null);
  assert.is(noPassword.status, 422);
  // a session cookie that is not one: 401
  const forged = await d.request('GET', '/auth/me', undefined, { key: null, headers: { cookie: 'postmill_session=forged' } });
  assert.is(forged.status, 401);
  assert.is(forged.body.error.code, 'INVALID_SESSION');
});

test('the cookie is Secure when publicUrl is https, however its scheme is spelt (HTTPS://)', async () => {
  const behindTls = await startTestDaemon({ config: { publicUrl: 'HTTPS://Console.Example.test' } });
  try {
    makeUser(behindTls, 'tls@example.test');
    const signedIn = await behindTls.request('POST', '/auth/login', { email: 'tls@example.test', password: PASSWORD }, { key: null });
    assert.is(signedIn.status, 200);
    assert.match(signedIn.headers.get('set-cookie')!, /; HttpOnly; SameSite=Strict; Secure$/);
    const session = { cookie: cookieOf(signedIn.headers), csrfToken: signedIn.body.csrfToken, user: signedIn.body.user };
    const out = await behindTls.request('POST', '/auth/logout', undefined, { key: null, headers: { cookie: session.cookie, 'x-postmill-csrf': session.csrfToken, origin: 'https://console.example.test' } });
    assert.is(out.status, 204);
    assert.match(out.headers.get('set-cookie')!, /^postmill_session=; .*Max-Age=0; .*; Secure$/, 'the cookie that ends it is Secure too');
  } finally {
    await behindTls.dispose();
  }
});

test('GET /auth/me answers the user, projects, token and delivery mode; POST /auth/logout ends the session on the server', async () => {
  makeUser(d, 'bea@example.test', { id: d.project.id, role: 'ADMIN' });
  const s = await signIn(d, 'bea@example.test');
  const mine = await me(s);
  assert.is(mine.status, 200);
  assert.equal(mine.body, { user: s.user, projects: [{ id: d.project.id, name: 'default', role: 'ADMIN' }], csrfToken: s.csrfToken, deliveryMode: 'mx' });
  assert.is((await d.request('POST', '/auth/logout', undefined, as(d, s, null, ['x-postmill-csrf']))).status, 403, 'logout needs the CSRF token too');
  const out = await d.request('POST', '/auth/logout', undefined, as(d, s, null));
  assert.is(out.status, 204);
  assert.match(out.headers.get('set-cookie')!, /postmill_session=; Path=\/; Max-Age=0/);
  // the browser may keep the cookie: the server does not know it any more
  assert.is((await me(s)).status, 401);
  assert.is((await d.request('GET', '/contacts', undefined, as(d, s, d.project.id))).status, 401);
  assert.is((await d.request('GET', '/auth/me', undefined, { key: null })).status, 401, 'no cookie at all');
});

test('session requests act in the project of X-Postmill-Project; another project is 403; public-key routes stay key-only', async () => {
  makeUser(d, 'cid@example.test', { id: d.project.id, role: 'MEMBER' });
  const s = await signIn(d, 'cid@example.test');
  const other = d.createProject('other');
  const created = await d.request('POST', '/contacts', { email: 'x1@rcpt.test' }, as(d, s, d.project.id));
  assert.is(created.status, 201, JSON.stringify(created.body));
  const listed = await d.request('GET', '/contacts', undefined, as(d, s, d.project.id));
  assert.ok(listed.body.data.some((c: { email: string }) => c.email === 'x1@rcpt.test'));
  const foreign = await d.request('GET', '/contacts', undefined, as(d, s, other.id));
  assert.is(foreign.status, 403);
  assert.is(foreign.body.error.code, 'FORBIDDEN');
  assert.is((await d.request('GET', '/contacts', undefined, as(d, s, 'no-such-project'))).status, 403);
  assert.is((await d.request('GET', '/contacts', undefined, as(d, s, null))).status, 400, 'a session names its project');
  const track = await d.request('POST', '/v1/track', { email: 'x1@rcpt.test', event: 'seen' }, as(d, s, d.project.id));
  assert.is(track.status, 401);
  assert.is(track.body.error.code, 'INVALID_API_KEY');
  const alias = await d.request('POST', '/events/track', { email: 'x1@rcpt.test', event: 'seen' }, as(d, s, d.project.id));
  assert.is(alias.status, 200, 'the console tracks through the secret-key alias');
  // a key wins over a cookie: the key's project, whatever the header says
  const both = await d.request('GET', '/contacts', undefined, { key: other.secretKey, headers: { cookie: s.cookie, 'x-postmill-project': d.project.id } });
  assert.is(both.status, 200);
  assert.not.ok(both.body.data.some((c: { email: string }) => c.email === 'x1@rcpt.test'));
});

test('CSRF: a session write needs the session token and an Origin or Referer of this daemon; reads and keys need neither', async () => {
  makeUser(d, 'dee@example.test', { id: d.project.id, role: 'MEMBER' });
  const s = await signIn(d, 'dee@example.test');
  const other = await signIn(d, 'cid@example.test');
  const post = (email: string, opts: ReturnType<typeof as>) => d.request('POST', '/contacts', { email }, opts);
  const refused: [string, ReturnType<typeof as>][] = [
    ['no token', as(d, s, d.project.id, ['x-postmill-csrf'])],
    ['a wrong token', { ...as(d, s, d.project.id), headers: { ...as(d, s, d.project.id).headers, 'x-postmill-csrf': 'wrong' } }],
    ["another session's token", { ...as(d, s, d.project.id), headers: { ...as(d, s, d.project.id).headers, 'x-postmill-csrf': other.csrfToken } }],
    ['a foreign Origin', { ...as(d, s, d.project.id), headers: { ...as(d, s, d.project.id).headers, origin: 'http://evil.test' } }],
    ['Origin null', { ...as(d, s, d.project.id), headers: { ...as(d, s, d.project.id).headers, origin: 'null' } }],
    ['no Origin and no Referer', as(d, s, d.project.id, ['origin'])],
    ['a foreign Referer', { ...as(d, s, d.project.id, ['origin']), headers: { ...as(d, s, d.project.id, ['origin']).headers, referer: 'http://evil.test/app/' } }],
  ];
  for (const [what, opts] of refused) {
    const r = await post(`csrf-${what.replace(/\W+/g, '-')}@rcpt.test`, opts);
    assert.is(r.status, 403, what);
  }
  const count = await d.request('GET', '/contacts?search=csrf-', undefined, as(d, s, d.project.id, ['x-postmill-csrf', 'origin']));
  assert.is(count.status, 200, 'a GET needs neither');
  assert.is(count.body.data.length, 0, 'nothing refused was written');
  const byReferer = { ...as(d, s, d.project.id, ['origin']), headers: { ...as(d, s, d.project.id, ['origin']).headers, referer: `${d.url}/app/contacts` } };
  assert.is((await post('csrf-referer@rcpt.test', byReferer)).status, 201, 'a Referer of our origin stands for the Origin');
  assert.is((await post('csrf-ok@rcpt.test', as(d, s, d.project.id))).status, 201);
  assert.is((await d.request('POST', '/contacts', { email: 'csrf-key@rcpt.test' })).status, 201, 'a key needs neither');
  // sign-in from another site is refused (login CSRF)
  assert.is((await d.request('POST', '/auth/login', { email: 'dee@example.test', password: PASSWORD }, { key: null, headers: { origin: 'http://evil.test' } })).status, 403);
});

test('throttling per address: five failures within 15 minutes hold the address (Retry-After) until the oldest is 15 minutes old; a correct password and another email wait too', async () => {
  makeUser(d, 'eve@example.test', { id: d.project.id, role: 'MEMBER' });
  const at = '10.2.0.1';
  for (let i = 0; i < 5; i++) {
    assert.is((await login('eve@example.test', 'wrong password ' + i, at)).status, 401, `failure ${i + 1} is answered`);
    await env.advance(60_000);
  }
  const locked = await login('eve@example.test', PASSWORD, at);
  assert.is(locked.status, 429, 'the right password waits too');
  assert.is(locked.body.error.code, 'RATE_LIMIT_EXCEEDED');
  const retryAfter = Number(locked.headers.get('retry-after'));
  // the first failure was five minutes ago: ten minutes to go
  assert.ok(retryAfter > 9 * 60 && retryAfter <= 10 * 60, `Retry-After ${retryAfter}`);
  assert.is(locked.body.error.details.retryAfter, retryAfter);
  assert.is((await login('nobody@example.test', 'wrong', at)).status, 429, 'the address is held, whatever the email');
  assert.is((await login('eve@example.test', PASSWORD, '10.2.0.2')).status, 200, 'another address is not held');
  await env.advance(retryAfter * 1000);
  assert.is((await login('eve@example.test', PASSWORD, at)).status, 200, 'the hold ends when the oldest failure leaves the window');
  // a success forgets the address: five failures again before a hold
  for (let i = 0; i < 5; i++) assert.is((await login('eve@example.test', 'wrong ' + i, at)).status, 401);
  assert.is((await login('eve@example.test', PASSWORD, at)).status, 429);
});

test('throttling per account: ten failures from anywhere hold new addresses for at most 15 minutes, never the addresses the owner signs in from', async () => {
  makeUser(d, 'fay@example.test', { id: d.project.id, role: 'OWNER' });
  assert.is((await login('fay@example.test', PASSWORD, '10.3.0.1')).status, 200, 'her usual address');
  for (let i = 0; i < 10; i++) assert.is((await login('fay@example.test', 'guess ' + i, `10.3.1.${i}`)).status, 401);
  const stranger = await login('fay@example.test', PASSWORD, '10.3.2.1');
  assert.is(stranger.status, 429, 'a new address waits, even with the right password');
  const wait = Number(stranger.headers.get('retry-after'));
  assert.ok(wait > 0 && wait <= 900, `Retry-After ${wait}`);
  assert.is((await login('fay@example.test', PASSWORD, '10.3.0.1')).status, 200, 'her usual address is never held by strangers');
  // the same for an account that does not exist: nothing tells them apart
  for (let i = 0; i < 10; i++) await login('nobody-at-all@example.test', 'guess', `10.3.3.${i}`);
  assert.is((await login('nobody-at-all@example.test', 'guess', '10.3.4.1')).status, 429);
  await env.advance(15 * 60_000);
  assert.is((await login('fay@example.test', PASSWORD, '10.3.2.1')).status, 200, 'the account lock ends within 15 minutes');
});

test('throttling holds under concurrency: 30 attempts sent at once get at most 5 verdicts per address and 10 per account, the rest 429', async () => {
  makeUser(d, 'ned@example.test', { id: d.project.id, role: 'MEMBER' });
  const verdicts = (answers: { status: number }[]) => answers.filter((a) => a.status === 401).length;
  // one address, one account: each attempt takes its place before its password is judged
  const oneAddress = await Promise.all(Array.from({ length: 30 }, (_, i) => login('ned@example.test', `guess ${i} at once`, '10.12.0.1')));
  assert.is(verdicts(oneAddress), 5, `verdicts: ${oneAddress.map((a) => a.status).join(' ')}`);
  assert.ok(oneAddress.every((a) => a.status === 401 || a.status === 429));
  // thirty addresses, one account
  const spread = await Promise.all(Array.from({ length: 30 }, (_, i) => login('ned@example.test', `guess ${i} from afar`, `10.12.1.${i}`)));
  assert.is(verdicts(spread), 5, 'the account had 5 failures already: 5 more reach 10');
  assert.is((await login('ned@example.test', PASSWORD, '10.12.2.1')).status, 429, 'a new address waits for the account');
  // a password change is judged the same way
  makeUser(d, 'oda@example.test', { id: d.project.id, role: 'MEMBER' });
  const oda = await signIn(d, 'oda@example.test');
  const changes = await Promise.all(
    Array.from({ length: 30 }, (_, i) => d.request('POST', '/auth/password', { currentPassword: `not it ${i}`, newPassword: 'a brand new password' }, { ...as(d, oda, null), headers: { ...as(d, oda, null).headers, 'x-forwarded-for': '10.12.3.1' } })),
  );
  assert.is(changes.filter((c) => c.status === 422).length, 5, `answers: ${changes.map((c) => c.status).join(' ')}`);
  assert.ok(changes.every((c) => c.status === 422 || c.status === 429));
});

test("disabling a user ends every session of it at once and refuses its sign-in; enabling lets it back", async () => {
  const id = makeUser(d, 'gil@example.test', { id: d.project.id, role: 'ADMIN' });
  const one = await signIn(d, 'gil@example.test');
  const two = await signIn(d, 'gil@example.test');
  const off = JSON.parse(execFileSync(process.execPath, [MAIN, 'user', 'disable', id, '--json', '--config', d.configFile]).toString());
  assert.equal(off, { id, disabled: true });
  for (const s of [one, two]) {
    assert.is((await me(s)).status, 401);
    assert.is((await d.request('GET', '/contacts', undefined, as(d, s, d.project.id))).status, 401);
  }
  const refused = await login('gil@example.test', PASSWORD, '10.4.0.1');
  assert.is(refused.status, 401, 'the same answer as a wrong password');
  assert.is(refused.body.error.code, 'INVALID_CREDENTIALS');
  const listed = JSON.parse(cli('user', 'list').stdout.toString()) as { id: string; disabled: boolean; projects: unknown[] }[];
  assert.equal(listed.find((u) => u.id === id), { id, email: 'gil@example.test', disabled: true, projects: [{ id: d.project.id, role: 'ADMIN' }] });
  assert.equal(JSON.parse(cli('user', 'enable', id).stdout.toString()), { id, disabled: false });
  assert.is((await login('gil@example.test', PASSWORD, '10.4.0.1')).status, 200);
});

test('setup links: the CLI prints one, it works once, a newer one replaces it, it expires after 24 hours; reset-password ends the password and the sessions', async () => {
  const made = JSON.parse(cli('user', 'create', '--email', 'hal@example.test', '--project', d.project.id, '--role', 'MEMBER').stdout.toString());
  assert.equal(Object.keys(made).sort(), ['email', 'id', 'setupUrl']);
  assert.match(made.setupUrl, /\/app\/setup#token=/);
  const token = tokenOf(made.setupUrl);
  assert.equal((await d.request('POST', '/auth/setup/check', { token }, { key: null })).body, { email: 'hal@example.test', purpose: 'setup' });
  assert.is((await login('hal@example.test', PASSWORD, '10.5.0.1')).status, 401, 'no password before the link is used');
  const short = await d.request('POST', '/auth/setup', { token, password: 'too short' }, { key: null });
  assert.is(short.status, 422);
  const set = await d.request('POST', '/auth/setup', { token, password: PASSWORD }, { key: null });
  assert.is(set.status, 200);
  assert.equal(set.body.user, { id: made.id, email: 'hal@example.test' });
  const signedIn = { cookie: cookieOf(set.headers), csrfToken: set.body.csrfToken, user: set.body.user };
  assert.is((await me(signedIn)).status, 200, 'the link signs in');
  const reused = await d.request('POST', '/auth/setup', { token, password: 'another password 123' }, { key: null });
  assert.is(reused.status, 400, 'single use');
  assert.is((await d.request('POST', '/auth/setup/check', { token }, { key: null })).status, 400);

  // reset-password: the old password and every session end; only the newest link works
  const first = JSON.parse(cli('user', 'reset-password', made.id).stdout.toString());
  assert.equal(Object.keys(first).sort(), ['id', 'setupUrl']);
  assert.is((await me(signedIn)).status, 401);
  assert.is((await login('hal@example.test', PASSWORD, '10.5.0.2')).status, 401);
  const second = JSON.parse(cli('user', 'reset-password', made.id).stdout.toString());
  assert.is((await d.request('POST', '/auth/setup', { token: tokenOf(first.setupUrl), password: PASSWORD }, { key: null })).status, 400, 'replaced');
  await env.advance(24 * HOUR + 60_000);
  const expired = await d.request('POST', '/auth/setup', { token: tokenOf(second.setupUrl), password: PASSWORD }, { key: null });
  assert.is(expired.status, 400, 'expired after 24 hours');
  assert.is(expired.body.error.code, 'INVALID_SETUP_LINK');
});

test('a password change needs the current password and ends the other sessions of the user, not this one', async () => {
  makeUser(d, 'ida@example.test', { id: d.project.id, role: 'MEMBER' });
  const here = await signIn(d, 'ida@example.test');
  const elsewhere = await signIn(d, 'ida@example.test');
  const wrong = await d.request('POST', '/auth/password', { currentPassword: 'not it at all', newPassword: 'a brand new password' }, as(d, here, null));
  assert.is(wrong.status, 422);
  assert.is(wrong.body.error.errors[0].field, 'currentPassword');
  const weak = await d.request('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: 'short' }, as(d, here, null));
  assert.is(weak.status, 422);
  const changed = await d.request('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: 'a brand new password' }, as(d, here, null));
  assert.is(changed.status, 204);
  assert.is((await me(here)).status, 200);
  assert.is((await me(elsewhere)).status, 401);
  assert.is((await login('ida@example.test', PASSWORD, '10.6.0.1')).status, 401);
  assert.is((await login('ida@example.test', 'a brand new password', '10.6.0.1')).status, 200);
});

test('sessions end after console.sessionIdleMinutes without a request, and sessionMaxDays after sign-in however busy', async () => {
  makeUser(d, 'jo@example.test', { id: d.project.id, role: 'MEMBER' });
  const idle = await signIn(d, 'jo@example.test');
  const busy = await signIn(d, 'jo@example.test');
  await env.advance(11 * HOUR);
  assert.is((await me(busy)).status, 200, 'a request keeps a session alive');
  await env.advance(HOUR + 60_000);
  assert.is((await me(idle)).status, 401, 'idle for 12 hours and a minute (the default 720 minutes)');
  assert.is((await me(busy)).status, 200, 'seen an hour ago');
  await env.advance(11 * HOUR);
  assert.is((await me(busy)).status, 200, 'still within the day');
  await env.advance(HOUR);
  assert.is((await me(busy)).status, 401, 'sessionMaxDays 1: past a day since sign-in, however busy');
});

test('members: an owner invites (a link, no email without a verified domain), changes roles, removes; a project keeps an OWNER', async () => {
  const owner = await signIn(d, 'fay@example.test');
  const list = await d.request('GET', '/members', undefined, as(d, owner, d.project.id));
  assert.is(list.status, 200);
  assert.ok(list.body.data.some((m: { email: string; role: string }) => m.email === 'fay@example.test' && m.role === 'OWNER'));
  const invited = await d.request('POST', '/members', { email: 'kim@rcpt.test', role: 'ADMIN' }, as(d, owner, d.project.id));
  assert.is(invited.status, 201, JSON.stringify(invited.body));
  assert.is(invited.body.emailId, null, 'no verified sender domain yet');
  assert.is(invited.body.member.status, 'invited');
  assert.match(invited.body.inviteUrl, /\/app\/setup#token=/);
  assert.is((await d.request('POST', '/members', { email: 'KIM@rcpt.test', role: 'MEMBER' }, as(d, owner, d.project.id))).status, 409);
  const joined = await d.request('POST', '/auth/setup', { token: tokenOf(invited.body.inviteUrl), password: PASSWORD }, { key: null });
  assert.is(joined.status, 200);
  const kim = await signIn(d, 'kim@rcpt.test');
  assert.equal((await me(kim)).body.projects, [{ id: d.project.id, name: 'default', role: 'ADMIN' }]);
  // a user with a password accepts another project's invitation with it
  const known = await d.request('POST', '/members', { email: 'kim@rcpt.test', role: 'MEMBER' }, { key: d.createProject('third').secretKey });
  assert.is(known.status, 201);
  assert.is((await me(kim)).body.projects.length, 1, 'no role before the invitation is accepted');
  assert.is((await d.request('POST', '/auth/setup', { token: tokenOf(known.body.inviteUrl), password: PASSWORD }, { key: null })).status, 200);
  assert.is((await me(kim)).body.projects.length, 2);

  const kimId = kim.user.id;
  const patched = await d.request('PATCH', `/members/${kimId}`, { role: 'MEMBER' }, as(d, owner, d.project.id));
  assert.is(patched.status, 200);
  assert.is(patched.body.role, 'MEMBER');
  assert.is((await d.request('GET', '/members', undefined, as(d, kim, d.project.id))).status, 403, 'the new role counts at once');
  assert.is((await d.request('PATCH', `/members/${kimId}`, { role: 'GOD' }, as(d, owner, d.project.id))).status, 422);
  assert.is((await d.request('PATCH', `/members/${crypto.randomUUID()}`, { role: 'ADMIN' }, as(d, owner, d.project.id))).status, 404);

  // the last OWNER can neither be demoted nor removed (the first owner and fay are owners: remove one, then try the other)
  const owners = (await d.request('GET', '/members', undefined, as(d, owner, d.project.id))).body.data.filter((m: { role: string }) => m.role === 'OWNER');
  for (const o of owners.slice(1)) assert.is((await d.request('DELETE', `/members/${o.userId}`, undefined, as(d, owner, d.project.id))).status, 204);
  const last = owners[0].userId;
  const demote = await d.request('PATCH', `/members/${last}`, { role: 'ADMIN' }, { key: d.project.secretKey });
  assert.is(demote.status, 409);
  assert.is((await d.request('DELETE', `/members/${last}`, undefined, { key: d.project.secretKey })).status, 409);
  assert.is((await d.request('DELETE', `/members/${kimId}`, undefined, { key: d.project.secretKey })).status, 204);
  assert.is((await d.request('GET', '/contacts', undefined, as(d, kim, d.project.id))).status, 403, 'a removed member loses the project at once');
});

test('the invitation email: sent through the outbound path from a verified domain of the project, untracked, with the link', async () => {
  await env.verifySender('acme.test');
  const invited = await d.request('POST', '/members', { email: 'lou@rcpt.test', role: 'MEMBER' });
  assert.is(invited.status, 201, JSON.stringify(invited.body));
  assert.type(invited.body.emailId, 'string');
  const [message] = await env.sink.waitFor(1, 10_000);
  const raw = message!.raw.toString();
  assert.match(raw, /From: Postmill <postmill@acme\.test>/);
  assert.match(raw, /Subject: You are invited to default on Postmill/);
  assert.match(raw, /\r\nAuto-Submitted: auto-generated\r\n/, 'no auto-reply quotes the link back into the project');
  const sealed = await d.request('GET', `/emails/${invited.body.emailId}/raw`);
  assert.is(sealed.status, 403, 'the recipient reads it; the project does not');
  const link = invited.body.inviteUrl as string;
  assert.ok(raw.replace(/=\r\n/g, '').includes(link.replace(/=/g, '=3D')) || raw.includes(link), 'the message carries the link itself, not a click redirect');
  assert.not.match(raw, /\/t\/c\//);
  assert.is((await d.request('POST', '/auth/setup', { token: tokenOf(link), password: PASSWORD }, { key: null })).status, 200);
});

test('CLI: user create refuses a taken email (case-insensitive), a short password and --role without --project', () => {
  const taken = cli('user', 'create', '--email', 'ANN@example.test');
  assert.is(taken.status, 1);
  assert.match(taken.stderr.toString(), /exists/);
  const short = spawnSync(process.execPath, [MAIN, 'user', 'create', '--email', 'new@example.test', '--password-stdin', '--config', d.configFile], { input: 'short\n' });
  assert.is(short.status, 1);
  assert.match(short.stderr.toString(), /12 characters/);
  assert.is(cli('user', 'create', '--email', 'new@example.test', '--role', 'ADMIN').status, 2);
  assert.is(cli('user', 'create', '--email', 'new@example.test', '--project', d.project.id, '--role', 'KING').status, 2);
  assert.is(cli('user', 'disable', crypto.randomUUID()).status, 1);
});

test.run();
