// The console as the daemon serves it: where it lives, its headers (a strict CSP, caching), the
// single-page fallback, and the weight of its first page.
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { as, makeUser, signIn } from './helpers/console-session.js';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;

test.before(async () => {
  d = await startTestDaemon();
});
test.after(() => d.dispose());

const get = (path: string, headers: Record<string, string> = {}) => fetch(d.url + path, { redirect: 'manual', headers });

test('GET / and /app redirect to /app/', async () => {
  for (const path of ['/', '/app']) {
    const res = await get(path);
    assert.is(res.status, 302, path);
    assert.is(res.headers.get('location'), '/app/');
  }
});

test('the page: a strict CSP (no inline script, no eval; inline styles and remote images only for the template preview), no framing, no referrer, never cached', async () => {
  const res = await get('/app/');
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/html/);
  const csp = res.headers.get('content-security-policy')!;
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
  assert.equal(directives.get('default-src'), ["'self'"]);
  assert.equal(directives.get('script-src'), ["'self'"]);
  // the preview's srcdoc iframe (sandboxed, no scripts) lives under this policy: email HTML is styled inline
  assert.equal(directives.get('style-src'), ["'self'", "'unsafe-inline'"]);
  assert.equal(directives.get('img-src'), ["'self'", 'https:', 'data:']);
  assert.equal(directives.get('frame-ancestors'), ["'none'"]);
  assert.not.match(csp.replace("style-src 'self' 'unsafe-inline'", ''), /unsafe-inline/, 'inline styles only');
  assert.not.match(csp, /unsafe-eval|\*/);
  assert.is(res.headers.get('x-content-type-options'), 'nosniff');
  assert.is(res.headers.get('referrer-policy'), 'no-referrer');
  assert.is(res.headers.get('cache-control'), 'no-store');
  const html = await res.text();
  // everything the page runs or styles is a file of our own: no inline script, style or handler
  assert.not.match(html, /<script(?![^>]*\bsrc=)[^>]*>/);
  assert.not.match(html, /<style|\sstyle=|\son[a-z]+=/i);
});

test('any other path under /app/ answers the page (the app routes in the browser); a missing asset is a 404, never the page', async () => {
  const page = await (await get('/app/')).text();
  for (const path of ['/app/settings/members', '/app/setup', '/app/no/such/page']) {
    const res = await get(path);
    assert.is(res.status, 200, path);
    assert.is(await res.text(), page);
  }
  const missing = await get('/app/assets/nope.js');
  assert.is(missing.status, 404);
  assert.is(((await missing.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  assert.is((await fetch(`${d.url}/app/`, { method: 'POST' })).status, 404, 'the console is GET only');
});

/** The scripts the page loads at once: its module entry and what it preloads. */
async function firstPageScripts(): Promise<string[]> {
  const html = await (await get('/app/')).text();
  return [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+)"/g)].map((m) => m[1]!);
}

/** Marks of the body editors' libraries in built code: their own CSS class names. */
const EDITOR_MARKS = { CodeMirror: 'cm-gutter', 'ProseMirror (TipTap)': 'ProseMirror' };

test('assets: hashed names, cached for a year, gzip when asked; the first page stays under 300 KB of gzipped JavaScript, without the body editors', async () => {
  const scripts = await firstPageScripts();
  assert.ok(scripts.length >= 1);
  let gzipped = 0;
  for (const src of scripts) {
    assert.match(src, /^\/app\/assets\/[\w-]+-[\w-]{8}\.js$/, 'a content hash in the name');
    const plain = await get(src);
    assert.is(plain.status, 200);
    assert.match(plain.headers.get('content-type')!, /javascript/);
    assert.is(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const bytes = Buffer.from(await plain.arrayBuffer());
    const packed = await get(src, { 'accept-encoding': 'gzip' });
    assert.is(packed.headers.get('content-encoding'), 'gzip');
    gzipped += gzipSync(bytes, { level: 9 }).length;
    // the editors are chunks of their own, loaded by the pages that edit a body
    for (const [library, mark] of Object.entries(EDITOR_MARKS)) assert.not.ok(bytes.includes(mark), `${src} holds ${library}`);
  }
  assert.ok(gzipped < 300 * 1024, `the first page loads ${gzipped} bytes of gzipped JavaScript`);
});

test("session requests count against the project's rate limit, with the key's requests", async () => {
  makeUser(d, 'limits@example.test', { id: d.project.id, role: 'MEMBER' });
  const s = await signIn(d, 'limits@example.test');
  const bySession = await d.request('GET', '/contacts', undefined, as(d, s, d.project.id));
  assert.is(bySession.headers.get('ratelimit-limit'), '1000');
  const byKey = await d.request('GET', '/contacts');
  assert.is(Number(byKey.headers.get('ratelimit-remaining')), Number(bySession.headers.get('ratelimit-remaining')) - 1, 'one budget for both');
});

test.run();
