// The README's quickstart, followed as written: `npm start` from the checkout (the command read from
// README.md), the keys and setup link read from what it prints (which must look like the README's
// sample, the daemon's "postmill started" log line included), a second `npm start` on the busy port
// (its one line must be the README's), then in Chromium: setup, sign in, Domains > add > Mark
// verified without DNS; the README's curl command with the printed secret key; the Outbox renders
// the message with DKIM pass; Messages shows its timeline with the README's names; the contact the
// send made says it is unsubscribed; the README's bounce command; Suppressions lists the address;
// Messages shows the bounce in the timeline.
//
// The test sets only what a test must, through the environment: POSTMILL_DATA_DIR (a temporary
// store instead of ./data) and POSTMILL_HTTP_PORT / POSTMILL_SMTP_PORT = 0 (free ports; the hosts
// stay the default loopback 127.0.0.1). The install step (`npm install`, which builds) is the build
// `npm test` made before running this.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { eventually } from './helpers/mail-env.js';
import { commandsOf, readmeBlocks, readmeSection, ROOT, samplePattern, withoutComment } from './helpers/readme.js';

const run = promisify(execFile);
const PASSWORD = 'correct horse battery staple';
/** A loaded 2-core machine starts npm, node and the daemon slowly. */
const START_MS = 60_000;

const blocks = readmeBlocks('Quickstart');
const commands = commandsOf(blocks);
const startCommand = commands.find((c) => /^npm start\b/.test(c));
const sample = blocks.find((b) => b.lang === '' && b.lines.some((l) => l.startsWith('postmill ready')));
const busySample = blocks.find((b) => b.lang === '' && b.lines.some((l) => l.includes('already in use')))?.lines[0];
const [sendCommand, bounceCommand] = commands.filter((c) => c.startsWith('curl '));
/** Step 4's names, in bold: "**Messages** shows its timeline: **Queued**, **Sent** (...), ...". */
const timelineNames = [...(/\*\*Messages\*\* shows its timeline: ([\s\S]*?)\.\n/.exec(readmeSection('Quickstart'))?.[1] ?? '').matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);

/** The JSON a curl command of the README posts (`-d '{...}'`). */
function postedBody(command: string): { to: string; from: string; subject: string; body: string } {
  const json = /-d '([^']+)'/.exec(command)?.[1];
  if (!json) throw new Error(`no -d '...' body in: ${command}`);
  return JSON.parse(json);
}

let dataDir: string;
let daemon: ChildProcess;
let printed: string[] = [];
/** What the daemon logged (stderr: JSON lines). */
let logged: string[] = [];
let origin: string;
let secretKey: string;
let setupUrl: string;
let browser: Browser;
let tab: ConsoleTab;

/** What a newcomer's shell has (no settings of ours), with what the test must set. */
function newcomerEnv(settings: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('POSTMILL_') && v !== undefined) env[k] = v;
  return Object.assign(env, settings);
}

/** `npm start` as the README says, until its ready line. */
async function npmStart(): Promise<void> {
  const env = newcomerEnv({ POSTMILL_DATA_DIR: dataDir, POSTMILL_HTTP_PORT: '0', POSTMILL_SMTP_PORT: '0' });
  // its own process group: npm, its shell and the daemon stop together
  daemon = spawn('sh', ['-c', startCommand!], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  createInterface({ input: daemon.stderr! }).on('line', (line) => logged.push(line));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within ${START_MS} ms; printed:\n${printed.join('\n')}\n${logged.join('\n')}`)), START_MS);
    createInterface({ input: daemon.stdout! }).on('line', (line) => {
      printed.push(line);
      if (line.startsWith('postmill ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    daemon.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before ready:\n${printed.join('\n')}\n${logged.join('\n')}`));
    });
  });
}

async function stopDaemon(): Promise<void> {
  if (!daemon?.pid || daemon.exitCode !== null || daemon.signalCode !== null) return;
  const exited = new Promise((r) => daemon.once('exit', r));
  process.kill(-daemon.pid, 'SIGTERM');
  const timer = setTimeout(() => process.kill(-daemon.pid!, 'SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** A README command as the user runs it: the printed secret key for `sk_...`, this daemon's address for the README's. */
async function runReadme(command: string): Promise<any> {
  const typed = command.replaceAll('sk_...', secretKey).replaceAll('http://127.0.0.1:3000', origin);
  const { stdout } = await run('sh', ['-c', typed], { cwd: ROOT, timeout: 30_000 });
  return JSON.parse(stdout);
}

/** The API as the owner's key sees it (what the console should show). */
async function apiGet(path: string): Promise<any> {
  const res = await fetch(origin + path, { headers: { authorization: `Bearer ${secretKey}` } });
  assert.is(res.status, 200, path);
  return res.json();
}

/** `npm start` again with `settings`: it must fail by itself (killed past START_MS); what it wrote on stderr. */
async function failedStart(settings: Record<string, string>): Promise<string> {
  const env = newcomerEnv({ POSTMILL_DATA_DIR: mkdtempSync(join(tmpdir(), 'postmill-quickstart-busy-')), ...settings });
  const child = spawn('sh', ['-c', startCommand!], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), START_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  rmSync(env.POSTMILL_DATA_DIR!, { recursive: true, force: true });
  assert.ok(code !== null && code !== 0, `exits by itself with a failure status (${code}): ${stderr}`);
  return stderr;
}

test.before(async () => {
  assert.ok(startCommand, 'the quickstart has an `npm start` command');
  assert.ok(sample, 'the quickstart shows what the first start prints');
  assert.ok(busySample, "the quickstart shows what a busy port's start prints");
  assert.ok(timelineNames.length > 0, "the quickstart's step 4 names the timeline's entries in bold");
  assert.ok(sendCommand && bounceCommand, 'the quickstart has the two curl commands');
  dataDir = mkdtempSync(join(tmpdir(), 'postmill-quickstart-'));
  [browser] = await Promise.all([startBrowser(), npmStart()]);
});
test.after(async () => {
  await tab?.context.close();
  await browser?.close();
  await stopDaemon();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the quickstart installs with npm install and starts with npm start', () => {
  assert.equal(blocks[0]!.lines.map(withoutComment), ['npm install', 'npm start']);
});

test('npm start prints what the README shows: keys, setup link, the log line, capture mode, ready', async () => {
  let at = 0;
  for (const line of sample!.lines) {
    if (line.startsWith('{')) {
      // the daemon's log line (stderr, a pipe apart from stdout's ready line: it may be read later),
      // with this test's data directory for the README's default
      const pattern = samplePattern(line.replace('"dataDir":"./data"', `"dataDir":${JSON.stringify(dataDir)}`));
      await eventually(
        (saw) => (saw(logged.join('\n')), logged.some((l) => pattern.test(l.trim()))),
        START_MS,
        `logged a line like the README's "${line}"`,
      );
      continue;
    }
    const pattern = samplePattern(line);
    const found = printed.findIndex((p, i) => i >= at && pattern.test(p.trim()));
    assert.ok(found >= 0, `printed a line like the README's "${line}" (after line ${at}); printed:\n${printed.join('\n')}`);
    at = found + 1;
  }
  origin = /^postmill ready http=(\S+)/.exec(printed.find((l) => l.startsWith('postmill ready'))!)![1]!;
  secretKey = /secret key: (sk_\w+)/.exec(printed.join('\n'))![1]!;
  setupUrl = printed.map((l) => l.trim()).find((l) => l.includes('/app/setup#token='))!;
  assert.ok(setupUrl.startsWith(`${origin}/app/setup#token=`), setupUrl);
  assert.ok(printed.some((l) => l.includes(`${origin}/app/outbox`)), 'the capture line names the Outbox');
});

test("a busy port: npm start says so in the README's words, naming the variable the README's fix sets", async () => {
  const httpPort = new URL(origin).port;
  const smtpPort = /smtp=\S+:(\d+)/.exec(printed.find((l) => l.startsWith('postmill ready'))!)![1]!;
  const [http, smtp] = await Promise.all([
    failedStart({ POSTMILL_HTTP_PORT: httpPort, POSTMILL_SMTP_PORT: '0' }),
    failedStart({ POSTMILL_HTTP_PORT: '0', POSTMILL_SMTP_PORT: smtpPort }),
  ]);
  const pattern = samplePattern(busySample!);
  assert.ok(http.split('\n').some((l) => pattern.test(l.trim())), `printed a line like the README's "${busySample}"; printed:\n${http}`);
  assert.ok(smtp.includes(`cannot use configuration key "smtp.port": 127.0.0.1:${smtpPort} is already in use`), smtp);
  assert.match(smtp, 'POSTMILL_SMTP_PORT=<port>');
  const fix = readmeSection('Quickstart');
  for (const name of ['POSTMILL_HTTP_PORT=', 'POSTMILL_SMTP_PORT=', '`http.port`', '`smtp.port`']) assert.ok(fix.includes(name), `the quickstart names ${name}`);
});

test('open the setup link, choose a password, sign in', async () => {
  const you = postedBody(sendCommand!).to;
  tab = await openTab(browser, setupUrl);
  const { page } = tab;
  await page.getByRole('heading', { name: 'Choose your password', level: 1 }).waitFor();
  await page.getByLabel('Email').fill(you);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  // "Later, sign in at http://127.0.0.1:3000/app/"
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto(`${origin}/app/`);
  await signInAs(page, you, PASSWORD);
  const banner = page.getByRole('complementary', { name: 'Capture mode' });
  await banner.getByText('Capture mode: nothing leaves this machine.').waitFor();
  assert.ok((await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).includes('Outbox'), 'capture mode has an Outbox');
});

test('Domains: add the sender domain and mark it verified without DNS', async () => {
  const { page } = tab;
  const domain = postedBody(sendCommand!).from.split('@')[1]!;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
  await page.getByLabel('Domain name').fill(domain);
  await page.getByRole('button', { name: 'Add domain' }).click();
  const card = page.getByRole('region', { name: domain });
  await card.getByRole('button', { name: /^Mark verified without DNS/ }).click();
  await card.getByText('Verified without DNS', { exact: true }).waitFor();
  assert.is(await card.getByRole('button', { name: /^Mark verified without DNS/ }).count(), 0, 'the button goes once the mark is made');
});

test('send yourself an email with curl: the Outbox renders it, DKIM passes', async () => {
  const { page } = tab;
  const posted = postedBody(sendCommand!);
  const sent = await runReadme(sendCommand!);
  assert.ok(sent.success, JSON.stringify(sent));
  await page.getByRole('complementary', { name: 'Capture mode' }).getByRole('link', { name: 'open the Outbox' }).click();
  await page.getByRole('heading', { name: 'Outbox', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Captured messages, newest first' }).getByRole('link', { name: posted.to }).click();
  await page.getByRole('heading', { name: posted.subject, level: 1 }).waitFor();
  const heading = /<h1>([^<]+)<\/h1>/.exec(posted.body)![1]!;
  await page.getByTitle('Rendered message').contentFrame().getByRole('heading', { name: heading }).waitFor();
  // the signature is checked against DNS first, then the domain's own record
  const dkim = page.getByRole('list', { name: 'DKIM signatures' }).getByRole('listitem');
  await dkim.first().waitFor({ timeout: 30_000 });
  const results = await dkim.allTextContents();
  assert.is(results.length, 1, results.join(' | '));
  assert.match(results[0]!, `DKIM pass for ${posted.from.split('@')[1]}`);
  assert.match(results[0]!, "key from this domain's records, not yet in DNS");
  await page.getByText('SpamAssassin: spamd not configured').waitFor();
  await page.getByRole('table', { name: /headers, in order/ }).getByRole('row', { name: /^Subject / }).waitFor();
  assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
});

test("Messages shows the email's timeline with the README's names, in its order", async () => {
  const { page } = tab;
  const posted = postedBody(sendCommand!);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click();
  await page.getByRole('table', { name: 'Emails, newest first' }).getByRole('link', { name: posted.to }).click();
  await page.getByRole('heading', { name: `Email to ${posted.to}`, level: 1 }).waitFor();
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await timeline.getByText('Delivered', { exact: true }).waitFor();
  const entries = await timeline.getByRole('listitem').allTextContents();
  assert.is(entries.length, timelineNames.length, `the README names every entry (${timelineNames.join(', ')}): ${entries.join(' | ')}`);
  timelineNames.forEach((name, i) => assert.ok(entries[i]!.includes(name), `entry ${i + 1} is ${name}: ${entries[i]}`));
  assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
});

test('Contacts: the send made the address a contact, unsubscribed, and its page says why', async () => {
  const { page } = tab;
  const posted = postedBody(sendCommand!);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('table', { name: /Contacts of/ }).getByRole('link', { name: posted.to }).click();
  await page.getByRole('heading', { name: posted.to, level: 1 }).waitFor();
  await page.getByText(/^Never subscribed: a contact that a send \(\/v1\/send\) creates starts unsubscribed/).waitFor();
  assert.is((await apiGet(`/contacts?search=${encodeURIComponent(posted.to)}`)).data[0].subscribed, false);
  assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
});

test('send to the bounce simulator: Suppressions lists the address; Messages shows the timeline', async () => {
  const { page } = tab;
  const posted = postedBody(bounceCommand!);
  const sent = await runReadme(bounceCommand!);
  assert.ok(sent.success, JSON.stringify(sent));
  const emailId: string = sent.data.emails[0].email;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('navigation', { name: 'Contacts' }).getByRole('link', { name: 'Suppressions' }).click();
  const table = page.getByRole('table', { name: 'Suppressed addresses, newest first' });
  // the bounce comes back through the inbound path about a second later
  await eventually(
    async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Suppressions', level: 1 }).waitFor();
      await page.getByText(/Loading suppressions/).waitFor({ state: 'detached' });
      return (await table.getByRole('row', { name: new RegExp(posted.to.replace(/\./g, '\\.')) }).count()) === 1;
    },
    30_000,
    `${posted.to} on the Suppressions page`,
  );
  assert.match((await table.getByRole('row', { name: new RegExp(posted.to.replace(/\./g, '\\.')) }).textContent()) ?? '', 'Hard bounce');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click();
  await page.getByRole('searchbox', { name: 'Search recipient or subject' }).fill('bounce@');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.getByRole('table', { name: 'Emails, newest first' }).getByRole('link', { name: posted.to }).click();
  await page.getByRole('heading', { name: `Email to ${posted.to}`, level: 1 }).waitFor();
  const api = await apiGet(`/emails/${emailId}`);
  const attempt = api.attempts[0];
  assert.is(attempt.mx, 'simulator');
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await timeline.getByText('Bounced', { exact: true }).waitFor();
  const text = (await timeline.textContent()) ?? '';
  assert.match(text, `Server${attempt.mx}`);
  assert.match(text, attempt.reply);
  assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');
});

test.run();
