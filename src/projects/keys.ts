import { createHash, randomBytes } from 'node:crypto';
import type { Role } from './roles.js';

export type KeyKind = 'public' | 'secret';

/**
 * Who made a project's keys: the secret key acts with the maker's role, never more, and a key made
 * by a user ends when the user no longer holds that role in the project.
 */
export interface KeyMaker {
  role: Role;
  /** Null: the operator (the CLI, the admin token, the first start). */
  userId: string | null;
}

/** The operator's keys act as OWNER and never end on their own. */
export const OPERATOR: KeyMaker = { role: 'OWNER', userId: null };

export const newKey = (kind: KeyKind): string => (kind === 'public' ? 'pk_' : 'sk_') + randomBytes(32).toString('hex');

/** A new signing secret of the project's WEBHOOK requests (GET /settings/webhooks shows it). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

const KEY_SHAPE = /^(pk|sk)_[0-9a-f]{64}$/;

export const looksLikeKey = (key: string): boolean => KEY_SHAPE.test(key);
