// The console's Segments pages in Debian's Chromium against the real daemon: a segment built in the
// filter builder (a group with a data field condition and an event condition, from the keyboard
// too) whose live count and sample follow the edits and equal GET /segments/{id}'s memberCount once
// saved; a problem shown at its condition; groups ORed with a nested condition; a static segment's
// members added by CSV (in batches of the API's 1000) and by hand, and removed by hand; a delete
// refused with the API's 409. Elements are found by role and accessible name.
import type { Browser, Locator, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import type { TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;
let browser: Browser;
const tabs: ConsoleTab[] = [];

/** plan and seats of each contact, and whether it bought (a `purchase` event). */
const PEOPLE = [
  { email: 'ann@seg.test', plan: 'pro', seats: 5, bought: true },
  { email: 'bob@seg.test', plan: 'free', seats: 1, bought: true },
  { email: 'cy@seg.test', plan: 'pro', seats: 12, bought: false },
  { email: 'dee@seg.test', plan: 'pro', seats: 2, bought: true },
  { email: 'eve@seg.test', plan: 'free', seats: 30, bought: false },
];

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const r = await d.request(method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ config: { rateLimit: { perMinute: 0 } } }), startBrowser()]);
  d = env.daemon;
  makeUser(d, 'member@seg.test', { id: d.project.id, role: 'MEMBER' });
  for (const p of PEOPLE) {
    await ok('POST', '/contacts', { email: p.email, data: { plan: p.plan, seats: p.seats } });
    if (p.bought) await ok('POST', '/events/track', { email: p.email, event: 'purchase' });
  }
});
test.after(async () => {
  await browser?.close();
  await env?.close();
});
// closes the tabs only: a hook that throws would hide the failure of its test
test.after.each(async () => {
  for (const tab of tabs.splice(0)) await tab.context.close();
});

async function signedIn(path: string): Promise<ConsoleTab> {
  const tab = await openTab(browser, `${d.url}/app${path}`);
  tabs.push(tab);
  await signInAs(tab.page, 'member@seg.test', PASSWORD);
  return tab;
}

const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
const h1 = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();
const condition = (page: Page, name: string): Locator => page.getByRole('group', { name: `Condition ${name}`, exact: true });
/** A select by its accessible name (a label's text would take in its options' too). */
const select = (scope: Page | Locator, name: string) => scope.getByRole('combobox', { name, exact: true });
const input = (scope: Page | Locator, name: string) => scope.getByLabel(name, { exact: true });
const isFocused = (l: Locator) => l.evaluate((el) => el === el.ownerDocument.activeElement);

/** The live count once it has settled on `expected` (what it says while counting, or last, on failure). */
async function liveCount(page: Page, expected: number): Promise<void> {
  const status = page.getByRole('region', { name: 'Members now' }).getByRole('status');
  const text = expected === 1 ? '1 contact matches' : `${expected} contacts match`;
  await eventually(async () => ((await status.textContent()) === text ? true : null), 10_000, `"${text}", the status says "${await status.textContent()}"`);
}

const sampleEmails = async (page: Page) => (await page.getByRole('region', { name: 'Members now' }).getByRole('rowheader').allTextContents()).sort();
const idOf = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

test('build a segment: a data field and an event condition; the live count and sample follow; saved, the count is GET /segments/{id} memberCount', async () => {
  const tab = await signedIn('/segments');
  const { page } = tab;
  await h1(page, 'Segments');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Segments', exact: true }).waitFor();
  await page.getByRole('button', { name: 'New segment' }).click();
  await h1(page, 'New segment');
  await input(page, 'Name').fill('Pro buyers');
  await liveCount(page, PEOPLE.length);

  await page.getByRole('button', { name: 'Add condition to group 1' }).click();
  const first = condition(page, '1 of group 1');
  assert.ok(await isFocused(select(first, 'Kind')), 'the new condition takes the focus');
  await select(first, 'Field').selectOption('data.plan');
  assert.is(await select(first, 'Operator').inputValue(), 'equals');
  await input(first, 'Value').fill('pro');
  await liveCount(page, 3);

  // the second from the keyboard
  await page.getByRole('button', { name: 'Add condition to group 1' }).focus();
  await page.keyboard.press('Enter');
  const second = condition(page, '2 of group 1');
  assert.ok(await isFocused(select(second, 'Kind')), 'the focus moved to the new condition');
  await select(second, 'Kind').selectOption({ label: 'Event' });
  await select(second, 'Event').selectOption('purchase');
  assert.is(await select(second, 'Operator').inputValue(), 'triggered');
  await liveCount(page, 2);
  assert.equal(await sampleEmails(page), ['ann@seg.test', 'dee@seg.test']);

  // a problem is shown at its condition, and the count waits for it to be fixed
  await select(second, 'Operator').selectOption({ label: 'happened within the last' });
  await input(second, 'Amount').fill('');
  const region = page.getByRole('region', { name: 'Members now' });
  await region.getByRole('status').filter({ hasText: 'Not counted: the condition has 1 problem' }).waitFor();
  assert.match((await second.getByRole('listitem').textContent()) ?? '', /positive number/);
  assert.is(await input(second, 'Amount').getAttribute('aria-invalid'), 'true');
  await input(second, 'Amount').fill('7');
  await liveCount(page, 2);

  await page.getByRole('button', { name: 'Create segment' }).click();
  await h1(page, 'Segment: Pro buyers');
  const id = idOf(page);
  const saved = await ok('GET', `/segments/${id}`);
  assert.equal(saved.condition, {
    logic: 'AND',
    groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }, { field: 'purchase', operator: 'triggeredWithin', value: 7, unit: 'days' }] }],
  });
  await liveCount(page, saved.memberCount);
  assert.is(saved.memberCount, 2);
  // the saved condition is shown as built
  assert.is(await select(condition(page, '1 of group 1'), 'Field').inputValue(), 'data.plan');
  assert.is(await select(condition(page, '2 of group 1'), 'Event').inputValue(), 'purchase');
  assert.is(await input(condition(page, '2 of group 1'), 'Amount').inputValue(), '7');

  // the list shows it with its count
  await page.getByRole('link', { name: 'All segments' }).click();
  await h1(page, 'Segments');
  assert.match((await page.getByRole('row', { name: /Pro buyers/ }).textContent()) ?? '', /Dynamic.*2/);
  noProblems(tab);
});

test("groups ORed with a nested condition of a data field and an event; typed values (number, date); saved, the count shown is GET /segments/{id}'s memberCount", async () => {
  const created = await ok('POST', '/segments', { name: 'Big or new', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.seats', operator: 'greaterThan', value: 10 }] }] } });
  const tab = await signedIn(`/segments/${created.id}`);
  const { page } = tab;
  await h1(page, 'Segment: Big or new');
  await liveCount(page, 2);
  await select(page, 'Contacts match').selectOption('OR');
  await page.getByRole('button', { name: 'Add group', exact: true }).click();
  const group2 = condition(page, '1 of group 2');
  assert.ok(await isFocused(select(group2, 'Kind')), 'the new group\'s condition takes the focus');
  await select(group2, 'Field').selectOption('createdAt');
  await select(group2, 'Operator').selectOption({ label: 'is before' });
  await input(group2, 'Date and time').fill('2000-01-01T00:00');
  // nobody was created before 2000: only group 1 (seats over 10: cy, eve)
  await liveCount(page, 2);
  await select(group2, 'Operator').selectOption({ label: 'is after' });
  await liveCount(page, PEOPLE.length);
  await page.getByRole('button', { name: 'Add nested condition to group 2' }).click();
  const nested = condition(page, '1 of group 2.1');
  assert.ok(await isFocused(select(nested, 'Kind')));
  await select(nested, 'Field').selectOption('data.seats');
  await select(nested, 'Operator').selectOption({ label: 'is at most' });
  await input(nested, 'Value').fill('3');
  // group 1 (seats over 10: cy, eve) or group 2 (created after 2000 and seats at most 3: bob, dee)
  await liveCount(page, 4);
  assert.equal(await sampleEmails(page), ['bob@seg.test', 'cy@seg.test', 'dee@seg.test', 'eve@seg.test']);
  // and, in the nested condition, an event: never bought leaves only those of group 1
  await page.getByRole('button', { name: 'Add condition to group 2.1' }).click();
  const event = condition(page, '2 of group 2.1');
  assert.ok(await isFocused(select(event, 'Kind')));
  await select(event, 'Kind').selectOption({ label: 'Event' });
  await select(event, 'Operator').selectOption({ label: 'never happened' });
  await liveCount(page, 2);
  await select(event, 'Operator').selectOption({ label: 'happened' });
  await liveCount(page, 4);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  // a changed condition is counted by a job: once the runner is idle, GET /segments/{id} has the count the builder showed
  await env.idle();
  const saved = await ok('GET', `/segments/${created.id}`);
  assert.is(saved.memberCount, 4);
  await liveCount(page, saved.memberCount);
  assert.is(saved.condition.logic, 'OR');
  assert.equal(saved.condition.groups[1].conditions, {
    logic: 'AND',
    groups: [{ filters: [{ field: 'data.seats', operator: 'lessThanOrEqual', value: 3 }, { field: 'purchase', operator: 'triggered' }] }],
  });
  noProblems(tab);
});

test('a static segment: members added from a CSV file in batches, found and added by hand, removed by hand', async () => {
  const tab = await signedIn('/segments/new');
  const { page } = tab;
  await h1(page, 'New segment');
  await input(page, 'Name').fill('Hand-picked');
  await page.getByLabel(/^Static/).check();
  assert.is(await page.getByRole('group', { name: 'Condition' }).count(), 0, 'a static segment has no condition');
  await page.getByRole('button', { name: 'Create segment' }).click();
  await h1(page, 'Segment: Hand-picked');
  const id = idOf(page);
  const members = page.getByRole('region', { name: 'Members', exact: true });
  await members.getByRole('status').filter({ hasText: '0 members' }).waitFor();

  // a header with an email column, quotes, a row without an address, an address twice, one not a contact
  const csv = ['name,email', 'Ann,ann@seg.test', '"Bob, Jr.","BOB@seg.test"', 'nobody,', 'Cy,cy@seg.test', 'Ann again,Ann@seg.test', 'Zed,zed@elsewhere.test', ''].join('\r\n');
  const file = page.getByLabel('CSV file of addresses');
  await file.setInputFiles({ name: 'vips.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Add from file' }).click();
  const csvRegion = page.getByRole('region', { name: 'Add or remove by CSV' });
  await csvRegion.getByText('4 addresses: 3 added, 0 contacts made, 1 not contacts of the project.').waitFor();
  await csvRegion.getByText('Not contacts: zed@elsewhere.test.').waitFor();
  await csvRegion.getByText('Rows without an address: 4.').waitFor();
  await members.getByRole('status').filter({ hasText: '3 members' }).waitFor();

  // by hand: find eve and add her, then remove ann
  await page.getByRole('searchbox', { name: 'Find contacts to add' }).fill('eve@');
  await page.getByRole('button', { name: 'Add eve@seg.test' }).click();
  await members.getByRole('status').filter({ hasText: '4 members' }).waitFor();
  await members.getByRole('button', { name: 'Remove ann@seg.test from the segment' }).click();
  await members.getByRole('status').filter({ hasText: '3 members; ann@seg.test removed.' }).waitFor();
  const api = await ok('GET', `/segments/${id}/contacts?pageSize=100`);
  assert.equal(api.data.map((c: { email: string }) => c.email).sort(), ['bob@seg.test', 'cy@seg.test', 'eve@seg.test']);
  assert.equal((await members.getByRole('rowheader').allTextContents()).sort(), ['bob@seg.test', 'cy@seg.test', 'eve@seg.test']);

  // 2500 addresses, new contacts made: three requests of at most 1000, one of them with an address the API refuses
  const many = Array.from({ length: 2500 }, (_, i) => (i === 1500 ? 'bad@-bulk.test' : `bulk${i}@bulk.test`));
  await file.setInputFiles({ name: 'many.csv', mimeType: 'text/csv', buffer: Buffer.from(['email', ...many].join('\n')) });
  await page.getByLabel('Make contacts of addresses that are not contacts yet (subscribed)').check();
  await page.getByRole('button', { name: 'Add from file' }).click();
  await csvRegion.getByText('2500 addresses: 2499 added, 2499 contacts made, 0 not contacts of the project.').waitFor({ timeout: 30_000 });
  await csvRegion.getByText('Refused as addresses: bad@-bulk.test.').waitFor();
  await members.getByRole('status').filter({ hasText: '2502 members' }).waitFor();
  assert.is((await ok('GET', `/segments/${id}/contacts?pageSize=1`)).total, 2502);

  // and removed by the same file
  await page.getByRole('button', { name: 'Remove from file' }).click();
  await csvRegion.getByText('2500 addresses: 2499 removed; the others were not members.').waitFor({ timeout: 30_000 });
  await members.getByRole('status').filter({ hasText: '3 members' }).waitFor();
  noProblems(tab);
});

test("deleting a segment another one uses shows the API's 409 and keeps it; an unused one is deleted", async () => {
  const used = await ok('POST', '/segments', { name: 'Base', condition: { logic: 'AND', groups: [{ filters: [] }] } });
  const user = await ok('POST', '/segments', { name: 'On top', condition: { logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: used.id }] }] } });
  const tab = await signedIn(`/segments/${used.id}`);
  const { page } = tab;
  await h1(page, 'Segment: Base');
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete Base?' }).getByRole('button', { name: 'Delete segment' }).click();
  await page.getByRole('alert').filter({ hasText: 'Base was not deleted: The segment is in use (used by segment "On top").' }).waitFor();
  assert.is((await d.request('GET', `/segments/${used.id}`)).status, 200);

  await page.goto(`${d.url}/app/segments/${user.id}`);
  await h1(page, 'Segment: On top');
  // the membership condition names the segment it reads (once the project's segments have loaded into its choices)
  await select(condition(page, '1 of group 1'), 'Segment').locator('option:checked').filter({ hasText: /^Base \(dynamic\)$/ }).waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete On top?' }).getByRole('button', { name: 'Delete segment' }).click();
  await h1(page, 'Segments');
  assert.is((await d.request('GET', `/segments/${user.id}`)).status, 404);
  assert.is(await page.getByRole('link', { name: 'On top' }).count(), 0);
  noProblems(tab);
});

test.run();
