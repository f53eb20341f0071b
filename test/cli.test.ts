import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { MAIN, startTestDaemon } from './helpers/daemon.js';

test('serve: first start prints the default project keys once, then the ready line; SIGTERM exits 0', async () => {
  const d = await startTestDaemon();
  try {
    assert.is(d.project.name, 'default');
    assert.ok(/^pk_[0-9a-f]{64}$/.test(d.project.publicKey));
    assert.ok(/^sk_[0-9a-f]{64}$/.test(d.project.secretKey));
    assert.ok(/^http:\/\/127\.0\.0\.1:\d+$/.test(d.url));
    // exit 0: stopped within its own deadline (past 9.5 s serve exits 1, saying shutdown took too long)
    assert.is(await d.stop(), 0);
    await d.restart();
    const list = d.cli('project', 'list');
    assert.is(list.length, 1, 'no second default project on restart');
    assert.equal(Object.keys(list[0]).sort(), ['createdAt', 'disabled', 'id', 'name']);
  } finally {
    await d.dispose();
  }
});

test('SIGTERM with an idle SMTP client and an open HTTP connection still exits 0 within 10 s', async () => {
  const d = await startTestDaemon();
  try {
    const smtp = createConnection({ host: d.smtpHost, port: d.smtpPort });
    await new Promise((r) => smtp.once('data', r)); // the greeting; then it just sits there
    smtp.on('error', () => {});
    const http = createConnection({ host: '127.0.0.1', port: Number(new URL(d.url).port) });
    http.write('GET /health HTTP/1.1\r\nHost: x\r\n'); // an unfinished request
    http.on('error', () => {});
    // exit 0: neither connection held the stop past serve's 9.5 s deadline (it exits 1 then)
    assert.is(await d.stop(), 0);
    smtp.destroy();
    http.destroy();
  } finally {
    await d.dispose();
  }
});

test('keys are stored hashed, never in plain text', async () => {
  const d = await startTestDaemon();
  try {
    const p = d.createProject('hashed');
    await d.stop();
    const db = new Database(join(d.dataDir, 'store', 'postmill.db'), { readonly: true });
    const rows = db.prepare('SELECT hash FROM api_keys').all() as { hash: string }[];
    db.close();
    assert.ok(rows.length >= 4);
    assert.ok(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash) && r.hash !== p.secretKey.slice(3)));
  } finally {
    await d.dispose();
  }
});

test('project commands with --json print the contract shapes', async () => {
  const d = await startTestDaemon();
  try {
    const created = d.createProject('acme');
    assert.equal(Object.keys(created).sort(), ['id', 'name', 'publicKey', 'secretKey']);
    const rotated = d.cli('project', 'rotate-keys', created.id);
    assert.equal(Object.keys(rotated).sort(), ['id', 'publicKey', 'secretKey']);
    assert.equal(d.cli('project', 'disable', created.id), { id: created.id, disabled: true });
    assert.equal(d.cli('project', 'enable', created.id), { id: created.id, disabled: false });
    const unknown = spawnSync(process.execPath, [MAIN, 'project', 'disable', 'nope', '--json', '--config', d.configFile]);
    assert.is.not(unknown.status, 0);
  } finally {
    await d.dispose();
  }
});

test('backup writes a consistent copy while the daemon runs', async () => {
  const d = await startTestDaemon();
  try {
    await d.request('POST', '/contacts', { email: 'kept@backup.test' });
    const file = join(d.dataDir, 'copy.db');
    const out = d.cli('backup', file);
    assert.is(out.file, file);
    assert.ok(out.bytes > 0);
    const copy = new Database(file, { readonly: true });
    const row = copy.prepare('SELECT email FROM contacts').get() as { email: string };
    copy.close();
    assert.is(row.email, 'kept@backup.test');
  } finally {
    await d.dispose();
  }
});

test('configuration: unknown keys and invalid values stop the start naming the key; env wins over the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-config-'));
  try {
    const file = join(dir, 'c.json');
    const run = (config: object, env: Record<string, string> = {}) => {
      writeFileSync(file, JSON.stringify({ dataDir: join(dir, 'data'), ...config }));
      return spawnSync(process.execPath, [MAIN, 'project', 'list', '--json', '--config', file], { env: { ...process.env, ...env } });
    };
    const unknown = run({ http: { prot: 1 } });
    assert.is(unknown.status, 1);
    assert.match(unknown.stderr.toString(), 'http.prot');
    const badPort = run({ http: { port: 70000 } });
    assert.match(badPort.stderr.toString(), 'http.port');
    const badEnv = run({}, { POSTMILL_RATE_LIMIT_PER_MINUTE: 'lots' });
    assert.match(badEnv.stderr.toString(), 'rateLimit.perMinute');
    const badMode = run({ delivery: { mode: 'carrier-pigeon' } });
    assert.match(badMode.stderr.toString(), 'delivery.mode');
    const envWins = run({ dataDir: join(dir, 'from-file') }, { POSTMILL_DATA_DIR: join(dir, 'from-env') });
    assert.is(envWins.status, 0);
    assert.ok(existsSync(join(dir, 'from-env', 'postmill.db')));
    assert.not.ok(existsSync(join(dir, 'from-file')));
    const example = execFileSync(process.execPath, [MAIN, 'project', 'list', '--json', '--config', join(MAIN, '..', '..', 'config', 'postmill.example.json')], {
      env: { ...process.env, POSTMILL_DATA_DIR: join(dir, 'example') },
    });
    assert.equal(JSON.parse(example.toString()), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
