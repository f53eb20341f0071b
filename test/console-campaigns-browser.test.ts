// The console's campaign pages in Debian's Chromium against the real daemon, its loopback DNS and
// SMTP sink: a campaign composed from a template in both modes (the visual editor's edit kept in
// HTML mode, a `{{variable}}` completed in the code editor), previewed as a contact at two widths,
// a test sent to two addresses that arrive, sent to a segment made through the API after a
// confirmation that states the count, and its progress followed from under way to the end without
// a reload; a scheduled campaign cancelled; the list. Elements are found by role and accessible name.
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];
let segmentId: string;

const ok = async (method: string, path: string, body?: unknown) => {
  const r = await env.daemon.request(method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ sinkDomains: ['readers.test'], senders: ['news.test'] }), startBrowser()]);
  makeUser(env.daemon, 'member@news.test', { id: env.daemon.project.id, role: 'MEMBER' });
  // a suppressed address (it hard-bounced) in the segment: skipped, and shown apart
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 no such user' } : null));
  const notice = await ok('POST', '/templates', { name: 'Notice', subject: 'Notice', body: '<p>Hi</p>', from: 'editor@news.test', type: 'TRANSACTIONAL' });
  await ok('POST', '/v1/send', { to: 'gone@readers.test', template: notice.id });
  await eventually(async () => ((await env.daemon.request('GET', '/suppressions')).body.data.length === 1 ? true : null), 10_000, 'a suppression');
  for (const [email, name, plan, subscribed] of [
    ['ann@readers.test', 'Ann', 'pro', true],
    ['bob@readers.test', 'Bob', 'pro', true],
    ['cy@readers.test', 'Cy', 'pro', false],
    ['dee@readers.test', 'Dee', 'free', true],
    ['gone@readers.test', 'Gone', 'pro', true],
  ] as const) {
    const r = await env.daemon.request('POST', '/contacts', { email, subscribed, data: { name, plan } });
    assert.ok(r.status < 300, JSON.stringify(r.body));
  }
  const pro = { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] };
  segmentId = (await ok('POST', '/segments', { name: 'Pro customers', condition: pro })).id;
  await ok('POST', '/templates', { name: 'Welcome', subject: 'Welcome, {{name ?? friend}}', body: '<h1>Welcome aboard</h1><p>Hello {{name ?? friend}}, your plan is ready.</p>', from: 'editor@news.test', fromName: 'News', type: 'MARKETING' });
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

const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
const h1 = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();
const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first().waitFor();

test('compose from a template in both modes, preview as a contact, send a test, send to a segment and watch it finish', async () => {
  const tab = await signedIn('/campaigns');
  const { page } = tab;
  await h1(page, 'Campaigns');
  await page.getByRole('button', { name: 'New campaign' }).click();
  await h1(page, 'New campaign');

  // from a template: its subject, sender and body come in
  await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Welcome' });
  await page.getByRole('button', { name: 'Use template' }).click();
  assert.is(await page.getByRole('textbox', { name: 'Subject' }).inputValue(), 'Welcome, {{name ?? friend}}');
  assert.is(await page.getByRole('textbox', { name: 'From address' }).inputValue(), 'editor@news.test');
  const code = page.getByRole('textbox', { name: 'HTML body' });
  await code.getByText('Welcome aboard').waitFor();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Spring news');
  await page.getByRole('textbox', { name: 'Preview text' }).fill('Fresh for {{name ?? you}}');

  // visual mode shows the same content; an edit there is the body in HTML mode
  await page.getByRole('radio', { name: 'Visual' }).check();
  const visual = page.getByRole('textbox', { name: 'Visual body' });
  await visual.getByRole('heading', { name: 'Welcome aboard' }).waitFor();
  await visual.getByText(/your plan is ready\./).click();
  await page.keyboard.press('End');
  await page.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type(' See you soon.');
  // the toolbar says the text typed is bold (its state follows the editor's next render)
  await page.getByRole('button', { name: 'Bold', pressed: true }).waitFor();
  await page.getByRole('radio', { name: 'HTML' }).check();
  await code.getByText('<strong>').first().waitFor();
  assert.match((await code.textContent()) ?? '', /your plan is ready\.<strong> See you soon\.<\/strong><\/p>/, 'the visual edit is the HTML');

  // HTML mode: {{ completes the project's contact fields
  await code.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('<p>Plan: {{pl');
  const option = page.getByRole('listbox').getByRole('option', { name: /plan/ });
  // the editor ignores a choice made within moments of the list opening (a slip of the hand): chosen once it takes
  await eventually(
    async () => {
      if (await option.isVisible()) await option.click({ timeout: 1000 }).catch(() => {});
      return /\{\{plan\}\}/.test((await code.textContent()) ?? '');
    },
    10_000,
    'the completion chosen',
  );
  // the editor closed the <p> as it was opened, the completion closed the braces
  assert.match((await code.textContent()) ?? '', /<p>Plan: \{\{plan\}\}<\/p>$/, (await code.textContent()) ?? '');

  // the audience: a segment, with who it leaves out
  await page.getByRole('radio', { name: 'A segment' }).check();
  await page.getByRole('combobox', { name: 'Segment' }).selectOption({ label: 'Pro customers' });
  await status(page, '2 recipients — left out: 1 unsubscribed contact, 1 suppressed address');
  const counted = (await env.daemon.request('POST', '/campaigns/audience-count', { audienceType: 'SEGMENT', segmentId })).body;
  assert.equal(counted, { recipients: 2, unsubscribed: 1, suppressed: 1, matching: 4 }, 'the page shows what the API counts');

  await page.getByRole('button', { name: 'Create draft' }).click();
  await h1(page, 'Campaign: Spring news');
  await status(page, 'Saved');
  const campaign = (await env.daemon.request('GET', '/campaigns?search=Spring')).body.data[0];
  assert.is(campaign.previewText, 'Fresh for {{name ?? you}}');
  assert.is(campaign.segmentId, segmentId);
  assert.match(campaign.body, /<strong> See you soon\.<\/strong>/);
  assert.match(campaign.body, /<p>Plan: \{\{plan\}\}<\/p>/);

  // the preview as a contact, desktop and mobile
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.getByLabel('Find a contact').fill('ann@');
  await status(page, '1 found');
  await page.getByLabel('Preview for').selectOption({ label: 'ann@readers.test' });
  const frame = page.frameLocator('iframe[title="Email preview"]');
  await frame.getByText('Hello Ann, your plan is ready.').waitFor();
  await frame.getByText('Plan: pro').waitFor();
  await page.getByText('Subject: Welcome, Ann').waitFor();
  assert.is(await frame.getByText('Fresh for Ann').count(), 1, 'the preheader is in the email');
  assert.is(await frame.getByText('Fresh for Ann').isHidden(), true, 'and hidden');
  const iframe = page.getByTitle('Email preview');
  assert.is(await iframe.getAttribute('sandbox'), '', 'sandboxed: no scripts, an opaque origin');
  // the width the email is laid out in: the frame's inside
  const inside = () => iframe.evaluate((el) => el.clientWidth);
  const desktop = await inside();
  await page.getByRole('radio', { name: 'Mobile' }).check();
  await eventually(async () => ((await inside()) === 375 ? true : null), 5000, 'the mobile width');
  assert.ok(desktop > 375, `the desktop width ${desktop} is wider`);

  // a test to two addresses arrives at both
  const before = env.sink.messages.length;
  await page.getByRole('textbox', { name: 'Test addresses' }).fill('tester1@readers.test, tester2@readers.test');
  await page.getByRole('button', { name: 'Send test' }).click();
  await status(page, 'tester2@readers.test: Test email sent to tester2@readers.test');
  const tests = (await env.sink.waitFor(before + 2, 10_000)).slice(before);
  assert.equal(tests.map((m) => m.rcptTo[0]).sort(), ['tester1@readers.test', 'tester2@readers.test']);
  const testMail = await simpleParser(tests[0]!.raw);
  assert.is(testMail.subject, '[TEST] Welcome, friend');
  assert.match(String(testMail.html), /See you soon\./);

  // send: the confirmation states the count; the progress is seen under way (bob's server holds its
  // answer), then reaching the end, without a reload
  const releaseBob = env.sink.hold((rcpt) => rcpt === 'bob@readers.test');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Spring news now?' });
  await dialog.getByText('It goes to 2 recipients — left out: 1 unsubscribed contact, 1 suppressed address.').waitFor();
  await dialog.getByRole('button', { name: 'Send to 2 recipients' }).click();
  await page.getByRole('heading', { name: 'Progress' }).waitFor();
  await status(page, 'Sending…');
  await page.getByText('1 of 2 emails finished', { exact: true }).waitFor();
  assert.is(await page.getByRole('cell', { name: 'Queued count' }).textContent(), '1', "bob's email is being attempted");
  assert.is(await page.getByRole('cell', { name: 'Delivered count' }).textContent(), '1');
  // a mark on this document: still there at the end, so no reload brought the end
  await page.evaluate(() => ((globalThis as unknown as { watched: boolean }).watched = true));
  releaseBob();
  await status(page, 'Sent: every email reached its end');
  assert.is(await page.evaluate(() => (globalThis as unknown as { watched?: boolean }).watched), true, 'the same document, updated in place');
  const stats = (await env.daemon.request('GET', `/campaigns/${campaign.id}/stats`)).body.data;
  assert.equal([stats.status, stats.sentCount, stats.deliveredCount, stats.suppressedCount, stats.queuedCount, stats.deferredCount], ['SENT', 2, 2, 1, 0, 0]);
  for (const [label, n] of [['Sent', 2], ['Delivered', 2], ['Queued', 0], ['Deferred', 0], ['Bounced', 0], ['Skipped as suppressed', 1]] as const) {
    await eventually(async () => ((await page.getByRole('cell', { name: `${label} count` }).textContent()) === String(n) ? true : null), 5000, `${label} shows ${n}`);
  }
  assert.is(await page.getByRole('progressbar', { name: 'Finished' }).getAttribute('value'), '2');
  assert.is(await page.getByRole('progressbar', { name: 'Handed over' }).getAttribute('value'), '3');
  const received = env.sink.messages.filter((m) => m.rcptTo[0] === 'ann@readers.test' || m.rcptTo[0] === 'bob@readers.test');
  assert.is(received.length, 2, 'the two subscribed, unsuppressed members got it');
  const annMail = await simpleParser(received.find((m) => m.rcptTo[0] === 'ann@readers.test')!.raw);
  assert.is(annMail.subject, 'Welcome, Ann');
  assert.match(String(annMail.html), /Fresh for Ann<\/div>/);
  assert.is(await page.getByRole('link', { name: 'Analytics' }).getAttribute('href'), `/app/campaigns/${campaign.id}/analytics`);
  noProblems(tab);
});

test('schedule a campaign with the count confirmed, then cancel it; the list shows both states', async () => {
  const draft = (await ok('POST', '/campaigns', { name: 'Autumn sale', subject: 'Sale', body: '<p>Sale</p>', from: 'editor@news.test', audienceType: 'ALL' })).data;
  const tab = await signedIn(`/campaigns/${draft.id}`);
  const { page } = tab;
  await h1(page, 'Campaign: Autumn sale');
  assert.equal((await env.daemon.request('POST', '/campaigns/audience-count', { audienceType: 'ALL' })).body, { recipients: 3, unsubscribed: 1, suppressed: 1, matching: 5 });
  await status(page, '3 recipients — left out: 1 unsubscribed contact, 1 suppressed address');
  await page.getByLabel('Send at').fill('2099-05-01T09:30');
  await page.getByRole('button', { name: 'Schedule' }).click();
  const dialog = page.getByRole('dialog', { name: /^Schedule Autumn sale for / });
  await dialog.getByRole('button', { name: 'Schedule to 3 recipients' }).click();
  await page.getByText('Status: SCHEDULED').waitFor();
  const scheduled = (await env.daemon.request('GET', `/campaigns/${draft.id}`)).body;
  assert.is(scheduled.status, 'SCHEDULED');
  assert.is(new Date(scheduled.scheduledFor).getTime(), new Date('2099-05-01T09:30').getTime(), 'the time as chosen, in the browser zone');

  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  await page.getByRole('dialog', { name: 'Cancel Autumn sale?' }).getByRole('button', { name: 'Cancel the send' }).click();
  await page.getByText('Status: CANCELLED').waitFor();
  assert.is((await env.daemon.request('GET', `/campaigns/${draft.id}`)).body.status, 'CANCELLED');

  await page.getByRole('link', { name: 'All campaigns' }).click();
  await h1(page, 'Campaigns');
  const table = page.getByRole('table', { name: /campaigns?, newest first/ });
  await table.getByRole('row', { name: /Autumn sale CANCELLED All contacts/ }).waitFor();
  await table.getByRole('row', { name: /Spring news SENT Segment Pro customers 2 2 0/ }).waitFor();
  await page.getByRole('combobox', { name: 'Status' }).selectOption('SENT');
  await table.getByRole('row', { name: /Autumn sale/ }).waitFor({ state: 'detached' });
  noProblems(tab);
});

test.run();
