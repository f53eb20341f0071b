// The reader threads in process: a project's reads one at a time while another project's go on
// the other thread, a project's backlog bounded (429), budgets (422) and statements without budget().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../src/errors.js';
import { openStore, storeFile } from '../src/store/db.js';
import { startReader, type Reader } from '../src/store/reader.js';

const dir = mkdtempSync(join(tmpdir(), 'postmill-reader-'));
let reader: Reader;

/** 200 ORed substring tests over every contact's note: about a second for the heavy project. */
const HEAVY = `SELECT COUNT(*) AS n FROM contacts WHERE budget() AND project_id = ? AND (${Array.from({ length: 200 }, (_, i) => `instr(lower(json_extract(data, '$.note')), 'zz${i}') > 0`).join(' OR ')})`;
const CHEAP = 'SELECT COUNT(*) AS n FROM contacts WHERE budget() AND project_id = ?';

test.before(() => {
  const db = openStore(dir);
  for (const [project, contacts] of [
    ['heavy', 20_000],
    ['light', 10],
  ] as const) {
    db.prepare('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)').run(project, project);
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
       SELECT ? || x, ?, x || '@r.test', x || '@r.test', 1, json_object('note', hex(randomblob(24))), 0, 0 FROM n`,
    ).run(contacts, project, project);
  }
  db.close();
  reader = startReader(storeFile(dir), 2);
});
test.after(async () => {
  await reader.stop();
  rmSync(dir, { recursive: true, force: true });
});

const settled = <T>(p: Promise<T>) => p.then(() => 'done', (err: unknown) => err);

test("another project's read goes on the other thread while a heavy read runs; the heavy project's next reads wait their turn, past 16 in progress a 429", async () => {
  const heavy = { projectId: 'heavy', budgetMs: 60_000 };
  let heavyDone = false;
  const first = reader.get<{ n: number }>(heavy, HEAVY, ['heavy']).finally(() => (heavyDone = true));
  const queued = Array.from({ length: 15 }, () => settled(reader.get(heavy, CHEAP, ['heavy'])));
  const refused = await settled(reader.get(heavy, CHEAP, ['heavy']));
  assert.instance(refused, ApiError);
  assert.equal([(refused as ApiError).status, (refused as ApiError).code], [429, 'RATE_LIMIT_EXCEEDED']);
  const light = await reader.get<{ n: number }>({ projectId: 'light', budgetMs: 60_000 }, CHEAP, ['light']);
  assert.is(light!.n, 10);
  assert.not.ok(heavyDone, "the light project's read was answered while the heavy one still ran");
  assert.is((await first)!.n, 0);
  assert.equal(await Promise.all(queued), Array(15).fill('done'));
});

test('a read past its budget answers 422 QUERY_TIMEOUT and frees its thread; a statement without budget() is refused', async () => {
  const stopped = await settled(reader.get({ projectId: 'heavy', budgetMs: 30 }, HEAVY, ['heavy']));
  assert.instance(stopped, ApiError);
  assert.equal([(stopped as ApiError).status, (stopped as ApiError).code], [422, 'QUERY_TIMEOUT']);
  assert.is((await reader.get<{ n: number }>({ projectId: 'heavy', budgetMs: 1000 }, CHEAP, ['heavy']))!.n, 20_000);
  const unbudgeted = await settled(reader.get({ projectId: 'light', budgetMs: 1000 }, 'SELECT COUNT(*) FROM contacts', []));
  assert.match(String(unbudgeted), /budget\(\)/);
});

test.run();
