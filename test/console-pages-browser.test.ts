// The console's everyday pages in Debian's Chromium against the real daemon: the overview's numbers
// equal the API's, and its sender health card (ADMIN only); a CSV import's progress and its
// rejected row; finding a contact by search and by a data field, opening and editing it; the note
// on a contact a send created unsubscribed; a bulk unsubscribe; removing a suppression as ADMIN,
// and a MEMBER who sees no Remove button and whose direct call is 403. Elements are found by role
// and accessible name. (docs/console/'s screenshots come from docs/console/screenshots.mjs.)
import type { Browser } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchFromPage, openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ sinkDomains: ['readers.test'], senders: ['pages.test'] }), startBrowser()]);
  const d = env.daemon;
  for (const role of ['OWNER', 'ADMIN', 'MEMBER']) makeUser(d, `${role.toLowerCase()}@pages.test`, { id: d.project.id, role });
  // mail that delivers, and two addresses that hard-bounce (suppressed)
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 no such user' } : null));
  const template = await d.request('POST', '/templates', { name: 'n', subject: 'News', body: '<p>Hi</p>', from: 'news@pages.test', type: 'MARKETING' });
  for (const to of ['ann@readers.test', 'bob@readers.test', 'cy@readers.test', 'gone1@readers.test', 'gone2@readers.test']) {
    assert.is((await d.request('POST', '/v1/send', { to, template: template.body.id, subscribed: true })).status, 200);
  }
  await eventually(async () => ((await d.request('GET', '/suppressions')).body.data.length === 2 ? true : null), 10_000, 'two suppressions');
  for (const [email, plan] of [['ann@readers.test', 'pro'], ['bob@readers.test', 'free'], ['cy@readers.test', 'pro']]) {
    await d.request('POST', '/contacts', { email, data: { plan } });
  }
});
test.after(async () => {
  await browser?.close();
  await env?.close();
});
test.after.each(async () => {
  for (const tab of tabs.splice(0)) await tab.context.close();
});

async function signedIn(role: string, path: string): Promise<ConsoleTab> {
  const tab = await openTab(browser, `${env.daemon.url}/app${path}`);
  tabs.push(tab);
  await signInAs(tab.page, `${role.toLowerCase()}@pages.test`, PASSWORD);
  return tab;
}

const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');

test('the overview shows the numbers the API gives, the queue and the alerts', async () => {
  const tab = await signedIn('ADMIN', '/');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  const api = (await env.daemon.request('GET', '/stats/daily?days=7')).body.data as Record<string, number>[];
  const total = (m: string) => api.reduce((sum, d) => sum + d[m]!, 0);
  assert.is(total('sent'), 5);
  for (const [label, metric] of [['Sent', 'sent'], ['Delivered', 'delivered'], ['Bounced', 'bounced'], ['Opened', 'opened']] as const) {
    assert.is(await page.getByRole('cell', { name: `${label} total` }).textContent(), String(total(metric)), label);
  }
  await page.getByRole('img', { name: /Emails per day/ }).waitFor();
  const alerts = page.getByRole('region', { name: 'Needs your attention' });
  await alerts.getByText('of the emails sent in the last 7 days bounced (2 of 5)').waitFor();
  await page.getByRole('radio', { name: 'Last 30 days' }).check();
  await page.getByRole('table', { name: 'Totals of the last 30 days' }).waitFor();
  // a card per sender domain: 2 of 5 bounced is 40%, but 5 emails are too few to judge (under 100)
  const card = page.getByRole('region', { name: 'Sender health' }).getByRole('article', { name: 'pages.test' });
  await card.getByText('Not enough mail to judge yet').waitFor();
  assert.is(await card.getByText('40.00%').count(), 2, 'the bounce rate over 7 and 30 days');
  assert.is(await card.getByText('target under 0.10%, limit 0.30%').count(), 2, "the complaint rate's thresholds");
  noProblems(tab);
  // a MEMBER's overview has no sender health (GET /domains is an ADMIN's)
  const member = await signedIn('MEMBER', '/');
  await member.page.getByRole('region', { name: 'Needs your attention' }).waitFor();
  assert.is(await member.page.getByRole('heading', { name: 'Sender health' }).count(), 0);
  noProblems(member);
});

test('import a CSV: the progress finishes, a rejected row shows its reason', async () => {
  const tab = await signedIn('MEMBER', '/contacts/import');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Import contacts', level: 1 }).waitFor();
  const csv = ['email,plan,seats', 'dee@readers.test,pro,3', 'not-an-address,free,1', 'eve@readers.test,free,2', ''].join('\n');
  await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('heading', { name: 'Imported' }).waitFor();
  await page.getByText('3 rows: 2 contacts created, 0 updated, 1 rejected.').waitFor();
  const rejected = page.getByRole('table', { name: /Rejected rows/ }).getByRole('row', { name: /^3 / });
  assert.match((await rejected.textContent()) ?? '', /email/i, 'the reason names the email');
  const found = await env.daemon.request('POST', '/contacts/lookup', { emails: ['dee@readers.test', 'eve@readers.test'] });
  assert.is(found.body.found.length, 2);
  noProblems(tab);
});

test('the progress bar of a larger import ends at 100', async () => {
  const tab = await signedIn('MEMBER', '/contacts/import');
  const { page } = tab;
  const rows = Array.from({ length: 3000 }, (_, i) => `bulk${i}@readers.test,${i}`);
  await page.getByLabel('CSV file').setInputFiles({ name: 'many.csv', mimeType: 'text/csv', buffer: Buffer.from(['email,n', ...rows].join('\n')) });
  await page.getByRole('button', { name: 'Import' }).click();
  const bar = page.getByRole('progressbar', { name: 'Import progress' });
  await bar.waitFor();
  await page.getByText('3000 rows: 3000 contacts created, 0 updated, 0 rejected.').waitFor({ timeout: 30_000 });
  assert.is(await bar.getAttribute('value'), '100');
  await page.getByRole('status').filter({ hasText: 'Done' }).waitFor();
  noProblems(tab);
});

test('find a contact by search and by a data field, open it, edit it', async () => {
  const tab = await signedIn('MEMBER', '/contacts');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
  await page.getByRole('searchbox', { name: 'Search by email' }).fill('ann@');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  const table = page.getByRole('table', { name: /Contacts of/ });
  await eventually(async (saw) => {
    const rows = await table.getByRole('row').count();
    saw({ rows });
    return rows === 2;
  }, 10_000, 'one contact found by search');
  await table.getByRole('link', { name: 'ann@readers.test' }).waitFor();

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByRole('textbox', { name: 'Field name' }).fill('plan');
  await page.getByRole('combobox', { name: 'Operator' }).selectOption('equals');
  await page.getByRole('textbox', { name: 'Value' }).fill('pro');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.getByRole('status').filter({ hasText: /^3 contacts$/ }).waitFor();
  const emails = await table.getByRole('rowheader').allTextContents();
  assert.equal(emails.sort(), ['ann@readers.test', 'cy@readers.test', 'dee@readers.test']);

  await table.getByRole('link', { name: 'cy@readers.test' }).click();
  await page.getByRole('heading', { name: 'cy@readers.test', level: 1 }).waitFor();
  await page.getByRole('region', { name: 'Activity' }).getByText('email.sent').waitFor();
  await page.getByRole('button', { name: 'Edit data' }).click();
  await page.getByRole('button', { name: 'Edit as JSON' }).click();
  await page.getByRole('textbox', { name: 'Data (JSON)' }).fill('{"plan": "team", "seats": 4}');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  const cy = (await env.daemon.request('GET', '/contacts?search=cy%40readers')).body.data[0];
  assert.equal(cy.data, { plan: 'team', seats: 4 });
  noProblems(tab);
});

test('a contact that a send created says why it is unsubscribed; one a bounce unsubscribed does not', async () => {
  const d = env.daemon;
  const sent = await d.request('POST', '/v1/send', { to: 'dan@readers.test', from: 'hello@pages.test', subject: 'Receipt', body: '<p>Thanks</p>' });
  assert.is(sent.status, 200);
  const tab = await signedIn('MEMBER', `/contacts/${sent.body.data.emails[0].contact.id}`);
  const { page } = tab;
  await page.getByRole('heading', { name: 'dan@readers.test', level: 1 }).waitFor();
  await page.getByText(/^Never subscribed: a contact that a send \(\/v1\/send\) creates starts unsubscribed/).waitFor();

  // gone2 was sent to with subscribed: true, then its hard bounce unsubscribed it
  const gone = (await d.request('GET', '/contacts?search=gone2')).body.data[0];
  assert.is(gone.subscribed, false);
  const asked = page.waitForResponse((r) => r.url().includes('types=contact.subscribed'));
  await page.goto(`${d.url}/app/contacts/${gone.id}`);
  await page.getByRole('heading', { name: 'gone2@readers.test', level: 1 }).waitFor();
  await asked;
  await page.getByRole('region', { name: 'Activity' }).getByText('contact.unsubscribed').waitFor();
  assert.is(await page.getByText(/^Never subscribed/).count(), 0);
  noProblems(tab);
});

test('bulk-unsubscribe two selected contacts, with progress', async () => {
  const tab = await signedIn('MEMBER', '/contacts');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
  // the filters live in the address: a link to them opens the page filtered
  await page.goto(`${env.daemon.url}/app/contacts/all?field=plan&operator=equals&value=free`);
  const table = page.getByRole('table', { name: /Contacts of/ });
  await table.getByRole('link', { name: 'bob@readers.test' }).waitFor();
  await page.getByRole('checkbox', { name: 'Select bob@readers.test' }).check();
  await page.getByRole('checkbox', { name: 'Select eve@readers.test' }).check();
  await page.getByRole('button', { name: 'Unsubscribe selected' }).click();
  await page.getByRole('status').filter({ hasText: 'unsubscribe: 2 changed' }).waitFor();
  const found = await env.daemon.request('POST', '/contacts/lookup', { emails: ['bob@readers.test', 'eve@readers.test'] });
  assert.equal(found.body.found.map((c: { subscribed: boolean }) => c.subscribed), [false, false]);
  noProblems(tab);
});

test('an ADMIN removes a suppression with a reason; the reason is kept', async () => {
  const tab = await signedIn('ADMIN', '/contacts/suppressions');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Suppressions', level: 1 }).waitFor();
  const table = page.getByRole('table', { name: 'Suppressed addresses, newest first' });
  await table.getByRole('row', { name: /gone1@readers\.test/ }).waitFor();
  await page.getByRole('button', { name: 'Remove the suppression of gone1@readers.test' }).click();
  const reason = page.getByRole('textbox', { name: 'Reason' });
  assert.ok(await reason.evaluate((el) => el === el.ownerDocument.activeElement), 'the reason field has the focus');
  await reason.fill('The customer fixed the mailbox');
  await page.getByRole('button', { name: 'Remove suppression' }).click();
  await page.getByRole('status').filter({ hasText: 'The suppression of gone1@readers.test is removed.' }).waitFor();
  await table.getByRole('row', { name: /gone1@readers\.test/ }).waitFor({ state: 'detached' });
  await page.getByRole('table', { name: /The latest removals/ }).getByRole('row', { name: /gone1@readers\.test/ }).getByText('The customer fixed the mailbox').waitFor();
  const audit = (await env.daemon.request('GET', '/suppressions/removals')).body.data[0];
  assert.equal([audit.email, audit.removedBy, audit.note], ['gone1@readers.test', 'admin@pages.test', 'The customer fixed the mailbox']);
  noProblems(tab);
});

test('a MEMBER sees the suppressions but no Remove button, and the direct call is 403', async () => {
  const tab = await signedIn('MEMBER', '/contacts/suppressions');
  const { page } = tab;
  await page.getByRole('table', { name: 'Suppressed addresses, newest first' }).getByRole('row', { name: /gone2@readers\.test/ }).waitFor();
  assert.is(await page.getByRole('button', { name: /Remove/ }).count(), 0);
  assert.is(await fetchFromPage(page, 'DELETE', '/suppressions/gone2%40readers.test', env.daemon.project.id, { reason: 'sneaky' }), 403);
  assert.is((await env.daemon.request('GET', '/suppressions?search=gone2')).body.data.length, 1, 'still suppressed');
  noProblems(tab);
});

test.run();
