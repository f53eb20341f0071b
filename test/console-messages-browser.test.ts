// The console's Messages in Debian's Chromium against the real daemon delivering to a loopback MX
// (STARTTLS): find an email by search and open its timeline (the MX host, TLS and the reply of each
// attempt, the bounce); opens and clicks in the timeline; the status, campaign and day-range
// filters and Load more; the raw source for an ADMIN (headers, DKIM from DNS) and not for a MEMBER.
// Elements are found by role and accessible name.
import type { Browser, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchFromPage, openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { openAndClick } from './helpers/engage.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];
/** The daemon's time once the last email is made: two days after the others. */
let laterAt: number;
const RECEIPTS = 30;
const ids: Record<string, string> = {};

async function send(to: string, subject: string, body = '<p>Thanks for your order.</p>'): Promise<string> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'shop@news.test', subject, body });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.data.emails[0].email;
}

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ sinkDomains: ['readers.test'], senders: ['news.test'], sink: { tls: true } }), startBrowser()]);
  const d = env.daemon;
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 <gone@readers.test>: no such user here' } : null));
  d.cli('project', 'tracking', d.project.id, 'on');
  for (const email of ['cai@readers.test', 'cole@readers.test']) assert.ok((await d.request('POST', '/contacts', { email, subscribed: true })).status < 300);
  const campaign = await d.request('POST', '/campaigns', { name: 'Autumn news', subject: 'Autumn is here', body: '<p>Leaves</p>', from: 'shop@news.test', audienceType: 'ALL', type: 'MARKETING' });
  assert.is(campaign.status, 201, JSON.stringify(campaign.body));
  assert.is((await d.request('POST', `/campaigns/${campaign.body.data.id}/send`, {})).status, 200);
  await Promise.all(Array.from({ length: RECEIPTS }, (_, i) => send(`r${i}@readers.test`, `Receipt ${i}`)));
  ids.gone = await send('gone@readers.test', 'Undeliverable');
  ids.ann = await send('ann@readers.test', 'Tracked welcome', '<p><a href="https://example.com/start">Start here</a></p>');
  await env.idle();
  await openAndClick(env.daemon, ids.ann);
  laterAt = await env.advance(2 * 24 * 3600_000);
  ids.later = await send('later@readers.test', 'Two days on');
  await env.idle();
  makeUser(d, 'admin@news.test', { id: d.project.id, role: 'ADMIN' });
  makeUser(d, 'member@news.test', { id: d.project.id, role: 'MEMBER' });
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
  await signInAs(tab.page, `${role.toLowerCase()}@news.test`, PASSWORD);
  return tab;
}

const log = (page: Page) => page.getByRole('table', { name: 'Emails, newest first' });
/** The recipients the log shows, top to bottom. */
const recipients = async (page: Page) => log(page).getByRole('rowheader').allTextContents();
const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');

/** Clear filters, and wait until the address has none (the form starts anew from it). */
async function clear(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.waitForURL(/\/app\/messages$/);
}

/** Waits until the log's status says how many emails it shows. */
async function shown(page: Page, text: string): Promise<void> {
  await page.getByRole('status').filter({ hasText: new RegExp(`^${text.replace('+', '\\+')}$`) }).waitFor();
}

test('find an email by search and open its timeline: MX host, TLS and reply of the attempt, then the bounce', async () => {
  const tab = await signedIn('MEMBER', '/messages');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor();
  await page.getByRole('searchbox', { name: 'Search recipient or subject' }).fill('undeliverABLE');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await shown(page, '1 email');
  await log(page).getByRole('link', { name: 'gone@readers.test' }).click();
  await page.getByRole('heading', { name: 'Email to gone@readers.test', level: 1 }).waitFor();
  const api = (await env.daemon.request('GET', `/emails/${ids.gone}`)).body;
  assert.is(api.attempts.length, 1);
  const [attempt] = api.attempts;
  assert.match(attempt.mx, /^mx\.readers\.test\[127\.0\.0\.1\]/);
  assert.ok(attempt.tls, 'the sink offers STARTTLS');
  const entry = page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').filter({ hasText: 'Delivery attempt' });
  assert.is(await entry.getByRole('definition').nth(0).textContent(), attempt.mx);
  assert.is(await entry.getByRole('definition').nth(1).textContent(), attempt.tls);
  assert.is(await entry.getByRole('definition').nth(2).textContent(), attempt.reply);
  assert.match(attempt.reply, '5.1.1');
  assert.match((await entry.textContent()) ?? '', 'refused (bounced)');
  const names = await page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').locator('strong').allTextContents();
  assert.is(names[0], 'Queued', names.join(' | '));
  assert.is(names.at(-1), 'Bounced', names.join(' | '));
  assert.is(await page.getByRole('link', { name: 'View the raw source' }).count(), 0, 'a MEMBER gets no raw source');
  noProblems(tab);
});

test("the timeline shows the email's opens and clicks", async () => {
  const tab = await signedIn('MEMBER', `/messages/${ids.ann}`);
  const timeline = tab.page.getByRole('list', { name: 'Timeline' });
  await timeline.getByText('Opened', { exact: true }).waitFor();
  await timeline.getByRole('listitem').filter({ hasText: 'Clicked' }).getByText('https://example.com/start').waitFor();
  await tab.page.getByRole('definition').filter({ hasText: /^1, 1$/ }).waitFor();
  noProblems(tab);
});

test('filters by status, campaign and days live in the address; Load more pages the log', async () => {
  const tab = await signedIn('MEMBER', '/messages');
  const { page } = tab;
  await shown(page, '25+ emails');
  await page.getByRole('button', { name: 'Load more' }).click();
  await shown(page, `${RECEIPTS + 5} emails`);
  assert.is((await recipients(page)).length, RECEIPTS + 5);
  assert.is((await recipients(page))[0], 'later@readers.test', 'newest first');
  assert.is(await page.getByRole('button', { name: 'Load more' }).count(), 0);

  await page.getByRole('combobox', { name: 'Status' }).selectOption('bounced');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await shown(page, '1 email');
  assert.equal(await recipients(page), ['gone@readers.test']);
  assert.match(page.url(), /status=bounced/);

  await clear(page);
  await page.getByRole('combobox', { name: 'Campaign' }).selectOption({ label: 'Autumn news' });
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await shown(page, '2 emails');
  assert.equal((await recipients(page)).sort(), ['cai@readers.test', 'cole@readers.test']);

  // the days in the browser's own time zone, as a person picks them
  const [today, later] = await page.evaluate((at) => [Date.now(), at].map((ms) => new Date(ms).toLocaleDateString('en-CA')), laterAt);
  await clear(page);
  await page.getByLabel('Sent since').fill(later!);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await shown(page, '1 email');
  assert.equal(await recipients(page), ['later@readers.test']);
  await clear(page);
  await page.getByLabel('Sent until').fill(today!);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await shown(page, '25+ emails');
  assert.not.ok((await recipients(page)).includes('later@readers.test'));

  // a filtered log is a link
  await page.goto(`${env.daemon.url}/app/messages?search=receipt%2029`);
  await shown(page, '1 email');
  assert.equal(await recipients(page), ['r29@readers.test']);
  assert.is(await page.getByRole('searchbox', { name: 'Search recipient or subject' }).inputValue(), 'receipt 29');
  noProblems(tab);
});

test('an ADMIN opens the raw source: headers, text and DKIM verified from DNS; a MEMBER may not', async () => {
  const tab = await signedIn('ADMIN', `/messages/${ids.ann}`);
  const { page } = tab;
  await page.getByRole('link', { name: 'View the raw source' }).click();
  await page.getByRole('heading', { name: 'Source: Tracked welcome', level: 1 }).waitFor();
  await page.getByTitle('Rendered message').contentFrame().getByRole('link', { name: 'Start here' }).waitFor();
  await page.getByRole('table', { name: /headers, in order/ }).getByRole('row', { name: /^DKIM-Signature / }).waitFor();
  await page.getByRole('region', { name: 'Text part' }).getByText(/Start here/).waitFor();
  const dkim = page.getByRole('list', { name: 'DKIM signatures' }).getByRole('listitem');
  await dkim.first().waitFor();
  const results = await dkim.allTextContents();
  assert.is(results.length, 1, results.join(' | '));
  assert.match(results[0]!, `DKIM pass for news.test (selector ${await selectorOf()})`);
  assert.not.match(results[0]!, 'not yet in DNS', 'the key came from DNS');
  await page.getByText('SpamAssassin: spamd not configured').waitFor();
  noProblems(tab);

  const member = await signedIn('MEMBER', `/messages/${ids.ann}/source`);
  await member.page.getByRole('heading', { name: 'Not allowed', level: 1 }).waitFor();
  assert.is(await fetchFromPage(member.page, 'GET', `/emails/${ids.ann}/raw`, env.daemon.project.id), 403);
});

/** The DKIM selector news.test signs with (its published record's name). */
async function selectorOf(): Promise<string> {
  const domains = (await env.daemon.request('GET', `/domains/project/${env.daemon.project.id}`)).body.data;
  const record = domains.find((x: any) => x.domain === 'news.test').records.find((r: any) => r.purpose === 'dkim');
  return record.name.split('._domainkey')[0];
}

test.run();
