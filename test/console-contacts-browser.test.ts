// The console's contacts in Debian's Chromium against the real daemon: the list shows the project's
// most common data fields as columns, values formatted by type (numbers for the locale, days, Yes and
// No), and the viewer's choice of columns is kept across a reload; the contact page lists its data
// as field and value and edits it in a typed form (a number, a boolean, a date changed, a field
// added, one removed) whose save the API then holds; text in a number field is said on the field
// and nothing is sent; the API's 422 is shown on the field it names. Elements are found by role and
// accessible name.
import type { Browser, Locator, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;
let browser: Browser;
const tabs: ConsoleTab[] = [];
const ids: Record<string, string> = {};

const LAST_SEEN = '2026-11-20T14:30:00.000Z';

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const r = await d.request(method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

test.before(async () => {
  [d, browser] = await Promise.all([startTestDaemon({ config: { rateLimit: { perMinute: 0 } } }), startBrowser()]);
  makeUser(d, 'member@contacts.test', { id: d.project.id, role: 'MEMBER' });
  // plan and seats on every contact, trial and renewsOn on two of three, the rest on one
  const people: [string, Record<string, unknown>][] = [
    ['ann@contacts.test', { plan: 'pro', seats: 5, trial: true, renewsOn: '2027-03-15', lastSeen: LAST_SEEN, address: { city: 'Oslo' }, nickname: 'Annie' }],
    ['bob@contacts.test', { plan: 'free', seats: 1234, trial: false, renewsOn: '2027-01-02' }],
    ['cy@contacts.test', { plan: 'team', seats: 2, note: 'rare' }],
  ];
  for (const [email, data] of people) ids[email] = (await ok('POST', '/contacts', { email, data })).id;
});
test.after(async () => {
  await browser?.close();
  await d?.dispose();
});
// closes the tabs only: a hook that throws would hide the failure of its test
test.after.each(async () => {
  for (const tab of tabs.splice(0)) await tab.context.close();
});

async function signedIn(path: string): Promise<ConsoleTab> {
  const tab = await openTab(browser, `${d.url}/app${path}`);
  tabs.push(tab);
  await signInAs(tab.page, 'member@contacts.test', PASSWORD);
  return tab;
}

const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');

/** How the browser's locale and time zone write a number, a day and a moment (what the page should show). */
async function formatsOf(page: Page) {
  const language = await page.evaluate(() => (globalThis as any).navigator.language as string);
  return {
    number: (n: number) => new Intl.NumberFormat(language).format(n),
    day: (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`)),
    moment: (iso: string) =>
      new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso)),
  };
}

/** The data columns' names, after the checkbox, Email and Subscribed, before Created. */
async function dataColumns(table: Locator): Promise<string[]> {
  const names = await table.getByRole('columnheader').allTextContents();
  assert.equal([names[1], names[2], names.at(-1)], ['Email', 'Subscribed', 'Created']);
  return names.slice(3, -1);
}

/** A row's cells by column name. */
async function rowOf(table: Locator, email: string): Promise<Record<string, string>> {
  const names = await table.getByRole('columnheader').allTextContents();
  const row = table.getByRole('row').filter({ has: table.page().getByRole('link', { name: email, exact: true }) });
  const cells = await row.getByRole('cell').allTextContents();
  // the first column is the checkbox cell, the second the email as the row's header
  return Object.fromEntries(cells.slice(1).map((text, i) => [names[i + 2]!, text]));
}

/** The contact page's data list: each term with its definition. */
async function definitions(page: Page): Promise<Record<string, string>> {
  const region = page.getByRole('region', { name: 'Data and subscription' });
  const terms = await region.getByRole('term').allTextContents();
  const values = await region.getByRole('definition').allTextContents();
  return Object.fromEntries(terms.map((t, i) => [t, values[i]!]));
}

test('the list shows the most common data fields as columns, formatted by type; a chosen set is kept', async () => {
  const tab = await signedIn('/contacts');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
  const table = page.getByRole('table', { name: /Contacts of/ });
  await table.getByRole('link', { name: 'bob@contacts.test' }).waitFor();
  const f = await formatsOf(page);
  // 8 data fields: the four most contacts have, in the fields' order
  await page.getByRole('columnheader', { name: 'trial' }).waitFor();
  assert.equal(await dataColumns(table), ['plan', 'renewsOn', 'seats', 'trial']);
  const bob = await ok('GET', `/contacts/${ids['bob@contacts.test']}`);
  assert.equal(await rowOf(table, 'bob@contacts.test'), {
    Subscribed: 'Yes',
    plan: 'free',
    renewsOn: f.day('2027-01-02'),
    seats: f.number(1234),
    trial: 'No',
    Created: f.moment(bob.createdAt),
  });
  assert.is((await rowOf(table, 'ann@contacts.test')).trial, 'Yes');
  assert.is((await rowOf(table, 'cy@contacts.test')).trial, '', 'a contact without the field has an empty cell');

  // a moment in, a day out; the choice survives a reload
  await page.getByText(/^Columns \(4 of 8 data fields\)$/).click();
  const chooser = page.getByRole('group', { name: 'Data fields shown as columns' });
  await chooser.getByRole('checkbox', { name: 'lastSeen' }).check();
  await chooser.getByRole('checkbox', { name: 'renewsOn' }).uncheck();
  assert.equal(await dataColumns(table), ['lastSeen', 'plan', 'seats', 'trial']);
  assert.is((await rowOf(table, 'ann@contacts.test')).lastSeen, f.moment(LAST_SEEN), "in the viewer's time zone, the zone named");
  await page.reload();
  await page.getByRole('columnheader', { name: 'lastSeen' }).waitFor();
  assert.equal(await dataColumns(table), ['lastSeen', 'plan', 'seats', 'trial']);
  await page.getByText(/^Columns \(4 of 8 data fields\)$/).click();
  await chooser.getByRole('button', { name: 'Show the most common' }).click();
  await page.getByRole('columnheader', { name: 'renewsOn' }).waitFor();
  assert.equal(await dataColumns(table), ['plan', 'renewsOn', 'seats', 'trial']);
  noProblems(tab);
});

test('the contact page lists the data and edits it in a typed form; the API holds what was saved', async () => {
  const ann = ids['ann@contacts.test']!;
  const tab = await signedIn(`/contacts/${ann}`);
  const { page } = tab;
  await page.getByRole('heading', { name: 'ann@contacts.test', level: 1 }).waitFor();
  const f = await formatsOf(page);
  const region = page.getByRole('region', { name: 'Data and subscription' });
  await region.getByRole('term').filter({ hasText: 'seats' }).waitFor();
  assert.equal(await definitions(page), {
    Subscribed: 'Yes',
    plan: 'pro',
    seats: f.number(5),
    trial: 'Yes',
    renewsOn: f.day('2027-03-15'),
    lastSeen: f.moment(LAST_SEEN),
    address: '{"city":"Oslo"}',
    nickname: 'Annie',
  });

  await region.getByRole('button', { name: 'Edit data' }).click();
  const form = page.getByRole('form', { name: 'Edit data and subscription' });
  const patches: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH') patches.push(r.url());
  });
  // text in a number field: said on the field, nothing sent
  const seats = form.getByRole('textbox', { name: 'seats', exact: true });
  assert.is(await seats.inputValue(), '5');
  await seats.fill('five');
  await form.getByText('Enter a number, such as 42 or -3.5').waitFor();
  assert.is(await seats.getAttribute('aria-invalid'), 'true');
  await form.getByRole('button', { name: 'Save' }).click();
  await form.getByText('Not saved: the fields marked say what to fix.').waitFor();
  assert.equal(patches, [], 'nothing was sent');

  // a number, a boolean and a date changed; a field removed; one added (a reserved name refused first)
  await seats.fill('12');
  assert.is(await seats.getAttribute('aria-invalid'), null);
  await form.getByRole('checkbox', { name: 'trial', exact: true }).uncheck();
  await form.getByLabel('renewsOn', { exact: true }).fill('2027-04-01');
  await form.getByRole('button', { name: 'Remove nickname' }).click();
  await form.getByRole('button', { name: 'Keep nickname' }).waitFor();
  const add = form.getByRole('group', { name: 'Add a field' });
  await add.getByRole('textbox', { name: 'Name' }).fill('email');
  await add.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Number' });
  await add.getByRole('textbox', { name: 'Value' }).fill('7.5');
  await add.getByRole('button', { name: 'Add field' }).click();
  await add.getByText('"email" is reserved: contact data never holds it').waitFor();
  await add.getByRole('textbox', { name: 'Name' }).fill('score');
  await add.getByRole('button', { name: 'Add field' }).click();
  assert.is(await form.getByRole('textbox', { name: 'score', exact: true }).inputValue(), '7.5');
  await form.getByRole('button', { name: 'Save' }).click();
  await region.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal(patches.length, 1);

  const saved = await ok('GET', `/contacts/${ann}`);
  assert.equal(saved.data, { plan: 'pro', seats: 12, trial: false, renewsOn: '2027-04-01', lastSeen: LAST_SEEN, address: { city: 'Oslo' }, score: 7.5 });
  await region.getByRole('term').filter({ hasText: 'score' }).waitFor();
  const shown = await definitions(page);
  assert.equal([shown.seats, shown.trial, shown.score, shown.renewsOn, shown.nickname], [f.number(12), 'No', f.number(7.5), f.day('2027-04-01'), undefined]);
  noProblems(tab);
});

test("the API's 422 is shown on the field it names; nothing is stored", async () => {
  const cy = ids['cy@contacts.test']!;
  const tab = await signedIn(`/contacts/${cy}`);
  const { page } = tab;
  await page.getByRole('heading', { name: 'cy@contacts.test', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Edit data' }).click();
  const form = page.getByRole('form', { name: 'Edit data and subscription' });
  // contact data nests at most 32 levels: this object is 40 deep
  let deep: unknown = 'leaf';
  for (let i = 0; i < 40; i++) deep = { a: deep };
  const add = form.getByRole('group', { name: 'Add a field' });
  await add.getByRole('textbox', { name: 'Name' }).fill('tree');
  await add.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'JSON (object or array)' });
  await add.getByRole('textbox', { name: 'Value' }).fill(JSON.stringify(deep));
  await add.getByRole('button', { name: 'Add field' }).click();
  await form.getByRole('textbox', { name: 'note', exact: true }).fill('still rare');
  const answered = page.waitForResponse((r) => r.request().method() === 'PATCH');
  await form.getByRole('button', { name: 'Save' }).click();
  assert.is((await answered).status(), 422);
  const tree = form.getByRole('textbox', { name: 'tree', exact: true });
  await form.getByText('Contact data nests at most 32 levels').waitFor();
  assert.is(await tree.getAttribute('aria-invalid'), 'true');
  const describedBy = (await tree.getAttribute('aria-describedby'))!.split(' ');
  assert.ok(
    await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent())).then((texts) => texts.includes('Contact data nests at most 32 levels')),
    "the problem is the field's description",
  );
  await form.getByText('Not saved: the fields marked say why.').waitFor();
  assert.equal((await ok('GET', `/contacts/${cy}`)).data, { plan: 'team', seats: 2, note: 'rare' });

  // the same edit as JSON: a field left out is removed when saved
  await form.getByRole('button', { name: 'Remove tree' }).click();
  await form.getByRole('button', { name: 'Edit as JSON' }).click();
  const json = form.getByRole('textbox', { name: 'Data (JSON)' });
  assert.equal(JSON.parse(await json.inputValue()), { plan: 'team', seats: 2, note: 'still rare' });
  await json.fill('{"plan": "team", "seats": 3}');
  await form.getByRole('button', { name: 'Edit as a form' }).click();
  await form.getByRole('button', { name: 'Keep note' }).waitFor();
  assert.is(await form.getByRole('textbox', { name: 'seats', exact: true }).inputValue(), '3');
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('region', { name: 'Data and subscription' }).getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal((await ok('GET', `/contacts/${cy}`)).data, { plan: 'team', seats: 3 });
  noProblems(tab);
});

test.run();
