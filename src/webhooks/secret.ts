import { findWebhookSecret, replaceWebhookSecret, setWebhookSecretIfNone } from '../projects/store.js';
import type { Db } from '../store/db.js';
import { newWebhookSecret } from '../projects/keys.js';
import { SIGNATURE_FORMAT, SIGNATURE_HEADER } from './signature.js';

/** What a receiver needs to check a webhook's signature (GET /settings/webhooks). */
export interface WebhookSettings {
  signingSecret: string;
  algorithm: 'HMAC-SHA256';
  header: typeof SIGNATURE_HEADER;
  format: typeof SIGNATURE_FORMAT;
}

const settingsOf = (signingSecret: string): WebhookSettings => ({ signingSecret, algorithm: 'HMAC-SHA256', header: SIGNATURE_HEADER, format: SIGNATURE_FORMAT });

/** The project's webhook signing secret, made on first need (never replacing one another process made meanwhile). */
export function projectWebhookSecret(db: Db, projectId: string): string {
  const existing = findWebhookSecret(db, projectId);
  if (existing) return existing;
  setWebhookSecretIfNone(db, projectId, newWebhookSecret());
  return findWebhookSecret(db, projectId) ?? '';
}

/** A new secret for the project (the old one stops verifying at once); null for an unknown project. */
export function rotateWebhookSecret(db: Db, projectId: string): string | null {
  const secret = newWebhookSecret();
  return replaceWebhookSecret(db, projectId, secret) ? secret : null;
}

/** The project's signing settings, its secret made if it has none yet. */
export const webhookSettings = (db: Db, projectId: string): WebhookSettings => settingsOf(projectWebhookSecret(db, projectId));

/** Settings with a new secret; null for an unknown project. */
export function rotatedWebhookSettings(db: Db, projectId: string): WebhookSettings | null {
  const secret = rotateWebhookSecret(db, projectId);
  return secret === null ? null : settingsOf(secret);
}
