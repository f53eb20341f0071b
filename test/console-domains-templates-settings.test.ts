// The console's Domains, Templates and Settings pages in Debian's Chromium against the real daemon,
// its loopback DNS and SMTP sink: a domain published (from the records the page shows, copied with
// its copy buttons) and verified; a template edited with its preview following, a test send that
// arrives; keys rotated with the new secret shown once; tracking and the webhook secret; a MEMBER
// kept out of Settings and Domains. Elements are found by role and accessible name.
import { simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchFromPage, openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { publishRecords, type PublishedRecord } from './helpers/domains.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ sinkDomains: ['rcpt.test'], senders: ['tpl.test'] }), startBrowser()]);
  makeUser(env.daemon, 'owner@example.test', { id: env.daemon.project.id, role: 'OWNER' });
  makeUser(env.daemon, 'member@example.test', { id: env.daemon.project.id, role: 'MEMBER' });
});
test.after(async () => {
  await browser?.close();
  await env?.close();
});
// closes the tabs only: a hook that throws would hide the failure of its test
test.after.each(async () => {
  for (const tab of tabs.splice(0)) await tab.context.close();
});

/** A signed-in tab at `path`, allowed to use the clipboard (the copy buttons). */
async function signedIn(email: string, path: string): Promise<ConsoleTab> {
  const tab = await openTab(browser, `${env.daemon.url}${path}`);
  tabs.push(tab);
  await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.daemon.url });
  await signInAs(tab.page, email, PASSWORD);
  return tab;
}

const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
const clipboard = (page: Page) => page.evaluate<string>('navigator.clipboard.readText()');
const h1 = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

const PURPOSE_OF: Record<string, PublishedRecord['purpose']> = { DKIM: 'dkim', 'Bounce MX': 'bounce', SPF: 'spf', DMARC: 'dmarc' };

/** Every record the page lists for `domain`, read through its copy buttons (the name's pressed from the keyboard). */
async function recordsShown(page: Page, domain: string): Promise<PublishedRecord[]> {
  const table = page.getByRole('table', { name: `Records to publish at the DNS host of ${domain}` });
  const rows = table.getByRole('row');
  const records: PublishedRecord[] = [];
  for (let i = 1; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const cells = row.getByRole('cell');
    const type = (await cells.nth(0).textContent()) as 'TXT' | 'MX';
    const header = (await row.getByRole('rowheader').textContent()) ?? '';
    const what = Object.keys(PURPOSE_OF).find((label) => header.startsWith(label))!;
    const name = row.getByRole('button', { name: `Copy ${what} ${type} name` });
    await name.focus();
    await page.keyboard.press('Enter');
    await row.getByRole('status').filter({ hasText: 'Copied' }).first().waitFor();
    const copiedName = await clipboard(page);
    await row.getByRole('button', { name: `Copy ${what} ${type} value` }).click();
    await eventually(async (saw) => {
      const copied = await clipboard(page);
      saw({ clipboard: copied });
      return copied !== copiedName;
    }, 5000, `the ${what} value copied`);
    const priority = (await cells.nth(2).textContent()) ?? '';
    records.push({ type, name: copiedName, value: await clipboard(page), ...(priority ? { priority: Number(priority) } : {}), purpose: PURPOSE_OF[what]!, verified: false });
  }
  return records;
}

const section = (page: Page, domain: string): Locator => page.getByRole('region', { name: domain });

test('Domains: add one, publish the records the page shows on the loopback DNS, re-check and see it verified; the reason a check failed; live status; delete with confirmation', async () => {
  const tab = await signedIn('owner@example.test', '/app/domains');
  const { page } = tab;
  await h1(page, 'Domains');
  await page.getByLabel('Domain name').fill('shop.test');
  await page.getByRole('button', { name: 'Add domain' }).click();
  const shop = section(page, 'shop.test');
  await shop.getByRole('status').filter({ hasText: 'Pending' }).waitFor();

  // before anything is published: the check fails and says why
  await shop.getByRole('button', { name: 'Re-check shop.test' }).click();
  await shop.getByRole('status').filter({ hasText: /No TXT record found at .*\._domainkey\.shop\.test/ }).waitFor();

  const records = await recordsShown(page, 'shop.test');
  assert.equal(records.map((r) => r.type), ['TXT', 'MX', 'TXT', 'TXT']);
  const api = (await env.daemon.request('GET', `/domains/project/${env.daemon.project.id}`)).body.data.find((d: { domain: string }) => d.domain === 'shop.test');
  assert.equal(
    records.map((r) => [r.name, r.value, r.priority]),
    api.records.map((r: PublishedRecord) => [r.name, r.value, r.priority]),
    'the page copies exactly the records of the API',
  );
  publishRecords(env.dns, records);
  await shop.getByRole('button', { name: 'Re-check shop.test' }).click();
  await shop.getByRole('status').filter({ hasText: 'Verified: mail may be sent from this domain.' }).waitFor();
  const found = await shop.getByRole('table').getByRole('row').allTextContents();
  assert.ok(found.slice(1).every((row) => row.endsWith('Verified')), `every record verified: ${found.join(' | ')}`);

  // live: a domain the background check verifies turns verified on the page without a reload
  await page.getByLabel('Domain name').fill('live.test');
  await page.getByRole('button', { name: 'Add domain' }).click();
  const live = section(page, 'live.test');
  await live.getByRole('status').filter({ hasText: 'Pending' }).waitFor();
  publishRecords(env.dns, await recordsShown(page, 'live.test'));
  await env.advance(5 * 60_000 + 1000);
  await live.getByRole('status').filter({ hasText: 'Verified' }).waitFor({ timeout: 20_000 });

  // delete: cancel keeps it, confirming removes it
  await live.getByRole('button', { name: 'Delete live.test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete live.test?' });
  await dialog.waitFor();
  assert.is(await page.evaluate('document.activeElement?.textContent'), 'Cancel', 'Cancel has the focus');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.is(await live.count(), 1);
  await live.getByRole('button', { name: 'Delete live.test' }).click();
  await dialog.getByRole('button', { name: 'Delete domain' }).click();
  await live.waitFor({ state: 'detached' });
  assert.is(await page.evaluate('document.activeElement?.textContent'), 'Domains', 'the focus goes to the page heading, not nowhere');
  const left = (await env.daemon.request('GET', `/domains/project/${env.daemon.project.id}`)).body.data.map((d: { domain: string }) => d.domain);
  assert.not.ok(left.includes('live.test'));
  noProblems(tab);
});

/** What Chromium reports when the sandbox stops a script of the preview. */
const isBlockedPreviewScript = (problem: string) => /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/.test(problem);

/** The text the preview frame shows, once it shows `expected`. */
async function previewShows(page: Page, expected: RegExp): Promise<string> {
  const frame = page.frameLocator('iframe[title="Email preview"]');
  return eventually(async (saw) => {
    const text = (await frame.locator('body').textContent().catch(() => null)) ?? '';
    saw({ preview: text });
    return expected.test(text) ? text : null;
  }, 10_000, `the preview showing ${expected}`);
}

test('Templates: create, see the preview follow the HTML (for a chosen contact, unsaved), styles render, no script runs; send a test that arrives; 409 shown when in use', async () => {
  const d = env.daemon;
  assert.is((await d.request('POST', '/contacts', { email: 'ann@rcpt.test', data: { name: 'Ann' } })).status, 201);
  const tab = await signedIn('owner@example.test', '/app/templates');
  const { page } = tab;
  await h1(page, 'Templates');
  await page.getByText('No templates yet').waitFor();
  await page.getByRole('link', { name: 'New template' }).click();
  await h1(page, 'New template');
  await page.getByLabel('Name', { exact: true }).fill('Welcome');
  await page.getByLabel('Subject').fill('Welcome, {{name ?? friend}}');
  await page.getByLabel('From address').fill('hello@tpl.test');
  await page.getByLabel('Type').selectOption('TRANSACTIONAL');
  await page.getByLabel('HTML body').fill('<h1 style="color: rgb(200, 0, 0)">Hello {{name ?? friend}}</h1>');
  await previewShows(page, /Hello friend/);
  await page.getByText('Subject: Welcome, friend').waitFor();
  const frame = page.frame({ url: 'about:srcdoc' })!;
  assert.is(await frame.evaluate('getComputedStyle(document.querySelector("h1")).color'), 'rgb(200, 0, 0)', 'inline styles render');
  assert.is(await page.getByTitle('Email preview').getAttribute('sandbox'), '', 'sandboxed: no scripts, an opaque origin');
  assert.is(await page.getByRole('button', { name: 'Send test' }).isDisabled(), true, 'nothing saved to test yet');

  await page.getByRole('button', { name: 'Create template' }).click();
  await h1(page, 'Template: Welcome');
  const id = new URL(page.url()).pathname.split('/').pop()!;

  // for a contact found by search
  await page.getByLabel('Find a contact').fill('ann@');
  await page.getByRole('status').filter({ hasText: '1 found' }).waitFor();
  await page.getByLabel('Preview for').selectOption({ label: 'ann@rcpt.test' });
  await previewShows(page, /Hello Ann/);

  // edited, not saved: the preview follows, the stored template does not
  await page.getByLabel('HTML body').fill('<p>Goodbye {{name}}</p><script>document.title = "scripted"</script>');
  await previewShows(page, /Goodbye Ann/);
  assert.match((await d.request('GET', `/templates/${id}`)).body.body, /Hello/, 'the preview saved nothing');
  assert.is(await page.title(), 'Template: Welcome · Postmill');
  await eventually((saw) => (saw({ problems: tab.problems }), tab.problems.length > 0), 5000, "the browser's report of the blocked script");
  assert.ok(tab.problems.every(isBlockedPreviewScript), `the preview's script was blocked: ${tab.problems.join(' | ')}`);
  await page.getByLabel('HTML body').fill('<p>Goodbye {{name ?? you}}</p>');
  await previewShows(page, /Goodbye Ann/);

  // the campaign composer's body editor: the visual mode edits the same body, the preview follows
  await page.getByRole('radio', { name: 'Visual' }).check();
  const visual = page.getByRole('textbox', { name: 'Visual body' });
  await visual.getByText('Goodbye {{name ?? you}}').click();
  await page.keyboard.press('End');
  await page.getByRole('button', { name: 'Italic' }).click();
  await page.keyboard.type(' Take care.');
  await previewShows(page, /Goodbye Ann Take care\./);
  await page.getByRole('radio', { name: 'HTML' }).check();
  await page.getByRole('textbox', { name: 'HTML body' }).getByText('<em>').first().waitFor();
  assert.match((await page.getByRole('textbox', { name: 'HTML body' }).textContent()) ?? '', /<p>Goodbye \{\{name \?\? you\}\}<em> Take care\.<\/em><\/p>/);
  assert.is(await page.getByRole('button', { name: 'Send test' }).isDisabled(), true, 'a test sends the saved template: unsaved changes first');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

  const before = env.sink.messages.length;
  await page.getByLabel('Test address').fill('tester@rcpt.test');
  await page.getByRole('button', { name: 'Send test' }).click();
  await page.getByRole('status').filter({ hasText: 'Test email sent to tester@rcpt.test' }).waitFor();
  const sent = await simpleParser((await env.sink.waitFor(before + 1, 10_000))[before]!.raw);
  assert.is(sent.subject, '[TEST] Welcome, friend');
  assert.match(sent.html as string, /<p>Goodbye you<em> Take care\.<\/em><\/p>/, 'the visual edit was saved');

  // the list: search, type filter; a template a workflow step uses is not deleted, and the page says why
  const workflow = await d.request('POST', '/workflows', { name: 'Onboarding', eventName: 'signed-up' });
  assert.is((await d.request('POST', `/workflows/${workflow.body.id}/steps`, { type: 'SEND_EMAIL', name: 'Send', config: { templateId: id } })).status, 201);
  await page.getByRole('link', { name: 'All templates' }).click();
  await h1(page, 'Templates');
  await page.getByRole('row', { name: /Welcome/ }).waitFor();
  await page.getByLabel('Type').selectOption('MARKETING');
  await page.getByText('No template matches.').waitFor();
  await page.getByLabel('Type').selectOption('');
  await page.getByLabel('Search templates').fill('welc');
  await page.getByRole('button', { name: 'Delete Welcome' }).click();
  await page.getByRole('dialog', { name: 'Delete Welcome?' }).getByRole('button', { name: 'Delete template' }).click();
  await page.getByRole('alert').filter({ hasText: 'Welcome is in use and was not deleted: The template is used by 1 workflow step(s).' }).waitFor();
  assert.is((await d.request('GET', `/templates/${id}`)).status, 200);
  assert.equal(tab.problems.filter((p) => !isBlockedPreviewScript(p)), [], 'nothing but the blocked script of the preview');
});

test('Settings: the public key; rotate keys with confirmation, the new secret shown once; tracking; the webhook secret', async () => {
  const d = env.daemon;
  const tab = await signedIn('owner@example.test', '/app/settings');
  const { page } = tab;
  await h1(page, 'API keys');
  const publicKey = page.getByRole('textbox', { name: 'Public key' });
  assert.is(await publicKey.inputValue(), d.project.publicKey);
  await page.getByRole('button', { name: 'Rotate keys' }).click();
  await page.getByRole('dialog', { name: 'Rotate both keys?' }).getByRole('button', { name: 'Rotate keys now' }).click();
  const secret = page.getByRole('textbox', { name: 'New secret key' });
  await secret.waitFor();
  const newSecret = await secret.inputValue();
  assert.match(newSecret, /^sk_[0-9a-f]{64}$/);
  await page.getByRole('button', { name: 'Copy new secret key' }).click();
  assert.is(await clipboard(page), newSecret);
  await eventually(async (saw) => {
    const shown = await publicKey.inputValue();
    saw({ shown });
    return shown !== d.project.publicKey;
  }, 5000, 'the new public key shown');
  assert.is((await d.request('GET', '/settings/keys')).status, 401, 'the old secret key stopped');
  const keys = await d.request('GET', '/settings/keys', undefined, { key: newSecret });
  assert.is(keys.body.publicKey, await publicKey.inputValue());
  Object.assign(d.project, { secretKey: newSecret, publicKey: keys.body.publicKey });
  await page.reload();
  await h1(page, 'API keys');
  assert.is(await page.getByRole('textbox', { name: 'New secret key' }).count(), 0, 'the secret is shown once');

  const settings = page.getByRole('navigation', { name: 'Settings' });
  await settings.getByRole('link', { name: 'Tracking' }).click();
  await h1(page, 'Tracking');
  const box = page.getByRole('checkbox', { name: 'Track opens and clicks of transactional mail' });
  assert.is(await box.isChecked(), false);
  await box.check();
  await page.getByRole('status').filter({ hasText: 'Saved: transactional mail sent from now on is tracked.' }).waitFor();
  assert.equal((await d.request('GET', '/settings/tracking')).body, { trackTransactional: true });
  await box.uncheck();
  await page.getByRole('status').filter({ hasText: 'is not tracked' }).waitFor();

  await settings.getByRole('link', { name: 'Webhooks' }).click();
  await h1(page, 'Webhook signing');
  const signing = page.getByRole('textbox', { name: 'Signing secret' });
  const before = (await d.request('GET', '/settings/webhooks')).body.signingSecret;
  assert.is(await signing.inputValue(), before);
  assert.is(await signing.getAttribute('type'), 'password');
  await page.getByRole('button', { name: 'Show secret' }).click();
  assert.is(await signing.getAttribute('type'), 'text');
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret now' }).click();
  await page.getByRole('status').filter({ hasText: 'A new secret signs from now on' }).waitFor();
  const after = (await d.request('GET', '/settings/webhooks')).body.signingSecret;
  assert.is.not(after, before);
  assert.is(await signing.inputValue(), after);
  noProblems(tab);
});

test('a MEMBER cannot open Settings or Domains (no link, "Not allowed"), and the direct API calls are 403', async () => {
  const d = env.daemon;
  const tab = await signedIn('member@example.test', '/app/domains');
  const { page } = tab;
  await h1(page, 'Not allowed');
  assert.match((await page.getByRole('main').textContent()) ?? '', /Domains needs the ADMIN role in this project; yours is MEMBER/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  assert.equal(await nav.getByRole('link').allTextContents(), ['Overview', 'Contacts', 'Messages', 'Templates', 'Campaigns', 'Segments', 'Workflows']);
  for (const path of ['/app/settings', '/app/settings/keys', '/app/settings/tracking', '/app/settings/webhooks']) {
    await page.goto(d.url + path);
    await h1(page, 'Not allowed');
  }
  const project = d.project.id;
  for (const [method, path, body] of [
    ['GET', `/domains/project/${project}`],
    ['POST', '/domains', { domain: 'sneak.test' }],
    ['GET', '/settings/keys'],
    ['GET', '/settings/tracking'],
    ['PATCH', '/settings/tracking', { trackTransactional: true }],
    ['GET', '/settings/webhooks'],
    ['POST', `/users/@me/projects/${project}/regenerate-keys`],
  ] as [string, string, unknown?][]) {
    assert.is(await fetchFromPage(page, method, path, project, body), 403, `${method} ${path}`);
  }
  assert.is(await fetchFromPage(page, 'POST', '/templates/preview', project, { subject: 's', body: 'b' }), 200, 'templates are a MEMBER\'s');
  noProblems(tab);
});

test.run();
