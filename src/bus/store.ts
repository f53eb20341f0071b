import { sql, type Db } from '../store/db.js';
import type { StoredEvent } from './reactor.js';

/** The event row: every event of the bus is written here, in the transaction of its cause. */
export function insertEvent(db: Db, event: StoredEvent): void {
  sql(db, 'INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    event.id,
    event.projectId,
    event.contactId,
    event.emailId,
    event.name,
    JSON.stringify(event.data),
    event.createdAt,
  );
}
