import { createHash, randomBytes } from 'node:crypto';

export type KeyKind = 'public' | 'secret';

export const newKey = (kind: KeyKind): string => (kind === 'public' ? 'pk_' : 'sk_') + randomBytes(32).toString('hex');

/** A new signing secret of the project's WEBHOOK requests (GET /settings/webhooks shows it). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

const KEY_SHAPE = /^(pk|sk)_[0-9a-f]{64}$/;

export const looksLikeKey = (key: string): boolean => KEY_SHAPE.test(key);
