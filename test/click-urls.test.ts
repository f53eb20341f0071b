import Database from 'better-sqlite3';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { storeFile } from '../src/store/db.js';
import { addTracking } from '../src/tracking/rewrite.js';
import { signToken } from '../src/tracking/tokens.js';
import { MAX_TRACKED_URL, trackableUrl } from '../src/tracking/url.js';
import { sendAndReceive } from './helpers/delivered.js';
import { eventsNamed, startMailEnv, type MailEnv } from './helpers/mail-env.js';

// Click links are rewritten with their target normalised (WHATWG URL, percent-encoding); the
// redirect is always a 302 with a printable-ASCII Location; a target that cannot be made valid is
// left unrewritten. Tokens signed before (raw targets) still redirect, or answer 404.

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
const LONG = `https://example.com/${'x'.repeat(MAX_TRACKED_URL)}`;

/** Written target (as in the HTML attribute) -> expected Location, or null when it must stay unrewritten. */
const CASES: [string, string | null][] = [
  ['https://example.com/a b?q=c d#e f', 'https://example.com/a%20b?q=c%20d#e%20f'],
  ['https://bücher.example/straße?ä=ö#ü', 'https://xn--bcher-kva.example/stra%C3%9Fe?%C3%A4=%C3%B6#%C3%BC'],
  ['https://example.com/x\u0001y\u007fz\u0080', 'https://example.com/x%01y%7Fz%C2%80'],
  ['https://example.com/tab\there\nand\rnewline', 'https://example.com/tabhereandnewline'],
  ['https://example.com/&#x20;sp&#1;&#128512;&amp;x=1&quot;', 'https://example.com/%20sp%01%F0%9F%98%80&x=1%22'],
  ['https://example.com/caf&eacute;?a=1&copy=2&amp;b', 'https://example.com/caf%C3%A9?a=1&copy=2&b'],
  ['  https://example.com/trimmed  ', 'https://example.com/trimmed'],
  ['HTTPS://EXAMPLE.COM/Path', 'https://example.com/Path'],
  ['https://example.com/%zz%', 'https://example.com/%zz%'],
  ['https://example.com/\u2028\u00a0end', 'https://example.com/%E2%80%A8%C2%A0end'],
  ['https://user:pä ss@example.com/', 'https://user:p%C3%A4%20ss@example.com/'],
  ['https://exa mple.com/', null],
  ['https://exa\u0000mple.com/', null],
  ['http://[::1/', null],
  ['https://', null],
  ['https://example.com:99999/', null],
  [LONG, null],
];

test('trackableUrl: WHATWG normalisation to printable ASCII, or null', () => {
  for (const [written, expected] of CASES) {
    const raw = written.replace(/&#x20;/g, ' ').replace(/&#1;/g, '\u0001').replace(/&#128512;/g, '😀').replace(/&eacute;/g, 'é').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
    assert.is(trackableUrl(raw), expected, JSON.stringify(written));
  }
  assert.is(trackableUrl('javascript:alert(1)'), null);
  assert.is(trackableUrl('mailto:a@b.test'), null);
});

test('addTracking signs the normalised target and leaves the rest alone', () => {
  const signed: string[] = [];
  const links = { openUrl: 'https://t.test/t/o/x', ownBase: 'https://t.test', clickUrl: (url: string) => (signed.push(url), `https://t.test/t/c/${signed.length}`) };
  const html = CASES.map(([href], i) => `<a href="${href}">L${i}</a>`).join('') + `<a href='https://example.com/single quoted'>S</a>`;
  const out = addTracking(html, links);
  assert.equal(signed, [...CASES.filter(([, e]) => e !== null).map(([, e]) => e), 'https://example.com/single%20quoted']);
  for (const [written, expected] of CASES) if (expected === null) assert.ok(out.includes(`href="${written}"`), `left as written: ${written.slice(0, 40)}`);
});

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('links.test');
  env.routeToSink('rcpt.test');
  env.daemon.cli('project', 'tracking', env.daemon.project.id, 'on');
});
test.after(async () => env.close());

/** The anchors of the delivered HTML, by their text. */
async function deliveredLinks(body: string): Promise<{ emailId: string; links: Map<string, string> }> {
  const { parsed, emailId } = await sendAndReceive(env, { to: 'reader@rcpt.test', from: 'news@links.test', subject: 'Links', body });
  const links = new Map([...String(parsed.html).matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => [m[2]!, m[1]!.replace(/&amp;/g, '&')]));
  return { emailId, links };
}

test('through the daemon: each rewritten link redirects (302) to its normalised target in printable ASCII; invalid ones stay as written', async () => {
  const html = CASES.map(([href], i) => `<a href="${href}">L${i}</a>`).join(' ');
  const { emailId, links } = await deliveredLinks(`<html><body>${html}</body></html>`);
  for (const [i, [written, expected]] of CASES.entries()) {
    const href = links.get(`L${i}`)!;
    if (expected === null) {
      assert.not.ok(href.includes('/t/c/'), `not rewritten: ${written.slice(0, 40)}`);
      continue;
    }
    assert.ok(href.includes('/t/c/'), `rewritten: ${written}`);
    const res = await fetch(env.daemon.url + new URL(href).pathname, { redirect: 'manual' });
    assert.is(res.status, 302, written);
    const location = res.headers.get('location')!;
    assert.ok(PRINTABLE_ASCII.test(location), location);
    assert.is(location, expected, written);
  }
  const clicks = (await eventsNamed(env.daemon, 'email.click')).filter((e) => e.emailId === emailId);
  assert.is(clicks.length, CASES.filter(([, e]) => e !== null).length);
});

test('tokens signed with a raw target (before normalisation) redirect to its valid form, or answer 404; never a 500', async () => {
  const { emailId } = await deliveredLinks('<a href="https://example.com/">L0</a>');
  const db = new Database(storeFile(join(env.daemon.dataDir, 'store')));
  db.pragma('busy_timeout = 5000');
  try {
    const click = (url: string) => fetch(`${env.daemon.url}/t/c/${signToken({ db }, { kind: 'click', emailId, url })}`, { redirect: 'manual' });
    const raw = await click('https://example.com/a b\u0001ü\r\n');
    assert.is(raw.status, 302);
    assert.is(raw.headers.get('location'), 'https://example.com/a%20b%01%C3%BC');
    for (const invalid of ['https://exa mple.com/', 'https://exa\u0000mple.com/', 'javascript:alert(1)', 'ftp://example.com/']) {
      const r = await click(invalid);
      assert.is(r.status, 404, invalid);
      assert.match(await r.text(), 'This link is not valid');
    }
  } finally {
    db.close();
  }
});

test.run();
