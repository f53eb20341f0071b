// The visual editor's blocks in Debian's Chromium against the real daemon, its loopback DNS and SMTP
// sink: each block's button inserts its block (the image uploaded to the media library from the
// Image block's form), text colour and alignment apply, the saved body keeps the email-safety rules,
// HTML mode and back keeps every block, and the campaign sent arrives with the image's public
// address, which serves the image. An <img> written in HTML shows in visual mode; an http: image in
// the preview is explained; the CSV export buttons download what the API exports.
import { readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { emailSafetyProblems } from './helpers/email-safety.js';
import { PNG_1X1 } from './helpers/images.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];

const ok = async (method: string, path: string, body?: unknown) => {
  const r = await env.daemon.request(method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ sinkDomains: ['readers.test'], senders: ['news.test'] }), startBrowser()]);
  makeUser(env.daemon, 'member@news.test', { id: env.daemon.project.id, role: 'MEMBER' });
  await ok('POST', '/contacts', { email: 'ann@readers.test', data: { name: 'Ann' } });
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

const h1 = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();
const draft = async (name: string, body: string) => (await ok('POST', '/campaigns', { name, subject: name, body, from: 'editor@news.test', audienceType: 'ALL' })).data;

test('each block button inserts its block; the saved body is email-safe, survives HTML mode, and the sent campaign shows the uploaded image', async () => {
  const campaign = await draft('Builder news', '<p>Intro</p>');
  const tab = await signedIn(`/campaigns/${campaign.id}`);
  const { page } = tab;
  await h1(page, 'Campaign: Builder news');
  await page.getByRole('radio', { name: 'Visual' }).check();
  const visual = page.getByRole('textbox', { name: 'Visual body' });
  const blocks = (kind: string) => visual.locator(`table[data-block="${kind}"]`);

  // colour and alignment of text
  await visual.getByText('Intro').click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  await page.getByLabel('Text colour').fill('#dc2626');
  await page.getByRole('button', { name: 'Apply colour' }).click();
  await visual.locator('span[style*="color"]').getByText('Intro').waitFor({ timeout: 5000 });
  await page.getByRole('button', { name: 'Align centre' }).click();
  await page.getByRole('button', { name: 'Align centre', pressed: true }).waitFor();
  await page.keyboard.press('End');

  // Image: uploaded through the media library, then inserted
  await page.getByRole('button', { name: 'Image', exact: true }).click();
  const imageForm = page.getByRole('group', { name: 'Image block' });
  await imageForm.getByLabel('Upload an image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await eventually(async () => (/\/media\/[\w-]{22}\.png$/.test(await imageForm.getByLabel('Image address').inputValue()) ? true : null), 10_000, 'the upload filled the address');
  const imageUrl = await imageForm.getByLabel('Image address').inputValue();
  assert.is(await imageForm.getByLabel('Width in pixels').inputValue(), '1', "the image's own width, under the column's");
  await imageForm.getByLabel('Alternative text').fill('Our logo');
  await imageForm.getByRole('button', { name: 'Insert image' }).click();
  await visual.getByRole('img', { name: 'Our logo' }).waitFor();
  const library = (await env.daemon.request('GET', '/media')).body.data;
  assert.is(library.length, 1);
  assert.is(library[0].url, imageUrl, 'the address is the library’s public one');

  // Button, with its colour and alignment
  await page.getByRole('button', { name: 'Button', exact: true }).click();
  const buttonForm = page.getByRole('group', { name: 'Button block' });
  await buttonForm.getByLabel('Button text', { exact: true }).fill('Shop now');
  await buttonForm.getByLabel('Button link').fill('https://shop.example/spring');
  await buttonForm.getByLabel('Button colour').fill('#16a34a');
  await buttonForm.getByLabel('Alignment').selectOption({ label: 'Left' });
  await buttonForm.getByRole('button', { name: 'Insert button' }).click();
  await visual.getByRole('link', { name: 'Shop now' }).waitFor();

  // the blocks that go in at once
  for (const [button, kind] of [['Divider', 'divider'], ['Spacer', 'spacer'], ['Columns', 'columns']] as const) {
    await page.getByRole('button', { name: button, exact: true }).click();
    await blocks(kind).first().waitFor();
  }
  // the columns' text is the editor's to edit
  await visual.getByText('Column 2').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' with more');
  await visual.getByText('Column 2 with more').waitFor();

  await page.getByRole('button', { name: 'Social links', exact: true }).click();
  await page.getByRole('group', { name: 'Social links block' }).getByLabel('Instagram address').fill('https://instagram.example/news');
  await page.getByRole('button', { name: 'Insert social links' }).click();
  await visual.getByRole('link', { name: 'Instagram' }).waitFor();

  await page.getByRole('button', { name: 'Footer', exact: true }).click();
  await page.getByRole('group', { name: 'Footer block' }).getByLabel('Postal address').fill('News Ltd\n1 High Street, London');
  await page.getByRole('button', { name: 'Insert footer' }).click();
  await visual.getByRole('link', { name: 'Unsubscribe' }).waitFor();
  await visual.getByRole('link', { name: 'Manage preferences' }).waitFor();

  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved' }).first().waitFor();
  const body: string = (await ok('GET', `/campaigns/${campaign.id}`)).body;
  for (const kind of ['image', 'button', 'divider', 'spacer', 'columns', 'social', 'footer']) assert.match(body, new RegExp(`<table data-block="${kind}"`), `the ${kind} block is saved`);
  // the browser writes inline styles in its own spelling (spaces, rgb() colours): email clients read both
  assert.match(body, /<p style="text-align: ?center;?"><span style="color: ?(#dc2626|rgb\(220, 38, 38\));?">Intro<\/span><\/p>/, body);
  assert.match(body, new RegExp(`<img src="${imageUrl.replace(/[.]/g, '\\.')}" alt="Our logo" width="1"`));
  assert.match(body, /<td align="left" style="padding: ?12px 0(px)?;?">.*bgcolor="#16a34a".*href="https:\/\/shop\.example\/spring"/);
  assert.match(body, /Column 2 with more/);
  assert.match(body, /News Ltd<br>1 High Street, London/);
  assert.match(body, /href="\{\{unsubscribeUrl\}\}"/);
  // the rules read HTML in a blank page: the console's CSP would report the unsafe example's handler
  const blank = await tab.context.newPage();
  assert.equal(await blank.evaluate(emailSafetyProblems, body), [], 'the saved body keeps the email-safety rules');
  const unsafe = await blank.evaluate(emailSafetyProblems, '<div class="x" style="display:flex"><img src="a.png"><table><tr><td onclick="x()">a</td></tr></table></div>');
  assert.is(unsafe.length, 9, `the rules do catch what breaks in mail clients: ${unsafe.join('; ')}`);

  // HTML mode and back: the body is the editor's own, so visual mode shows it whole and unchanged
  await page.getByRole('radio', { name: 'HTML' }).check();
  await page.getByRole('textbox', { name: 'HTML body' }).getByText('data-block="footer"').first().waitFor();
  await page.getByRole('radio', { name: 'Visual' }).check();
  for (const kind of ['image', 'button', 'divider', 'spacer', 'columns', 'social', 'footer']) await blocks(kind).first().waitFor();
  assert.is(await page.getByRole('note').filter({ hasText: 'writes its own way' }).count(), 0, 'no warning: nothing would be lost');
  assert.ok(await page.getByRole('button', { name: 'Save draft' }).isDisabled(), 'nothing changed');

  // sent: the email carries the image's public address, which serves the image
  await ok('POST', `/campaigns/${campaign.id}/send`, {});
  const [mail] = await env.sink.waitFor(1, 15_000);
  assert.is(mail!.rcptTo[0], 'ann@readers.test');
  const html = String((await simpleParser(mail!.raw)).html);
  assert.ok(html.includes(`src="${imageUrl}"`), 'the image is referenced at its public address');
  assert.match(html, /Shop now/);
  const image = await fetch(imageUrl);
  assert.is(image.status, 200);
  assert.equal(Buffer.from(await image.arrayBuffer()), PNG_1X1);
  assert.equal(tab.problems, [], 'the page reported no errors');
});

test('an <img> written in HTML shows in visual mode and is kept as an image block by an edit there', async () => {
  const uploaded = (await env.daemon.request('GET', '/media')).body.data[0];
  const campaign = await draft('Hand written', `<p>Hello</p><img src="${uploaded.url}" alt="Hand logo" width="1">`);
  const tab = await signedIn(`/campaigns/${campaign.id}`);
  const { page } = tab;
  await h1(page, 'Campaign: Hand written');
  await page.getByRole('radio', { name: 'Visual' }).check();
  const visual = page.getByRole('textbox', { name: 'Visual body' });
  await visual.getByRole('img', { name: 'Hand logo' }).waitFor();
  await visual.getByText('Hello').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' there');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved' }).first().waitFor();
  const body: string = (await ok('GET', `/campaigns/${campaign.id}`)).body;
  assert.match(body, /<p>Hello there<\/p><table data-block="image"/);
  assert.ok(body.includes(`<img src="${uploaded.url}" alt="Hand logo" width="1"`), body);
  assert.equal(tab.problems, []);
});

test('the preview says which http: images the console cannot show', async () => {
  const campaign = await draft('Old images', '<p>Look</p><img src="http://images.example/old.png" alt="Old" width="100">');
  const tab = await signedIn(`/campaigns/${campaign.id}`);
  const { page } = tab;
  await h1(page, 'Campaign: Old images');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.frameLocator('iframe[title="Email preview"]').getByText('Look').waitFor();
  const note = page.getByRole('note').filter({ hasText: 'not shown in this preview' });
  await note.waitFor();
  await note.getByText('http://images.example/old.png').waitFor();
  // the browser reports the refused image as a CSP violation: the one problem, and the note's reason
  assert.ok(tab.problems.every((p) => /images\.example/.test(p)), tab.problems.join('\n'));
});

test("the Contacts page and a segment's page download the API's CSV export", async () => {
  const segment = (await ok('POST', '/segments', { name: 'Readers', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.name', operator: 'equals', value: 'Ann' }] }] } })).id;
  const tab = await signedIn('/contacts');
  const { page } = tab;
  await h1(page, 'Contacts');
  const saved = async (button: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
    return readFileSync((await file.path())!, 'utf8');
  };
  const all = await saved('Export CSV');
  const api = await (await fetch(`${env.daemon.url}/contacts/export`, { headers: { authorization: `Bearer ${env.daemon.project.secretKey}` } })).text();
  assert.is(all, api);
  assert.match(all, /^email,subscribed,createdAt,name\r\nann@readers\.test,true,/);

  await page.goto(`${env.daemon.url}/app/segments/${segment}`);
  await h1(page, 'Segment: Readers');
  const members = await saved('Export members as CSV');
  assert.equal(members.split('\r\n').filter(Boolean).length, 2, 'the header and Ann');
  assert.equal(tab.problems, []);
});

test.run();
