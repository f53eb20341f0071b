// Accounts across projects, through the real daemon: a project adds an address to itself and does
// nothing more to the account behind it. Its invitation never sets that account's password nor
// cancels its links, gives no role before it is accepted through its own link, and no answer it
// gets says whether the address has an account elsewhere (issue 32, item 1).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { as, cookieOf, makeUser, PASSWORD, signIn, tokenOf, type Session } from './helpers/console-session.js';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;
let other: Keys;

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
  other = d.createProject('other');
});
test.after(() => d.dispose());

const invite = (email: string, key: string, role = 'OWNER') => d.request('POST', '/members', { email, role }, { key });
const check = (url: string) => d.request('POST', '/auth/setup/check', { token: tokenOf(url) }, { key: null });
const setUp = (url: string, password: string) => d.request('POST', '/auth/setup', { token: tokenOf(url), password }, { key: null });
const sessionOf = (res: { headers: Headers; body: any }): Session => ({ cookie: cookieOf(res.headers), csrfToken: res.body.csrfToken, user: res.body.user });
const projectsOf = async (s: Session) => ((await d.request('GET', '/auth/me', undefined, as(d, s, null))).body.projects as { id: string }[]).map((p) => p.id);

test("another project's invitation leaves an account without a password as it was: its own link still works, the invitation's does not set the password", async () => {
  const own = d.cli<{ id: string; setupUrl: string }>('user', 'create', '--email', 'pat@example.test', '--project', d.project.id, '--role', 'MEMBER');
  const taken = await invite('pat@example.test', other.secretKey);
  assert.is(taken.status, 201);
  assert.is((await check(own.setupUrl)).status, 200, "the user's own link still works");
  const hijack = await setUp(taken.body.inviteUrl, 'chosen by the other project');
  assert.is(hijack.status, 401, 'an account in a project is not set up by an invitation: it proves its password');
  assert.is(hijack.body.error.code, 'INVALID_CREDENTIALS');
  const mine = await setUp(own.setupUrl, PASSWORD);
  assert.is(mine.status, 200);
  const pat = sessionOf(mine);
  assert.equal(await projectsOf(pat), [d.project.id], 'the invitation gives no role before it is accepted');
  assert.is((await d.request('GET', '/contacts', undefined, as(d, pat, other.id))).status, 403);
  const accepted = await setUp(taken.body.inviteUrl, PASSWORD);
  assert.is(accepted.status, 200, 'accepted with the password the account has');
  assert.equal((await projectsOf(pat)).sort(), [d.project.id, other.id].sort());
  assert.is((await setUp(taken.body.inviteUrl, PASSWORD)).status, 400, 'once');
});

test('the answers are alike whether the address has an account elsewhere or not: no password state, no disabled flag, the address as written', async () => {
  makeUser(d, 'has.password@example.test', { id: d.project.id, role: 'ADMIN' });
  d.cli('user', 'create', '--email', 'no.password@example.test', '--project', d.project.id, '--role', 'ADMIN');
  d.cli('user', 'disable', makeUser(d, 'switched.off@example.test', { id: d.project.id, role: 'ADMIN' }));
  const addresses = ['nobody.yet@example.test', 'HAS.password@example.test', 'No.Password@example.test', 'Switched.Off@example.test'];
  const shapes = [];
  for (const email of addresses) {
    const res = await invite(email, other.secretKey, 'MEMBER');
    assert.is(res.status, 201, JSON.stringify(res.body));
    assert.is(res.body.member.email, email, 'the address as the project wrote it');
    const link = await check(res.body.inviteUrl);
    assert.is(link.status, 200);
    assert.equal(link.body, { email, purpose: 'invite' });
    const short = await setUp(res.body.inviteUrl, 'short');
    shapes.push({
      answer: { ...res.body, member: { ...res.body.member, userId: typeof res.body.member.userId, email: undefined, createdAt: undefined }, inviteUrl: /^http:\/\/[^/]+\/app\/setup#token=[\w-]{43}$/.test(res.body.inviteUrl) },
      short: [short.status, short.body.error.code, short.body.error.message],
    });
  }
  for (const shape of shapes.slice(1)) assert.equal(shape, shapes[0]);
  assert.equal(shapes[0]!.answer.member, { userId: 'string', email: undefined, role: 'MEMBER', status: 'invited', createdAt: undefined });
  const listed = (await d.request('GET', '/members', undefined, { key: other.secretKey })).body.data as Record<string, unknown>[];
  const invited = listed.filter((m) => addresses.includes(m.email as string));
  assert.is(invited.length, 4);
  for (const m of invited) assert.equal(Object.keys(m).sort(), ['createdAt', 'email', 'role', 'status', 'userId']);
  assert.ok(invited.every((m) => m.status === 'invited'));
});

test("an account made by one project's invitation is not another project's to take: each link accepts its own project only", async () => {
  const first = await invite('sam@example.test', d.project.secretKey, 'MEMBER');
  const second = await invite('sam@example.test', other.secretKey, 'OWNER');
  // whoever holds the first link (its owner, say) sets the password first
  const squat = await setUp(first.body.inviteUrl, 'chosen by the first owner');
  assert.is(squat.status, 200, 'an account in no project yet chooses its password with the link');
  const sam = sessionOf(squat);
  assert.equal(await projectsOf(sam), [d.project.id], "the other project's invitation is not accepted by it");
  assert.is((await d.request('GET', '/members', undefined, as(d, sam, other.id))).status, 403);
  assert.is((await setUp(second.body.inviteUrl, 'another password entirely')).status, 401, 'the second link cannot set a password any more');
  const members = (await d.request('GET', '/members', undefined, { key: other.secretKey })).body.data as { email: string; status: string }[];
  assert.is(members.find((m) => m.email === 'sam@example.test')!.status, 'invited');
});

test('an invitation not accepted gives no role: not an OWNER who keeps the project, and withdrawing it ends its link', async () => {
  const owner = makeUser(d, 'only.owner@example.test', null);
  const solo = d.createProject('solo');
  const joined = await setUp((await invite('only.owner@example.test', solo.secretKey)).body.inviteUrl, PASSWORD);
  assert.is(joined.status, 200);
  const pending = await invite('waiting.owner@example.test', solo.secretKey);
  const demote = await d.request('PATCH', `/members/${owner}`, { role: 'ADMIN' }, { key: solo.secretKey });
  assert.is(demote.status, 409, 'the invited OWNER does not count until accepted');
  assert.is((await d.request('DELETE', `/members/${pending.body.member.userId}`, undefined, { key: solo.secretKey })).status, 204);
  assert.is((await check(pending.body.inviteUrl)).status, 400, 'a withdrawn invitation ends its link');
  // the account the invitation made is in no project: a new invitation sets it up
  const again = await invite('waiting.owner@example.test', solo.secretKey);
  const set = await setUp(again.body.inviteUrl, PASSWORD);
  assert.is(set.status, 200);
  assert.equal(await projectsOf(sessionOf(set)), [solo.id]);
  assert.is((await signIn(d, 'waiting.owner@example.test')).user.id, again.body.member.userId);
});

test.run();
