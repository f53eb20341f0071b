// The console in a real browser (Debian's Chromium) against the real daemon: sign in, the shell,
// the project switcher, sign out; a MEMBER who cannot open Members and whose direct call is 403;
// a setup link; an owner managing members. Elements are found by role and accessible name.
import type { Browser } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBrowser, openTab, signInAs, fetchFromPage, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD, tokenOf } from './helpers/console-session.js';
import { eventually } from './helpers/mail-env.js';
import { MAIN, startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';
import { execFileSync } from 'node:child_process';

let d: TestDaemon;
let browser: Browser;
let second: Keys;
const tabs: ConsoleTab[] = [];

test.before(async () => {
  [d, browser] = await Promise.all([startTestDaemon({ config: { rateLimit: { perMinute: 0 } } }), startBrowser()]);
  second = d.createProject('Second');
  makeUser(d, 'owner@example.test', { id: d.project.id, role: 'OWNER' });
  execFileSync(process.execPath, [MAIN, 'user', 'create', '--email', 'member@example.test', '--project', d.project.id, '--role', 'MEMBER', '--password-stdin', '--config', d.configFile], {
    input: PASSWORD,
  });
});
test.after(async () => {
  await browser?.close();
  await d?.dispose();
});

async function open(path = '/app/'): Promise<ConsoleTab> {
  const tab = await openTab(browser, d.url + path);
  tabs.push(tab);
  return tab;
}

// closes the tabs only: a hook that throws would hide the failure of its test
test.after.each(async () => {
  for (const tab of tabs.splice(0)) await tab.context.close();
});

const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');

test('sign in, see the shell, switch project, sign out', async () => {
  // the owner of the default project is an ADMIN of the second (invited, and accepted with the password)
  const ownerId = (d.cli('user', 'list') as { id: string; email: string }[]).find((u) => u.email === 'owner@example.test')!.id;
  const invited = await d.request('POST', '/members', { email: 'owner@example.test', role: 'ADMIN' }, { key: second.secretKey });
  assert.is(invited.body.member.userId, ownerId);
  assert.is((await d.request('POST', '/auth/setup', { token: tokenOf(invited.body.inviteUrl), password: PASSWORD }, { key: null })).status, 200);

  const tab = await open();
  const { page } = tab;
  await page.getByRole('heading', { name: 'Sign in to Postmill' }).waitFor();
  await signInAs(page, 'owner@example.test', 'a wrong password!');
  await page.getByRole('alert').filter({ hasText: 'The email or the password is not right' }).waitFor();
  await signInAs(page, 'owner@example.test', PASSWORD);
  // the first project by name is Second, where the owner is ADMIN: every section that has pages, Settings without Members,
  // and no Outbox outside capture mode
  const nav = page.getByRole('navigation', { name: 'Main' });
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  assert.equal(await nav.getByRole('link').allTextContents(), ['Overview', 'Contacts', 'Messages', 'Templates', 'Campaigns', 'Segments', 'Workflows', 'Domains', 'Settings'], 'only the sections that have pages');
  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
  assert.equal(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').allTextContents(), ['API keys', 'Webhooks', 'Tracking', 'DKIM signing'], 'no Members for an ADMIN');
  await page.getByLabel('Project').selectOption({ label: 'default (OWNER)' });
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  assert.is(await page.evaluate('document.activeElement?.textContent'), 'Overview', 'the page heading has the focus');
  assert.is(new URL(page.url()).pathname, '/app/overview');
  await page.getByRole('link', { name: 'owner@example.test' }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click();
  await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
  await page.getByLabel('Project').selectOption({ label: 'Second (ADMIN)' });
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  assert.is(await page.getByLabel('Project').inputValue(), second.id, 'the chosen project is remembered');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Postmill' }).waitFor();
  assert.is(await page.evaluate(async () => (await fetch('/auth/me')).status), 401, 'the session ended on the server');
  await page.goto(`${d.url}/app/settings/members`);
  await page.getByRole('heading', { name: 'Sign in to Postmill' }).waitFor();
  noProblems(tab);
});

test('a MEMBER cannot open Members, and the direct API call is 403', async () => {
  const tab = await open('/app/settings/members');
  const { page } = tab;
  await signInAs(page, 'member@example.test', PASSWORD);
  await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
  assert.match(await page.getByRole('main').textContent() ?? '', /Members needs the OWNER role in this project; yours is MEMBER/);
  assert.is(await page.getByRole('link', { name: 'Settings' }).count(), 0);
  assert.is(await fetchFromPage(page, 'GET', '/members', d.project.id), 403);
  assert.is(await fetchFromPage(page, 'POST', '/members', d.project.id, { email: 'sneak@example.test', role: 'OWNER' }), 403);
  assert.is(await fetchFromPage(page, 'GET', '/contacts', d.project.id), 200, 'the everyday routes answer');
  assert.is(await fetchFromPage(page, 'GET', '/contacts', second.id), 403, 'not a member of the second project');
  noProblems(tab);
});

test('a setup link: choose a password, land signed in; the link works once', async () => {
  const made = d.cli<{ setupUrl: string }>('user', 'create', '--email', 'new@example.test', '--project', d.project.id, '--role', 'OWNER');
  // the CLI knows no listener port (port 0 here): the token is what matters
  const link = `${d.url}/app/setup#token=${tokenOf(made.setupUrl)}`;
  const tab = await open('/app/sign-in');
  const { page } = tab;
  await page.goto(link);
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await page.getByText('new@example.test').waitFor();
  assert.not.match(page.url(), /token/, 'the token is taken out of the address bar');
  await page.getByLabel('New password').fill('short');
  await page.getByLabel('Repeat the password').fill('short');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('alert').filter({ hasText: 'at least 12 characters' }).waitFor();
  await page.getByLabel('New password').fill('a long enough password');
  await page.getByLabel('Repeat the password').fill('a long enough password');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

  await page.goto(link);
  await page.getByRole('alert').filter({ hasText: 'This link is not valid' }).waitFor();
  noProblems(tab);
});

test('an invitation to someone who has a password: accepted on the link page with that password, the project joins the list', async () => {
  const invited = await d.request('POST', '/members', { email: 'member@example.test', role: 'ADMIN' }, { key: second.secretKey });
  const tab = await open('/app/sign-in');
  const { page } = tab;
  await page.goto(invited.body.inviteUrl);
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await page.getByText('member@example.test').waitFor();
  await page.getByRole('checkbox', { name: 'I have a Postmill password already' }).check();
  await page.getByLabel('Your password').fill('not the right password');
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await page.getByRole('alert').filter({ hasText: 'The email or the password is not right' }).waitFor();
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  assert.ok(await page.getByLabel('Project').getByRole('option', { name: 'Second (ADMIN)' }).count(), 'the invited project is there, with its role');
  noProblems(tab);
});

test('an owner invites a member (the link shown), changes the role, removes the member', async () => {
  const tab = await open();
  const { page } = tab;
  await signInAs(page, 'owner@example.test', PASSWORD);
  await page.getByLabel('Project').selectOption({ label: 'default (OWNER)' });
  await page.goto(`${d.url}/app/settings/members`);
  await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
  await page.getByRole('textbox', { name: 'Email' }).fill('guest@example.test');
  await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('ADMIN');
  await page.getByRole('button', { name: 'Invite' }).click();
  const shown = page.getByRole('textbox', { name: 'Invitation link' });
  await shown.waitFor();
  assert.match(await shown.inputValue(), new RegExp(`^${d.url}/app/setup#token=`));
  const row = page.getByRole('row', { name: /guest@example\.test/ });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /invited/);
  await page.getByRole('combobox', { name: 'Role of guest@example.test' }).selectOption('MEMBER');
  await eventually(async () => (await d.request('GET', '/members')).body.data.find((m: { email: string; role: string }) => m.email === 'guest@example.test' && m.role === 'MEMBER'), 10_000, 'the new role stored');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Remove guest@example.test' }).click();
  await row.waitFor({ state: 'detached' });
  const left = await d.request('GET', '/members');
  assert.not.ok(left.body.data.some((m: { email: string }) => m.email === 'guest@example.test'));
  noProblems(tab);
});

test.run();
