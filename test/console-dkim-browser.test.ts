// The console's DKIM key rotation and Ed25519 switch in Debian's Chromium against the real daemon and
// its loopback DNS: Rotate key shows the new key waiting, a second press is refused with the reason,
// the record copied from the page and published makes the background check switch keys (seen without
// a reload); Settings > DKIM signing gives each domain an Ed25519 key. Found by role and accessible name.
import type { Browser } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import type { RegisteredDomain } from './helpers/domains.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
let tab: ConsoleTab | null = null;
let registered: RegisteredDomain;

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv(), startBrowser()]);
  registered = await env.verifySender('keys.test');
  makeUser(env.daemon, 'admin@example.test', { id: env.daemon.project.id, role: 'ADMIN' });
});
test.after(async () => {
  await tab?.context.close();
  await browser?.close();
  await env?.close();
});

interface KeyRecord {
  name: string;
  value: string;
  purpose: string;
  selector?: string;
  algorithm?: string;
  state?: string;
}

const keysNow = async (): Promise<KeyRecord[]> =>
  ((await env.daemon.request('GET', `/domains/${registered.id}`)).body.records as KeyRecord[]).filter((r) => r.purpose === 'dkim');

test('Domains: Rotate key shows the new key waiting, refuses a second rotation, and the page follows the switch once the copied record is published', async () => {
  tab = await openTab(browser, `${env.daemon.url}/app/domains`);
  await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.daemon.url });
  const { page } = tab;
  await signInAs(page, 'admin@example.test', PASSWORD);
  const section = page.getByRole('region', { name: 'keys.test' });
  const table = section.getByRole('table', { name: 'Records to publish at the DNS host of keys.test' });
  const dkimRows = table.getByRole('row').filter({ hasText: /^DKIM/ });
  await section.getByRole('status').filter({ hasText: 'Verified' }).waitFor();
  assert.is(await dkimRows.count(), 1);
  await dkimRows.filter({ hasText: 'DKIM RSA signing' }).waitFor();

  await section.getByRole('button', { name: 'Rotate key of keys.test' }).click();
  await section.getByRole('status').filter({ hasText: 'A new DKIM key is waiting' }).waitFor();
  const [old, fresh] = await keysNow();
  assert.is(fresh?.state, 'pending');
  await dkimRows.filter({ hasText: `new key, waitingselector ${fresh!.selector}` }).waitFor();
  assert.is(await dkimRows.count(), 2);

  await section.getByRole('button', { name: 'Rotate key of keys.test' }).click();
  await section.getByRole('alert').filter({ hasText: `is waiting for its record at ${fresh!.name}` }).waitFor();

  // the record as the page copies it, published: the background check switches keys, the page follows
  await section.getByRole('button', { name: `Copy DKIM TXT value, selector ${fresh!.selector}` }).click();
  const copied = await eventually(async () => {
    const text = await page.evaluate<string>('navigator.clipboard.readText()');
    return text.startsWith('v=DKIM1') ? text : null;
  }, 5000, 'the new DKIM value copied');
  assert.is(copied, fresh!.value);
  env.dns.set(fresh!.name, 'TXT', [copied]);
  await env.advance(5 * 60_000 + 1000);
  await dkimRows.filter({ hasText: `DKIM RSA signingselector ${fresh!.selector}` }).waitFor({ timeout: 20_000 });
  await dkimRows.filter({ hasText: `DKIM RSA replacedselector ${old!.selector}: keep it published until` }).waitFor();
  assert.equal(
    (await keysNow()).map((k) => [k.selector, k.state]),
    [
      [fresh!.selector, 'active'],
      [old!.selector, 'retiring'],
    ],
  );

  // Settings > DKIM signing: Ed25519 on gives the domain a second key to publish
  const main = page.getByRole('navigation', { name: 'Main' });
  await main.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'DKIM signing' }).click();
  await page.getByRole('heading', { name: 'DKIM signing', level: 1 }).waitFor();
  const box = page.getByRole('checkbox', { name: 'Sign with Ed25519 beside RSA' });
  assert.is(await box.isChecked(), false);
  await box.check();
  await page.getByRole('status').filter({ hasText: 'Saved: each domain has an Ed25519 key' }).waitFor();
  assert.equal((await env.daemon.request('GET', '/settings/dkim')).body, { dkimEd25519: true });
  await main.getByRole('link', { name: 'Domains' }).click();
  await dkimRows.filter({ hasText: 'DKIM Ed25519 new key, waiting' }).waitFor();
  assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
});

test.run();
