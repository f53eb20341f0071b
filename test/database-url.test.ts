// database.url (POSTMILL_DATABASE_URL): validated like every key, and while this build cannot serve
// from PostgreSQL, a command given one stops with one line and exit 1; it never falls back to
// SQLite in dataDir without saying so, and never prints the URL (it may carry a password).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'postmill-database-url-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const REFUSAL =
  'postmill: database.url names a PostgreSQL database, and this build of Postmill cannot serve from PostgreSQL yet; unset database.url (POSTMILL_DATABASE_URL) to use the SQLite store in dataDir\n';
const URL_WITH_PASSWORD = 'postgres://postmill:s3cret-pw@127.0.0.1:5432/postmill';

test('serve with database.url set: one line saying PostgreSQL is not served yet, exit 1, no store made in dataDir, no password printed', async () => {
  const dataDir = join(dir, 'serve');
  const run = await runCli(['serve'], { POSTMILL_DATABASE_URL: URL_WITH_PASSWORD, POSTMILL_DATA_DIR: dataDir, POSTMILL_HTTP_PORT: '0', POSTMILL_SMTP_PORT: '0' });
  assert.is(run.status, 1);
  assert.is(run.stderr, REFUSAL);
  assert.is(run.stdout, '', 'no ready line');
  assert.not.ok(existsSync(dataDir), 'SQLite was not used in its place');
  assert.not.match(run.stderr + run.stdout, 's3cret-pw');
});

test('every other command refuses the same way; from the file too, postgresql:// alike', async () => {
  const dataDir = join(dir, 'commands');
  for (const args of [['project', 'list'], ['user', 'list'], ['doctor']]) {
    const run = await runCli(args, { POSTMILL_DATABASE_URL: URL_WITH_PASSWORD, POSTMILL_DATA_DIR: dataDir });
    assert.is(run.status, 1, args.join(' '));
    assert.is(run.stderr, REFUSAL, args.join(' '));
  }
  const file = join(dir, 'postmill.json');
  writeFileSync(file, JSON.stringify({ dataDir, database: { url: 'postgresql://postgres@127.0.0.1/postmill' } }));
  const fromFile = await runCli(['project', 'list', '--config', file]);
  assert.is(fromFile.status, 1);
  assert.is(fromFile.stderr, REFUSAL);
  assert.not.ok(existsSync(dataDir));
});

test('a value that is not a postgres:// URL of a database is refused as invalid, naming the key; empty is unset', async () => {
  const dataDir = join(dir, 'invalid');
  for (const url of ['mysql://root@127.0.0.1/postmill', 'postgres://127.0.0.1:5432', 'postgres://127.0.0.1/a/b', 'not a url']) {
    const run = await runCli(['project', 'list'], { POSTMILL_DATABASE_URL: url, POSTMILL_DATA_DIR: dataDir });
    assert.is(run.status, 1, url);
    assert.is(
      run.stderr,
      `postmill: invalid configuration key "database.url": expected postgres://user:pass@host:port/database (or postgresql://...) (got ${JSON.stringify(url)})\n`,
    );
  }
  // a refused URL is quoted without its password
  const withPassword = await runCli(['project', 'list'], { POSTMILL_DATABASE_URL: 'mysql://root:s3cret-pw@127.0.0.1/postmill', POSTMILL_DATA_DIR: dataDir });
  assert.is(withPassword.status, 1);
  assert.match(withPassword.stderr, '(got "mysql://root:***@127.0.0.1/postmill")');
  assert.not.match(withPassword.stderr, 's3cret-pw');
  const unset = await runCli(['project', 'list', '--json'], { POSTMILL_DATABASE_URL: '', POSTMILL_DATA_DIR: dataDir });
  assert.is(unset.status, 0, unset.stderr);
  assert.ok(existsSync(join(dataDir, 'postmill.db')) || existsSync(join(dataDir, 'store', 'postmill.db')), 'the SQLite store in dataDir');
});

test.run();
