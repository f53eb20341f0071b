// The single executable (npm run package) and the systemd unit that runs it. Building takes a few
// seconds (esbuild, then injecting the bundle into a copy of node), so this suite builds once.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAIN } from './helpers/daemon.js';
import { verifyDkim } from './helpers/dkim-verify.js';
import { ADMIN, eventsNamed, eventually, startMailEnv } from './helpers/mail-env.js';

const root = resolve(MAIN, '..', '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const dir = mkdtempSync(join(tmpdir(), 'postmill-package-'));
const executable = join(dir, 'postmill');

test.before(async () => {
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'package.mjs'), executable], { cwd: root });
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('the single executable runs without Node.js on the PATH: ready line, /health, a send delivered, inbound mail, a count on the reader thread, project list --json, the console', async () => {
  // No node on the PATH: the executable carries its own runtime, addon, workers, schemas and migrations.
  const env = await startMailEnv({ daemon: { executable, env: { PATH: '/nonexistent' } } });
  try {
    const d = env.daemon;
    assert.equal((await d.request('GET', '/health', undefined, { key: null })).body, { status: 'ok' });
    // The version comes from the package.json embedded in the executable.
    assert.equal((await d.request('GET', '/health', undefined, { key: ADMIN })).body, { status: 'ok', version });
    assert.match((await d.request('GET', '/metrics', undefined, { key: ADMIN })).body, `\npostmill_build_info{version="${version}"} 1\n`);
    await env.verifySender('acme.test');
    env.routeToSink('rcpt.test');
    const sent = await d.request('POST', '/v1/send', { to: 'ann@rcpt.test', from: 'hello@acme.test', subject: 'From the executable', body: '<p>hi</p>' });
    assert.is(sent.status, 200, JSON.stringify(sent.body));
    const [message] = await env.sink.waitFor(1, 10_000);
    assert.ok((await verifyDkim(message!.raw, env.dns.address)).pass, 'signed on the worker thread of the executable');
    // Inbound mail: parsed and judged (mailparser, mailauth) inside the executable too.
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: d.smtpPort, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'someone@people.test', to: 'support@acme.test', subject: 'a question', text: 'hello' });
    transport.close();
    const received = await eventually(async () => (await eventsNamed(d, 'email.received'))[0], 10_000, 'email.received');
    assert.is(received.data.subject, 'a question');
    // Long reads run on the reader thread, which opens the store through the embedded addon too.
    const segment = await d.request('POST', '/segments', { name: 'All', condition: { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'contains', value: '@' }] }] } });
    assert.is(segment.status, 201, JSON.stringify(segment.body));
    const counted = await d.request('POST', `/segments/${segment.body.id}/refresh`);
    assert.is(counted.status, 200, JSON.stringify(counted.body));
    assert.ok(counted.body.memberCount >= 1, JSON.stringify(counted.body));
    const list = d.cli('project', 'list');
    assert.equal(
      list.map((p: { name: string }) => p.name),
      ['default'],
    );
    // The SQLite addon is written beside the store; a file there that is not the embedded addon is
    // written over before it is loaded, never loaded as it is.
    const native = join(d.dataDir, 'store', 'native');
    const addon = readdirSync(native).find((f) => /^better_sqlite3-[0-9a-f]{16}\.node$/.test(f));
    assert.ok(addon, readdirSync(native).join(', '));
    const genuine = readFileSync(join(native, addon));
    await d.kill();
    writeFileSync(join(native, addon), 'not the addon');
    await d.restart();
    assert.is((await d.request('GET', '/health', undefined, { key: null })).body.status, 'ok');
    assert.ok(readFileSync(join(native, addon)).equals(genuine), 'the embedded bytes again');
    // The console is embedded too: its page and the script it names.
    const page = await fetch(`${d.url}/app/`);
    assert.is(page.status, 200);
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    assert.ok(script, 'the page names its script');
    const js = await fetch(d.url + script!);
    assert.is(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    assert.is(await d.stop(), 0);
  } finally {
    await env.close();
  }
});

test('the executable answers --help and --version and exits 2 on wrong use, like node dist/main.js', () => {
  const help = spawnSync(executable, ['doctor', '--help'], { env: { PATH: '/nonexistent' } });
  assert.is(help.status, 0);
  assert.match(help.stdout.toString(), 'usage: postmill doctor');
  assert.is(help.stderr.toString(), '', 'no warnings of the runtime');
  const shown = spawnSync(executable, ['--version'], { env: { PATH: '/nonexistent' } });
  assert.is(shown.status, 0);
  assert.is(shown.stdout.toString(), `${version}\n`);
  assert.is(shown.stderr.toString(), '');
  assert.equal(JSON.parse(spawnSync(executable, ['--version', '--json']).stdout.toString()), { version });
  assert.is(spawnSync(executable, ['nope']).status, 2);
});

test("the executable carries PostgreSQL's migrations beside SQLite's: in the folder list it reads, and each file whole", () => {
  const bytes = readFileSync(executable);
  const folder = 'src/store/migrations/postgres';
  const files = readdirSync(join(root, folder)).filter((f) => f.endsWith('.sql'));
  assert.ok(files.length > 0);
  assert.ok(bytes.includes(`${JSON.stringify(folder)}:${JSON.stringify(files)}`), 'listed in the embedded folders.json');
  for (const file of files) assert.ok(bytes.includes(readFileSync(join(root, folder, file))), file);
});

const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (systemdAnalyze) {
  test('systemd-analyze verify accepts the shipped unit once the executable is at the path of ExecStart, as docs/operations.md says', () => {
    const shipped = join(root, 'systemd', 'postmill.service');
    const unit = readFileSync(shipped, 'utf8');
    const installed = '/usr/local/bin/postmill';
    assert.match(unit, /^ExecStart=\/usr\/local\/bin\/postmill serve --config \/etc\/postmill\/postmill.json$/m);
    // verify checks that ExecStart's program exists: here it is the one just built, not /usr/local/bin.
    const copy = join(dir, 'postmill.service');
    writeFileSync(copy, unit.replace(`ExecStart=${installed}`, `ExecStart=${executable}`));
    const r = spawnSync('systemd-analyze', ['verify', copy]);
    assert.is(r.status, 0, r.stderr.toString());
    assert.is(r.stderr.toString().trim(), '');
    // Where nothing is installed the shipped unit fails for that one reason, and the docs say so.
    if (!existsSync(installed)) {
      const bare = spawnSync('systemd-analyze', ['verify', shipped]);
      assert.is.not(bare.status, 0);
      assert.is(bare.stderr.toString().trim(), `postmill.service: Command ${installed} is not executable: No such file or directory`);
    }
    const operations = readFileSync(join(root, 'docs', 'operations.md'), 'utf8').replace(/\s+/g, ' ');
    assert.match(operations, `\`systemd-analyze verify\` passes on it once the executable is installed at \`${installed}\``);
  });
} else {
  console.log('package.test: systemd-analyze is not installed here; the unit is verified where it is (.ci/run)');
}

test.run();
