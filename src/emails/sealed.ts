// Sealed emails: the daemon's own account mail, whose links act as its recipient. Delivery reads
// them as any other; the API never shows their message, to any role, so no member of the project
// can take a link meant for someone else (an ADMIN using an OWNER's invitation, say).
import { ApiError } from '../errors.js';
import { sql, type Db } from '../store/db.js';

/** Marks the email sealed: call in the transaction that stores it. */
export function sealEmail(db: Db, emailId: string): void {
  sql(db, 'INSERT INTO sealed_emails (email_id) VALUES (?)').run(emailId);
}

export const isSealed = (db: Db, emailId: string): boolean => sql(db, 'SELECT 1 FROM sealed_emails WHERE email_id = ?').get(emailId) !== undefined;

export const sealedMessage = () =>
  new ApiError(403, 'FORBIDDEN', "This is the daemon's account mail (an invitation): its message carries a link for its recipient only, and no one else may read it", {
    suggestion: 'Its delivery shows in GET /emails/{id}; to pass on an invitation, use the link POST /members answered, or invite again',
  });
