import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMANDS } from '../src/cli/run.js';
import { runCli as run, type CliRun } from './helpers/cli.js';
import { MAIN, startTestDaemon } from './helpers/daemon.js';

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

test('--help on every command: its usage on stdout, exit 0; wrong use exits 2 with the usage', () => {
  for (const command of COMMANDS) {
    const r = spawnSync(process.execPath, [MAIN, ...command.words, '--help']);
    assert.is(r.status, 0, command.words.join(' '));
    assert.match(r.stdout.toString(), `usage: postmill ${command.words.join(' ')}`);
    assert.match(r.stdout.toString(), '--config FILE');
  }
  const overview = spawnSync(process.execPath, [MAIN, '--help']);
  assert.is(overview.status, 0);
  for (const command of COMMANDS) assert.match(overview.stdout.toString(), command.words.join(' '));
  assert.match(spawnSync(process.execPath, [MAIN, 'project', '--help']).stdout.toString(), 'project rotate-keys ID');
  for (const wrong of [['serve', '--name', 'x'], ['project', 'create'], ['restore'], ['nope'], ['project', 'list', '--bogus'], []]) {
    const r = spawnSync(process.execPath, [MAIN, ...wrong]);
    assert.is(r.status, 2, wrong.join(' '));
    assert.match(r.stderr.toString(), 'usage: postmill');
  }
});

test('start-up failures: one line naming the setting, a nonzero exit, never a stack trace or a spin', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-startup-'));
  const taken = createServer();
  const port = await listen(taken);
  try {
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not a certificate');
    writeFileSync(join(dir, 'a-file'), 'x');
    // Each case its own data directory: they run at once, and the lock would refuse all but one.
    const base = (i: number) => ({ POSTMILL_DATA_DIR: join(dir, `data-${i}`), POSTMILL_HTTP_PORT: '0', POSTMILL_SMTP_PORT: '0' });
    const cases: [Record<string, string>, string][] = [
      [{ POSTMILL_HTTP_PORT: String(port) }, 'http.port'],
      [{ POSTMILL_SMTP_PORT: String(port) }, 'smtp.port'],
      [{ POSTMILL_SUBMISSION_PORT: String(port) }, 'submission.port'],
      [{ POSTMILL_SMTP_TLS_KEY: join(dir, 'missing.key'), POSTMILL_SMTP_TLS_CERT: join(dir, 'missing.crt') }, 'smtp.tlsKey'],
      [{ POSTMILL_SMTP_TLS_KEY: junk, POSTMILL_SMTP_TLS_CERT: junk }, 'smtp.tlsCert'],
      [{ POSTMILL_HTTP_HOST: 'no-such-host.invalid' }, 'http.host'],
      [{ POSTMILL_SMTP_HOST: '192.0.2.1' }, 'smtp.host'],
      [{ POSTMILL_DATA_DIR: '/proc/postmill-cannot-be-created' }, 'dataDir'],
      [{ POSTMILL_DATA_DIR: join(dir, 'a-file', 'data') }, 'dataDir'],
      [{ POSTMILL_SMTP_MAX_SIZE: '0' }, 'smtp.maxSize'],
      [{ POSTMILL_SMTP_MAX_PER_CLIENT: '0' }, 'smtp.maxPerClient'],
      [{ POSTMILL_SMTP_MAX_CLIENTS: '0' }, 'smtp.maxClients'],
      [{ POSTMILL_HOSTNAME: 'mail example.test' }, 'hostname'],
      [{ POSTMILL_HOSTNAME: 'mail.example.test\r\nX-Injected: 1' }, 'hostname'],
      [{ POSTMILL_HTTP_HOST: '127.0.0.1 ' }, 'http.host'],
      [{ POSTMILL_SMTP_HOST: 'mx\n.example.test' }, 'smtp.host'],
      [{ POSTMILL_PUBLIC_URL: 'https://mail.example.test/\r\nX: y' }, 'publicUrl'],
      [{ POSTMILL_ADMIN_TOKEN: 'x' }, 'adminToken'],
      [{ POSTMILL_ADMIN_TOKEN: 'a'.repeat(23) }, 'adminToken'],
      [{ POSTMILL_ADMIN_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(10)}` }, 'adminToken'],
    ];
    // four at a time, each allowed a minute: twenty daemons starting at once on a loaded machine can
    // take longer than a spinning start would be let run
    const results: CliRun[] = [];
    for (let i = 0; i < cases.length; i += 4) {
      results.push(...(await Promise.all(cases.slice(i, i + 4).map(([env], j) => run(['serve'], { ...base(i + j), ...env }, 60_000)))));
    }
    results.forEach((r, i) => {
      const [env, key] = cases[i]!;
      const what = `${JSON.stringify(env)}: ${r.stderr}`;
      assert.ok(r.status !== null && r.status !== 0, `exits nonzero by itself, ${what}`);
      assert.is(r.stderr.trim().split('\n').length, 1, `one line, ${what}`);
      assert.match(r.stderr, `"${key}"`, what);
      // a port in use also names the variable that moves it
      if (key.endsWith('.port')) assert.match(r.stderr, `${Object.keys(env)[0]!}=<port>`, what);
      assert.not.match(r.stderr, /\n\s+at /, `no stack trace, ${what}`);
      assert.not.match(r.stdout, 'ready', what);
    });
    const fine = await run(['project', 'list', '--json'], { ...base(cases.length), POSTMILL_ADMIN_TOKEN: 'a'.repeat(24) });
    assert.is(fine.status, 0, '24 characters are enough: ' + fine.stderr);
  } finally {
    taken.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the data directory is locked: a second serve exits nonzero saying so; the project commands work beside the daemon', async () => {
  const d = await startTestDaemon();
  try {
    const second = await run(['serve', '--config', d.configFile], { POSTMILL_HTTP_PORT: '0', POSTMILL_SMTP_PORT: '0' });
    assert.is(second.status, 1);
    assert.match(second.stderr, 'in use by another postmill process');
    assert.is(second.stderr.trim().split('\n').length, 1);
    const created = d.createProject('beside');
    assert.ok(d.cli('project', 'list').some((p: { id: string }) => p.id === created.id));
    assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200, 'the first daemon is untouched');
    // kill -9 leaves no stale lock: the system drops it with the process.
    await d.kill();
    await d.restart();
    assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200);
  } finally {
    await d.dispose();
  }
});

test('restore: refused while the daemon runs; checks the backup; replaces the store and keeps the old one; newer stores are refused', async () => {
  const d = await startTestDaemon();
  try {
    await d.request('POST', '/contacts', { email: 'before@backup.test' });
    const file = join(d.dataDir, 'backup.db');
    d.cli('backup', file);
    await d.request('POST', '/contacts', { email: 'after@backup.test' });
    const busy = await run(['restore', file, '--config', d.configFile]);
    assert.is(busy.status, 1);
    assert.match(busy.stderr, 'stop the daemon before restoring');
    assert.is(await d.stop(), 0);

    const junk = join(d.dataDir, 'junk.db');
    writeFileSync(junk, 'this is not a database at all, not even close'.repeat(200));
    for (const bad of [junk, join(d.dataDir, 'missing.db')]) {
      const refused = await run(['restore', bad, '--config', d.configFile]);
      assert.is(refused.status, 1, bad);
      assert.is(refused.stderr.trim().split('\n').length, 1);
    }

    assert.equal(d.cli('restore', file), { file, restored: true });
    await d.restart();
    const emails = (await d.request('GET', '/contacts')).body.data.map((c: { email: string }) => c.email);
    assert.equal(emails, ['before@backup.test']);
    assert.ok(spawnSync('test', ['-f', join(d.dataDir, 'store', 'postmill.db.before-restore')]).status === 0, 'the replaced store is kept');
    await d.stop();

    // A store written by a newer version (a higher schema number) is refused, as a backup and in place.
    const Database = (await import('better-sqlite3')).default;
    const newer = new Database(file);
    newer.pragma('user_version = 999');
    newer.close();
    const restoreNewer = await run(['restore', file, '--config', d.configFile]);
    assert.is(restoreNewer.status, 1);
    assert.match(restoreNewer.stderr, 'newer Postmill');
    const store = new Database(join(d.dataDir, 'store', 'postmill.db'));
    store.pragma('user_version = 999');
    store.close();
    const serveNewer = await run(['serve', '--config', d.configFile], { POSTMILL_HTTP_PORT: '0', POSTMILL_SMTP_PORT: '0' });
    assert.is(serveNewer.status, 1);
    assert.match(serveNewer.stderr, 'newer Postmill');
    assert.is(serveNewer.stderr.trim().split('\n').length, 1);
  } finally {
    await d.dispose();
  }
});

test.run();
