import type { Ctx } from '../context.js';
import { sql, type Db } from '../store/db.js';
import { newWebhookSecret } from './signature.js';

/** The project's webhook signing secret, made on first need. */
export function projectWebhookSecret(ctx: Pick<Ctx, 'db'>, projectId: string): string {
  const row = sql(ctx.db, 'SELECT webhook_secret FROM projects WHERE id = ?').get(projectId) as { webhook_secret: string | null } | undefined;
  return row?.webhook_secret ?? rotateWebhookSecret(ctx.db, projectId) ?? '';
}

/** A new secret for the project (the old one stops verifying at once); null for an unknown project. */
export function rotateWebhookSecret(db: Db, projectId: string): string | null {
  const secret = newWebhookSecret();
  return sql(db, 'UPDATE projects SET webhook_secret = ? WHERE id = ?').run(secret, projectId).changes === 1 ? secret : null;
}
