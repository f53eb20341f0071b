// What reactors ask on every emitted event ("does this project track a segment that cares?") is
// derived from tables that rarely change. A memo keeps the answer per key until one of its tables
// is written. Unlike row-cache.ts it answers inside transactions, where every emit runs: a write to
// a watched table (seen by a TEMP trigger of this connection) clears it, and until that write's
// transaction has ended (transactions are synchronous: by the next turn of the event loop) answers
// are computed but not kept, so nothing that may still roll back is remembered. Only the daemon
// writes the tables memoized here (no CLI command does), so other processes need no watching.
import type { Db } from './db.js';

export type Memo<T> = (key: string) => T;

export function tableMemo<T>(db: Db, name: string, tables: readonly string[], load: (key: string) => T): Memo<T> {
  const entries = new Map<string, T>();
  let unsettled = false;
  const changed = `postmill_memo_${name}_changed`;
  db.function(changed, { deterministic: false, directOnly: false }, () => {
    entries.clear();
    if (!unsettled) {
      unsettled = true;
      setImmediate(() => {
        entries.clear();
        unsettled = false;
      });
    }
    return null;
  });
  for (const table of tables) {
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS memo_${name}_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table} BEGIN SELECT ${changed}(); END`);
    }
  }
  return (key) => {
    const known = entries.get(key);
    if (known !== undefined) return known;
    const value = load(key);
    if (!unsettled) entries.set(key, value);
    return value;
  };
}
