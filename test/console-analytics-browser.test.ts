// A campaign's analytics page and the comparison in Debian's Chromium against the real daemon
// delivering to a loopback MX: two campaigns sent through the API (one recipient refused with a 550,
// one that opens and clicks), then the page's results, periods, links and domains equal what the
// API answers, and the comparison shows both campaigns side by side as /campaigns/compare does.
// Elements are found by role and accessible name.
import type { Browser, Locator, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { openAndClick } from './helpers/engage.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];
const campaigns: Record<'spring' | 'summer', string> = { spring: '', summer: '' };

async function sendCampaign(name: string): Promise<string> {
  const d = env.daemon;
  const body = '<p>Read <a href="https://news.test/story">the story</a> or <a href="https://news.test/shop">the shop</a>.</p>';
  const created = await d.request('POST', '/campaigns', { name, subject: `${name} is here`, body, from: 'editor@news.test', audienceType: 'ALL', type: 'MARKETING' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.id as string;
  assert.is((await d.request('POST', `/campaigns/${id}/send`, {})).status, 200);
  await env.idle();
  return id;
}

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ sinkDomains: ['readers.test', 'other.test'], senders: ['news.test'] }), startBrowser()]);
  const d = env.daemon;
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 no such user here' } : null));
  d.cli('project', 'tracking', d.project.id, 'on');
  for (const email of ['ann@readers.test', 'bo@readers.test', 'cy@other.test', 'gone@other.test']) assert.ok((await d.request('POST', '/contacts', { email, subscribed: true })).status < 300);
  campaigns.spring = await sendCampaign('Spring news');
  const emails = (await d.request('GET', `/emails?campaignId=${campaigns.spring}`)).body.data as { id: string; to: string }[];
  await openAndClick(d, emails.find((e) => e.to === 'ann@readers.test')!.id);
  await env.advance(3 * 3600_000);
  campaigns.summer = await sendCampaign('Summer news');
  makeUser(d, 'member@news.test', { id: d.project.id, role: 'MEMBER' });
});
test.after(async () => {
  await browser?.close();
  await env?.close();
});
test.after.each(async () => {
  for (const tab of tabs.splice(0)) await tab.context.close();
});

async function signedIn(path: string): Promise<ConsoleTab> {
  const tab = await openTab(browser, `${env.daemon.url}/app${path}`);
  tabs.push(tab);
  await signInAs(tab.page, 'member@news.test', PASSWORD);
  return tab;
}

/** A table's body rows as [row header, cells...], once it has `count` of them. */
async function rowsOf(table: Locator, count: number): Promise<string[][]> {
  const rows = table.getByRole('row').filter({ has: table.page().getByRole('cell') });
  await rows.nth(count - 1).waitFor();
  assert.is(await rows.count(), count, 'rows in the table');
  return Promise.all((await rows.all()).map(async (row) => [...(await row.getByRole('rowheader').allTextContents()), ...(await row.getByRole('cell').allTextContents())]));
}

/** Ticks or unticks a campaign: the choice is the address's, so the box changes once the page has followed it. */
async function choose(page: Page, name: string, on: boolean): Promise<void> {
  const box = page.getByRole('checkbox', { name });
  await box.click();
  const deadline = Date.now() + 10_000;
  while ((await box.isChecked()) !== on) {
    if (Date.now() > deadline) throw new Error(`${name}: still ${on ? 'unticked' : 'ticked'} 10 s after the click`);
    await page.waitForTimeout(50);
  }
}

const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
const utc = (at: string) => `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
const RESULTS: [string, string, string | null][] = [
  ['Recipients', 'totalRecipients', null],
  ['Sent', 'sentCount', null],
  ['Delivered', 'deliveredCount', 'deliveryRate'],
  ['Opened', 'openedCount', 'openRate'],
  ['Clicked', 'clickedCount', 'clickRate'],
  ['Bounced', 'bouncedCount', 'bounceRate'],
  ['Complaints', 'complainedCount', 'complaintRate'],
  ['Unsubscribed', 'unsubscribedCount', 'unsubscribeRate'],
];

test("from the Campaigns navigation to a campaign's analytics: results, periods, links and domains equal the API's", async () => {
  const d = env.daemon;
  const tab = await signedIn('/overview');
  const { page } = tab;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
  await page.getByRole('navigation', { name: 'Campaigns' }).getByRole('link', { name: 'Compare' }).click();
  await page.getByRole('heading', { name: 'Compare campaigns', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Analytics of Spring news' }).click();
  await page.getByRole('heading', { name: 'Analytics: Spring news', level: 1 }).waitFor();

  const stats = (await d.request('GET', `/campaigns/${campaigns.spring}/stats`)).body.data;
  assert.equal([stats.totalRecipients, stats.deliveredCount, stats.openedCount, stats.clickedCount, stats.bouncedCount], [4, 3, 1, 1, 1], 'the campaign went as set up');
  assert.equal(
    await rowsOf(page.getByRole('table', { name: 'Results', exact: true }), RESULTS.length),
    RESULTS.map(([label, count, rate]) => [label, String(stats[count]), rate ? `${stats[rate]}%` : '']),
  );

  const analytics = (await d.request('GET', `/campaigns/${campaigns.spring}/analytics`)).body;
  assert.equal(
    await rowsOf(page.getByRole('table', { name: 'Links clicked, the most clicked first' }), analytics.links.length),
    analytics.links.map((l: any) => [l.url, String(l.clicks), String(l.uniqueClicks)]),
  );
  assert.equal(analytics.links, [{ url: 'https://news.test/story', clicks: 1, uniqueClicks: 1 }]);
  assert.equal(
    await rowsOf(page.getByRole('table', { name: 'Results by recipient domain, the most outcomes first' }), analytics.domains.length),
    analytics.domains.map((x: any) => [x.domain, String(x.delivered), String(x.deferred), String(x.bounced), String(x.complained)]),
  );
  assert.equal(analytics.domains.map((x: any) => x.domain), ['other.test', 'readers.test'], 'two outcomes each, then by name');
  const series = (await d.request('GET', `/campaigns/${campaigns.spring}/analytics?bucket=hour`)).body.series as Record<string, any>[];
  await page.getByRole('radio', { name: 'Hourly', exact: true }).check();
  await page.getByRole('group').filter({ hasText: 'Each period as a table' }).click();
  assert.equal(
    await rowsOf(page.getByRole('table', { name: 'Outcomes per period (UTC, from the start of each)' }), series.length),
    series.map((p) => [utc(p.at), ...['delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed'].map((m) => String(p[m]))]),
  );
  assert.ok(series.length >= 4, 'hourly from the send through now (three hours on)');
  assert.ok(await page.getByRole('img', { name: /^Outcomes from / }).isVisible(), 'the chart is drawn');
  noProblems(tab);
});

test('the comparison shows two campaigns side by side as /campaigns/compare answers, and its address keeps the choice', async () => {
  const d = env.daemon;
  const tab = await signedIn('/campaigns/compare');
  const { page } = tab;
  await page.getByRole('heading', { name: 'Compare campaigns', level: 1 }).waitFor();
  await choose(page, 'Spring news', true);
  await choose(page, 'Summer news', true);
  await page.waitForURL(new RegExp(`ids=${campaigns.spring}(%2C|,)${campaigns.summer}`));
  const table = page.getByRole('table', { name: 'Results side by side' });
  await table.getByRole('columnheader', { name: 'Summer news' }).waitFor();
  assert.equal(await table.getByRole('columnheader').allTextContents(), ['Outcome', 'Spring news', 'Summer news']);

  const compared = (await d.request('GET', `/campaigns/compare?ids=${campaigns.spring},${campaigns.summer}`)).body.data as { sentAt: string; stats: Record<string, number> }[];
  assert.equal(compared.map((c) => c.stats.totalRecipients), [4, 3], 'the address refused in the first is suppressed in the second');
  assert.equal(
    await rowsOf(table, RESULTS.length + 1),
    [
      ['Sent at', ...compared.map((c) => utc(c.sentAt))],
      ...RESULTS.map(([label, count, rate]) => [label, ...compared.map((c) => `${c.stats[count]}${rate ? ` (${c.stats[rate]}%)` : ''}`)]),
    ],
  );
  assert.ok(await page.getByRole('img', { name: /^Opened so far, by time since each campaign's send/ }).isVisible(), 'the chart since each send');
  await page.getByRole('radio', { name: 'Clicked' }).check();
  await page.getByRole('img', { name: /^Clicked so far/ }).waitFor();

  // the address holds the choice: opened anew, the same two
  await page.reload();
  await table.getByRole('columnheader', { name: 'Summer news' }).waitFor();
  assert.ok(await page.getByRole('checkbox', { name: 'Spring news' }).isChecked());
  await choose(page, 'Spring news', false);
  await page.waitForURL(new RegExp(`ids=${campaigns.summer}$`));
  await table.getByRole('columnheader', { name: 'Spring news' }).waitFor({ state: 'detached' });
  noProblems(tab);
});

test.run();
