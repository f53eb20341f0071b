import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { insertContact, type Contact } from '../../src/contacts/store.js';
import { openStore, type Db } from '../../src/store/db.js';
import type { TestDaemon } from './daemon.js';

/** Writes straight into a stopped daemon's store, then starts it again: set-up at the speed of SQLite. */
export async function seedStore(d: TestDaemon, write: (db: Db) => void): Promise<void> {
  await d.stop();
  const db = openStore(join(d.dataDir, 'store'));
  try {
    db.transaction(() => write(db))();
  } finally {
    db.close();
  }
  await d.restart();
}

/** `count` subscribed contacts of the project, `n@domain`, created one millisecond apart. */
export function seedContacts(d: TestDaemon, projectId: string, count: number, domain: string, data: (i: number) => Contact['data'] = () => ({})): Promise<void> {
  return seedStore(d, (db) => {
    const start = Date.now() - count;
    for (let i = 0; i < count; i++) {
      insertContact(db, { id: randomUUID(), projectId, email: `${i}@${domain}`, subscribed: true, data: data(i), createdAt: start + i, updatedAt: start + i });
    }
  });
}
