import type { Core } from '../core.js';
import { sql, type Db } from '../store/db.js';
import { newWebhookSecret, SIGNATURE_FORMAT, SIGNATURE_HEADER } from './signature.js';

/** What a receiver needs to check a webhook's signature (GET /settings/webhooks). */
export interface WebhookSettings {
  signingSecret: string;
  algorithm: 'HMAC-SHA256';
  header: typeof SIGNATURE_HEADER;
  format: typeof SIGNATURE_FORMAT;
}

const settingsOf = (signingSecret: string): WebhookSettings => ({ signingSecret, algorithm: 'HMAC-SHA256', header: SIGNATURE_HEADER, format: SIGNATURE_FORMAT });

const storedSecret = (db: Db, projectId: string): string | null =>
  (sql(db, 'SELECT webhook_secret FROM projects WHERE id = ?').get(projectId) as { webhook_secret: string | null } | undefined)?.webhook_secret ?? null;

/** The project's webhook signing secret, made on first need (never replacing one another process made meanwhile). */
export function projectWebhookSecret(ctx: Pick<Core, 'db'>, projectId: string): string {
  const existing = storedSecret(ctx.db, projectId);
  if (existing) return existing;
  sql(ctx.db, 'UPDATE projects SET webhook_secret = ? WHERE id = ? AND webhook_secret IS NULL').run(newWebhookSecret(), projectId);
  return storedSecret(ctx.db, projectId) ?? '';
}

/** A new secret for the project (the old one stops verifying at once); null for an unknown project. */
export function rotateWebhookSecret(db: Db, projectId: string): string | null {
  const secret = newWebhookSecret();
  return sql(db, 'UPDATE projects SET webhook_secret = ? WHERE id = ?').run(secret, projectId).changes === 1 ? secret : null;
}

/** The project's signing settings, its secret made if it has none yet. */
export const webhookSettings = (ctx: Pick<Core, 'db'>, projectId: string): WebhookSettings => settingsOf(projectWebhookSecret(ctx, projectId));

/** Settings with a new secret; null for an unknown project. */
export function rotatedWebhookSettings(ctx: Pick<Core, 'db'>, projectId: string): WebhookSettings | null {
  const secret = rotateWebhookSecret(ctx.db, projectId);
  return secret === null ? null : settingsOf(secret);
}
