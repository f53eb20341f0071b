import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { storeFile } from '../src/store/db.js';
import { signToken } from '../src/tracking/tokens.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let templateId: string;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('sender.test');
  env.routeToSink('rcpt.test');
  const t = await env.daemon.request('POST', '/templates', {
    name: 'Newsletter',
    subject: 'News for {{name ?? you}}',
    body: '<html><body><p>Hi</p><a href="https://example.com/read?a=1&amp;b=2">Read</a> <a href="mailto:help@sender.test">Mail us</a> <a href="{{unsubscribeUrl}}">Unsubscribe</a></body></html>',
    from: 'news@sender.test',
    type: 'MARKETING',
  });
  assert.is(t.status, 201, JSON.stringify(t.body));
  templateId = t.body.id;
});
test.after(async () => env.close());

/** Sends the newsletter to `to` and answers the delivered message and ids. */
async function newsletter(to: string) {
  const before = env.sink.messages.length;
  const r = await env.daemon.request('POST', '/v1/send', { to, template: templateId, subscribed: true });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const messages = await env.sink.waitFor(before + 1, 8000);
  const parsed = await simpleParser(messages[before]!.raw);
  return { parsed, emailId: r.body.data.emails[0].email as string, contactId: r.body.data.emails[0].contact.id as string };
}

const path = (url: string) => new URL(url).pathname;
/** A header as sent (mailparser turns List-Unsubscribe into an object). */
const rawHeader = (parsed: ParsedMail, key: string) =>
  parsed.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, ' ') ?? '';
const linksOf = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

test('marketing mail: links rewritten to signed redirects, an open pixel, List-Unsubscribe one-click headers', async () => {
  const { parsed } = await newsletter('reader@rcpt.test');
  const html = String(parsed.html);
  const links = linksOf(html);
  assert.ok(links.some((l) => l.includes('/t/c/')), html);
  assert.ok(links.includes('mailto:help@sender.test'), 'mailto is not rewritten');
  assert.ok(links.some((l) => path(l).startsWith('/u/')), 'the unsubscribe link is not rewritten');
  assert.match(html, /<img src="[^"]*\/t\/o\//);
  const listUnsub = rawHeader(parsed, 'list-unsubscribe');
  assert.match(listUnsub, /\/u\//);
  assert.match(listUnsub, /mailto:unsubscribe@bounces\.sender\.test\?subject=/);
  assert.is(rawHeader(parsed, 'list-unsubscribe-post'), 'List-Unsubscribe-Post: List-Unsubscribe=One-Click');
});

test('opens and clicks: events with running totals and first flags; the redirect goes only to the signed URL', async () => {
  const { parsed, emailId } = await newsletter('clicker@rcpt.test');
  const html = String(parsed.html);
  const pixel = /<img src="([^"]*\/t\/o\/[^"]+)"/.exec(html)![1]!;
  for (let i = 0; i < 2; i++) {
    const r = await env.daemon.request('GET', path(pixel), undefined, { key: null });
    assert.is(r.status, 200);
    assert.is(r.headers.get('content-type'), 'image/gif');
  }
  const opens = (await eventsNamed(env.daemon, 'email.open')).filter((e) => e.emailId === emailId).sort((a, b) => a.data.opens - b.data.opens);
  assert.is(opens.length, 2);
  assert.is(opens[0].data.isFirstOpen, true);
  assert.is(opens[1].data.opens, 2);
  assert.is(opens[1].data.isFirstOpen, false);

  const click = linksOf(html).find((l) => l.includes('/t/c/'))!;
  const res = await fetch(env.daemon.url + path(click), { redirect: 'manual' });
  assert.is(res.status, 302);
  assert.is(res.headers.get('location'), 'https://example.com/read?a=1&b=2');
  const clicks = (await eventsNamed(env.daemon, 'email.click')).filter((e) => e.emailId === emailId);
  assert.is(clicks.length, 1);
  assert.is(clicks[0].data.link, 'https://example.com/read?a=1&b=2');
  assert.is(clicks[0].data.isFirstClick, true);
  assert.is(clicks[0].data.clicks, 1);

  const token = path(click).slice('/t/c/'.length);
  const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
  assert.is((await fetch(`${env.daemon.url}/t/c/${tampered}`, { redirect: 'manual' })).status, 404);
  assert.is((await fetch(`${env.daemon.url}/t/c/forged-token-here`, { redirect: 'manual' })).status, 404);
  assert.is((await eventsNamed(env.daemon, 'email.click')).filter((e) => e.emailId === emailId).length, 1, 'no event from bad tokens');
});

test('unsubscribe: GET only confirms, RFC 8058 one-click POST unsubscribes (200); resubscribe and manage pages work', async () => {
  const { parsed, contactId } = await newsletter('leaver@rcpt.test');
  const unsub = path(/<(http[^>]+\/u\/[^>]+)>/.exec(rawHeader(parsed, 'list-unsubscribe'))![1]!);
  const page = await env.daemon.request('GET', unsub, undefined, { key: null });
  assert.is(page.status, 200);
  assert.match(page.body, '<form method="post"');
  assert.not.match(page.body, 'leaver@rcpt.test', 'the address is masked');
  assert.is((await env.daemon.request('GET', `/contacts/${contactId}`)).body.subscribed, true, 'GET changes nothing');

  const oneClick = await fetch(env.daemon.url + unsub, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assert.is(oneClick.status, 200);
  const done = await oneClick.text();
  assert.is((await env.daemon.request('GET', `/contacts/${contactId}`)).body.subscribed, false);
  const event = (await eventsNamed(env.daemon, 'contact.unsubscribed')).find((e) => e.contactId === contactId);
  assert.equal(event.data, {});

  const resubscribe = path(/href="([^"]+\/s\/[^"]+)"/.exec(done)![1]!);
  assert.is((await fetch(env.daemon.url + resubscribe, { method: 'POST' })).status, 200);
  assert.is((await env.daemon.request('GET', `/contacts/${contactId}`)).body.subscribed, true);

  const bad = await fetch(`${env.daemon.url}${unsub.slice(0, -3)}xyz`, { method: 'POST' });
  assert.is(bad.status, 404);
  assert.is((await env.daemon.request('GET', `/contacts/${contactId}`)).body.subscribed, true, 'a tampered token changes nothing');
});

test("the subscription pages name the sender: the email's from name, else its domain; a link of no email names the project", async () => {
  const pages = async (unsubscribePath: string) => {
    const confirm = await env.daemon.request('GET', unsubscribePath, undefined, { key: null });
    const done = await (await fetch(env.daemon.url + unsubscribePath, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).text();
    const resubscribe = path(/href="([^"]+\/s\/[^"]+)"/.exec(done)![1]!);
    const confirmAgain = await env.daemon.request('GET', resubscribe, undefined, { key: null });
    const subscribed = await (await fetch(env.daemon.url + resubscribe, { method: 'POST' })).text();
    return { confirm: confirm.body as string, done, confirmAgain: confirmAgain.body as string, subscribed };
  };
  const unsubscribePathOf = (parsed: ParsedMail) => path(/<(http[^>]+\/u\/[^>]+)>/.exec(rawHeader(parsed, 'list-unsubscribe'))![1]!);

  // The template's sender has no display name: its domain.
  const plain = await pages(unsubscribePathOf((await newsletter('plain@rcpt.test')).parsed));
  assert.match(plain.confirm, '<title>Unsubscribe from sender.test</title>');
  assert.match(plain.confirm, 'Stop sending email from <strong>sender.test</strong> to <strong>p****@rcpt.test</strong>?');
  assert.match(plain.done, 'will no longer receive emails from <strong>sender.test</strong>.');
  assert.match(plain.confirmAgain, 'Start sending email from <strong>sender.test</strong> to');
  assert.match(plain.subscribed, 'will receive emails from <strong>sender.test</strong> again.');

  // A display name, escaped as text.
  const before = env.sink.messages.length;
  const named = await env.daemon.request('POST', '/v1/send', {
    to: 'named@rcpt.test',
    template: templateId,
    subscribed: true,
    from: { name: 'Acme <News> & Co', email: 'news@sender.test' },
    body: '<p><a href="{{unsubscribeUrl}}">Unsubscribe</a> <a href="{{manageUrl}}">Preferences</a></p>',
  });
  assert.is(named.status, 200, JSON.stringify(named.body));
  const parsed = await simpleParser((await env.sink.waitFor(before + 1, 8000))[before]!.raw);
  const fromName = await pages(unsubscribePathOf(parsed));
  for (const page of Object.values(fromName)) assert.match(page, '<strong>Acme &lt;News&gt; &amp; Co</strong>');

  // The manage page of the same email.
  const manage = path(/href="([^"]+\/m\/[^"]+)"/.exec(String(parsed.html))![1]!);
  const managed = await env.daemon.request('GET', manage, undefined, { key: null });
  assert.match(managed.body, 'is currently <strong>subscribed</strong> to emails from <strong>Acme &lt;News&gt; &amp; Co</strong>');

  // A link made outside any email (a webhook's {{unsubscribeUrl}}) carries no email: the project's name.
  const shop = env.daemon.createProject('Shop & Co');
  const contact = await env.daemon.request('POST', '/contacts', { email: 'hooked@rcpt.test' }, { key: shop.secretKey });
  const db = new Database(storeFile(join(env.daemon.dataDir, 'store')));
  db.pragma('busy_timeout = 5000');
  let token: string;
  try {
    token = signToken({ db }, { kind: 'unsubscribe', projectId: shop.id, contactId: contact.body.id });
  } finally {
    db.close();
  }
  const hooked = await env.daemon.request('GET', `/u/${token}`, undefined, { key: null });
  assert.match(hooked.body, 'Stop sending email from <strong>Shop &amp; Co</strong>');
});

test('the List-Unsubscribe mailto fallback unsubscribes through the inbound listener', async () => {
  const { parsed, contactId } = await newsletter('mailer@rcpt.test');
  const mailto = /<mailto:([^?>]+)\?subject=([^>]+)>/.exec(rawHeader(parsed, 'list-unsubscribe'))!;
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: env.daemon.smtpPort, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'mailer@rcpt.test', to: mailto[1], subject: mailto[2], text: 'unsubscribe' });
  transport.close();
  await eventually(async () => (await env.daemon.request('GET', `/contacts/${contactId}`)).body.subscribed === false, 8000, 'mailto unsubscribe');
});

test('transactional mail is not tracked unless the project turns tracking on', async () => {
  const send = async () => {
    const before = env.sink.messages.length;
    await env.daemon.request('POST', '/v1/send', { to: 'tx@rcpt.test', from: 'hello@sender.test', subject: 'Receipt', body: '<a href="https://example.com/r">receipt</a>' });
    return String((await simpleParser((await env.sink.waitFor(before + 1, 8000))[before]!.raw)).html);
  };
  assert.not.match(await send(), '/t/c/');
  assert.equal(env.daemon.cli('project', 'tracking', env.daemon.project.id, 'on'), { id: env.daemon.project.id, trackTransactional: true });
  assert.match(await send(), '/t/c/');
});

// Last in this file: it uses up the address's allowance for a minute.
test('the public pages are rate limited per client address', async () => {
  let limited = null as Response | null;
  for (let i = 0; i < 400 && !limited; i++) {
    const r = await fetch(`${env.daemon.url}/u/not-a-real-token-${i}`);
    await r.arrayBuffer();
    if (r.status === 429) limited = r;
  }
  assert.ok(limited, 'refused within 400 requests');
  assert.ok(Number(limited!.headers.get('retry-after')) > 0);
  const api = await env.daemon.request('GET', '/contacts');
  assert.is(api.status, 200, 'the API limit is per project, apart from the pages');
});

test.run();
