import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAIN, startTestDaemon } from './helpers/daemon.js';

const ADMIN = 'version-admin-token-0123456789abcdef';
const { version } = JSON.parse(readFileSync(join(resolve(MAIN, '..', '..'), 'package.json'), 'utf8')) as { version: string };

test('postmill --version prints the version of package.json on stdout and exits 0; --json gives {"version"}', () => {
  assert.match(version, /^\d+\.\d+\.\d+/);
  for (const args of [['--version'], ['serve', '--version']]) {
    const plain = spawnSync(process.execPath, [MAIN, ...args]);
    assert.is(plain.status, 0, args.join(' '));
    assert.is(plain.stdout.toString(), `${version}\n`);
    assert.is(plain.stderr.toString(), '');
  }
  const json = spawnSync(process.execPath, [MAIN, '--version', '--json']);
  assert.is(json.status, 0);
  assert.equal(JSON.parse(json.stdout.toString()), { version });
  assert.match(spawnSync(process.execPath, [MAIN, '--help']).stdout.toString(), 'postmill --version');
});

test('GET /health names the version only to the admin token; /metrics has postmill_build_info', async () => {
  const d = await startTestDaemon({ config: { adminToken: ADMIN } });
  try {
    const health = async (key: string | null) => {
      const r = await d.request('GET', '/health', undefined, { key });
      assert.is(r.status, 200);
      return r.body;
    };
    for (const key of [null, d.project.secretKey, d.project.publicKey, 'not-the-admin-token-at-all-0000']) assert.equal(await health(key), { status: 'ok' });
    assert.equal(await health(ADMIN), { status: 'ok', version });
    const metrics = await d.request('GET', '/metrics', undefined, { key: ADMIN });
    assert.is(metrics.status, 200);
    assert.match(metrics.body as string, '# TYPE postmill_build_info gauge');
    assert.match(metrics.body as string, `\npostmill_build_info{version="${version}"} 1\n`);
  } finally {
    await d.dispose();
  }
  const open = await startTestDaemon();
  try {
    assert.equal((await open.request('GET', '/health', undefined, { key: 'anything-at-all-0000000000000' })).body, { status: 'ok' }, 'no adminToken configured: nobody gets the version');
  } finally {
    await open.dispose();
  }
});

test.run();
