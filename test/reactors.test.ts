// The reactor mechanism in process: reactions live and die with their cause's transaction; jobs
// with a coalesce key make one job of a burst; the memo reactors ask never keeps an uncommitted view.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../src/bus/bus.js';
import type { ContactChange, StoredEvent } from '../src/bus/reactor.js';
import { ShiftableClock } from '../src/clock.js';
import { trackedEventName } from '../src/bus/catalogue.js';
import { JobQueue } from '../src/jobs/queue.js';
import type { Logger } from '../src/log.js';
import { openStore, type Db } from '../src/store/db.js';
import { tableMemo } from '../src/store/table-memo.js';

const log: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const dirs: string[] = [];

function fresh(): { db: Db; clock: ShiftableClock; queue: JobQueue } {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-reactors-'));
  dirs.push(dir);
  const db = openStore(dir);
  db.prepare("INSERT INTO projects (id, name, created_at, updated_at) VALUES ('p', 'p', 0, 0)").run();
  const clock = new ShiftableClock();
  return { db, clock, queue: new JobQueue(db, clock) };
}

test.after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const jobKinds = (db: Db) => (db.prepare('SELECT kind FROM jobs ORDER BY id').all() as { kind: string }[]).map((r) => r.kind);
const eventNames = (db: Db) => (db.prepare('SELECT name FROM events ORDER BY rowid').all() as { name: string }[]).map((r) => r.name);

test('a reaction is written in the transaction of its event, and rolls back with it', () => {
  const { db, clock, queue } = fresh();
  const bus = createBus(db, clock, log);
  const seen: StoredEvent[] = [];
  bus.react({
    name: 'test',
    events: [trackedEventName('a'), trackedEventName('b'), trackedEventName('c'), trackedEventName('lost')],
    onEvent(event) {
      assert.ok(db.inTransaction, 'called inside the transaction');
      seen.push(event);
      queue.enqueue(`reaction.${event.name}`, { eventId: event.id });
    },
  });
  bus.emit({ projectId: 'p', name: trackedEventName('a') });
  bus.emit({ projectId: 'p', name: trackedEventName('not-listened') });
  assert.throws(() =>
    bus.tx(() => {
      bus.emit({ projectId: 'p', name: trackedEventName('lost') });
      throw new Error('rollback');
    }),
  );
  bus.tx(() => {
    try {
      bus.tx(() => {
        bus.emit({ projectId: 'p', name: trackedEventName('lost') });
        throw new Error('savepoint rollback');
      });
    } catch {
      // the outer transaction goes on
    }
    bus.emit({ projectId: 'p', name: trackedEventName('b') });
  });
  assert.equal(eventNames(db), ['a', 'not-listened', 'b']);
  assert.equal(jobKinds(db), ['reaction.a', 'reaction.b'], 'exactly the committed events have their reactions');
  assert.equal(
    seen.map((e) => e.name),
    ['a', 'lost', 'lost', 'b'],
  );
  db.close();
});

test('reactors for every event and for contact writes; a failing reactor fails its cause', () => {
  const { db, clock } = fresh();
  const bus = createBus(db, clock, log);
  const all: string[] = [];
  const changes: ContactChange[] = [];
  bus.react({ name: 'all', events: 'all', onEvent: (e) => void all.push(e.name), onContactChange: (c) => void changes.push(c) });
  bus.react({
    name: 'picky',
    events: [trackedEventName('boom')],
    onEvent: () => {
      throw new Error('cannot record');
    },
  });
  bus.emit({ projectId: 'p', name: trackedEventName('x') });
  bus.contactChanged({ projectId: 'p', contactId: 'c1', change: 'updated' });
  assert.throws(() => bus.emit({ projectId: 'p', name: trackedEventName('boom') }), /cannot record/);
  assert.equal(all, ['x', 'boom']);
  assert.equal(changes, [{ projectId: 'p', contactId: 'c1', change: 'updated' }]);
  assert.equal(eventNames(db), ['x'], 'the event whose reaction failed was not stored');
  db.close();
});

test('a coalesce key makes one job of a burst, until that job starts', () => {
  const { db, clock, queue } = fresh();
  const enqueue = () => queue.enqueue('reactor.test', {}, { coalesceKey: 'k' });
  assert.ok(enqueue());
  assert.is(enqueue(), null);
  assert.is(enqueue(), null);
  assert.is(queue.claim('reactor.test', 10, 60_000).length, 1);
  assert.ok(enqueue(), 'a change after the start gets its own job');
  assert.is(enqueue(), null);
  // The started job goes back to the queue (a retry, a restart) beside the waiting one without conflict.
  const started = db.prepare("SELECT id FROM jobs WHERE status = 'running'").get() as { id: number };
  queue.retry(started.id, clock.now(), 'again');
  assert.is(queue.recover(), 0);
  assert.is((db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'queued'").get() as { n: number }).n, 2);
  assert.ok(queue.enqueue('other', {}), 'jobs without a key are unaffected');
  assert.ok(queue.enqueue('other', {}));
  db.close();
});

test('a memo answers inside transactions and never keeps what a transaction may still roll back', async () => {
  const { db } = fresh();
  let loads = 0;
  const memo = tableMemo(db, 'test', ['projects'], () => {
    loads++;
    return (db.prepare('SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n;
  });
  assert.is(memo('x'), 1);
  assert.is(memo('x'), 1);
  assert.is(loads, 1, 'kept');
  assert.throws(() =>
    db.transaction(() => {
      db.prepare("INSERT INTO projects (id, name, created_at, updated_at) VALUES ('q', 'q', 0, 0)").run();
      assert.is(memo('x'), 2, 'sees its own transaction');
      throw new Error('rollback');
    })(),
  );
  assert.is(memo('x'), 1, 'the rolled-back view was not kept');
  await new Promise((r) => setImmediate(r));
  db.prepare("INSERT INTO projects (id, name, created_at, updated_at) VALUES ('r', 'r', 0, 0)").run();
  await new Promise((r) => setImmediate(r));
  assert.is(memo('x'), 2);
  const before = loads;
  assert.is(memo('x'), 2);
  assert.is(loads, before, 'kept again once the write settled');
  db.close();
});

test.run();
