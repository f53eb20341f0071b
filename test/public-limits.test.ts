import type { IncomingMessage } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../src/config.js';
import { clientAddressOf } from '../src/http/client-address.js';
import { startTestDaemon } from './helpers/daemon.js';
import { sendAndReceive, unsubscribePath } from './helpers/delivered.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

// The public pages limit page views and invalid tokens per client address; what a genuine token
// does (one-click unsubscribe, the confirmation forms, opens, clicks) is never refused. Behind
// reverse proxies listed in http.trustProxy, the client is the address X-Forwarded-For names.

const LIMIT = 300;

/** A request as the HTTP server hands it over: its socket's peer, and the header if any. */
const request = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, connection: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

test('clientAddressOf: the socket peer unless it is a trusted proxy; then X-Forwarded-For from the right, past trusted hops', () => {
  const none = clientAddressOf([]);
  assert.is(none(request('203.0.113.9', '198.51.100.1')), '203.0.113.9', 'no proxies: the header is ignored');
  assert.is(none(request('::ffff:127.0.0.1')), '127.0.0.1');
  const proxied = clientAddressOf(['127.0.0.1', '10.0.0.0/8', '2001:db8::/32']);
  assert.is(proxied(request('127.0.0.1', '198.51.100.1')), '198.51.100.1');
  assert.is(proxied(request('::ffff:127.0.0.1', '198.51.100.1')), '198.51.100.1', 'IPv4 on a dual-stack socket');
  assert.is(proxied(request('127.0.0.1', '192.0.2.66, 198.51.100.1, 10.1.2.3')), '198.51.100.1', 'a chain of trusted proxies is skipped, a spoofed left part is not believed');
  assert.is(proxied(request('127.0.0.1', '10.0.0.1, 10.0.0.2')), '10.0.0.1', 'all hops trusted: the leftmost');
  assert.is(proxied(request('127.0.0.1', '2001:db8::1, 2001:DB8::5')), '2001:db8::1', 'IPv6');
  assert.is(proxied(request('127.0.0.1', '')), '127.0.0.1');
  assert.is(proxied(request('203.0.113.9', '198.51.100.1')), '203.0.113.9', 'an untrusted peer cannot name anyone');
  assert.is(clientAddressOf(['loopback'])(request('::1', '198.51.100.7')), '198.51.100.7', 'named ranges');
});

test('http.trustProxy: off by default; a list or comma-separated addresses and CIDR ranges; anything else stops the start naming the key', () => {
  assert.equal(loadConfig(null, {}).http.trustProxy, []);
  assert.equal(loadConfig(null, { POSTMILL_HTTP_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).http.trustProxy, ['127.0.0.1', '10.0.0.0/8', '::1']);
  for (const bad of ['localhost', '10.0.0.0/33', '1.2.3.4/8/1', '::1/129', '300.1.1.1']) {
    assert.throws(() => loadConfig(null, { POSTMILL_HTTP_TRUST_PROXY: bad }), /http\.trustProxy/, bad);
  }
});

let env: MailEnv;
let templateId: string;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('pages.test');
  env.routeToSink('rcpt.test');
  const t = await env.daemon.request('POST', '/templates', {
    name: 'News',
    subject: 'News',
    body: '<p><a href="https://example.com/read">Read</a> <a href="{{manageUrl}}">Manage</a></p>',
    from: 'news@pages.test',
    type: 'MARKETING',
  });
  templateId = t.body.id;
});
test.after(async () => env.close());

/** A delivered newsletter's links: one-click unsubscribe, manage page, pixel, click. */
async function newsletter(to: string) {
  const { parsed, contactId } = await sendAndReceive(env, { to, template: templateId, subscribed: true });
  const html = String(parsed.html);
  const path = (url: string) => new URL(url.replace(/&amp;/g, '&')).pathname;
  return {
    contactId,
    unsubscribe: unsubscribePath(parsed),
    manage: path(/href="([^"]+\/m\/[^"]+)"/.exec(html)![1]!),
    pixel: path(/<img src="([^"]*\/t\/o\/[^"]+)"/.exec(html)![1]!),
    click: path(/href="([^"]+\/t\/c\/[^"]+)"/.exec(html)![1]!),
  };
}

const hit = async (url: string, init: RequestInit = {}) => {
  const r = await fetch(url, { redirect: 'manual', ...init });
  await r.arrayBuffer();
  return r;
};
const oneClick = (base: string, path: string, headers: Record<string, string> = {}) =>
  hit(base + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: 'List-Unsubscribe=One-Click' });
const subscribed = async (contactId: string) => (await env.daemon.request('GET', `/contacts/${contactId}`)).body.subscribed as boolean;

/** Spends the client's allowance with invalid tokens; answers the refusal. */
async function exhaust(base: string, headers: Record<string, string> = {}): Promise<Response> {
  for (let i = 0; i <= LIMIT; i++) {
    const r = await hit(`${base}/u/not-a-token-${i}`, { method: i % 2 ? 'POST' : 'GET', headers });
    if (r.status === 429) return r;
    assert.is(r.status, 404);
  }
  throw new Error('never refused');
}

test('one address over its limit: invalid tokens and page views are 429, every genuine action still works and answers 200', async () => {
  const base = env.daemon.url;
  const a = await newsletter('first@rcpt.test');
  const b = await newsletter('second@rcpt.test');
  const refused = await exhaust(base);
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  assert.match(refused.headers.get('content-type') ?? '', 'text/html');

  assert.is((await hit(base + a.unsubscribe)).status, 429, 'a page view is limited');
  assert.is((await hit(`${base}/t/c/forged`)).status, 429, 'an invalid click token is limited');
  assert.is((await hit(`${base}/t/o/forged`)).status, 429, 'an invalid pixel token is limited');

  const done = await oneClick(base, a.unsubscribe);
  assert.is(done.status, 200, 'one-click with a genuine token is never refused');
  assert.is(await subscribed(a.contactId), false);
  assert.is((await oneClick(base, a.unsubscribe)).status, 200, 'and again: still 200');
  const managed = await hit(base + b.manage, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'subscribed=false' });
  assert.is(managed.status, 200, 'the manage form with a genuine token');
  assert.is(await subscribed(b.contactId), false);
  assert.is((await hit(base + b.pixel)).status, 200, 'opens of a genuine token');
  assert.is((await hit(base + b.click)).status, 302, 'clicks of a genuine token');
  const spoofed = await hit(`${base}/u/not-a-token`, { headers: { 'X-Forwarded-For': '198.51.100.77' } });
  assert.is(spoofed.status, 429, 'without trustProxy, X-Forwarded-For names nobody');
  assert.is((await env.daemon.request('GET', '/contacts')).status, 200, 'the API limit is per project, apart from the pages');

  await env.advance(61_000);
  assert.is((await hit(`${base}/u/not-a-token`)).status, 404, 'a minute later the allowance is back');
});

test('behind a trusted proxy each client named by X-Forwarded-For has its own allowance (POSTMILL_HTTP_TRUST_PROXY)', async () => {
  const d = await startTestDaemon({ env: { POSTMILL_HTTP_TRUST_PROXY: '127.0.0.1,::1' } });
  try {
    const client = (ip: string) => ({ 'X-Forwarded-For': `192.0.2.1, ${ip}` });
    await exhaust(d.url, client('198.51.100.1'));
    assert.is((await hit(`${d.url}/u/not-a-token`, { headers: client('198.51.100.1') })).status, 429);
    assert.is((await hit(`${d.url}/u/not-a-token`, { headers: client('198.51.100.2') })).status, 404, 'another client behind the same proxy');
    assert.is((await hit(`${d.url}/u/not-a-token`, { headers: { 'X-Forwarded-For': '198.51.100.1, 198.51.100.3' } })).status, 404, 'the rightmost untrusted hop is the client');
  } finally {
    await d.dispose();
  }
});

test.run();
