import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { newKey, newWebhookSecret, OPERATOR, type KeyMaker } from './keys.js';
import { countProjects, getProject, insertProject, replaceKeys, replaceWebhookSecret, setDisabled, setTrackTransactional, type Project } from './store.js';

export interface ProjectKeys {
  id: string;
  name: string;
  publicKey: string;
  secretKey: string;
}

/** A new project with its keys; its webhook signing secret is made too, and shown by `project webhook-secret` (which renews it). */
export function createProject(db: Db, clock: Clock, name: string): ProjectKeys {
  const id = randomUUID();
  const keys = { public: newKey('public'), secret: newKey('secret') };
  db.transaction(() => {
    insertProject(db, id, name, clock.now());
    replaceKeys(db, id, keys, OPERATOR, clock.now());
    replaceWebhookSecret(db, id, newWebhookSecret());
  })();
  return { id, name, publicKey: keys.public, secretKey: keys.secret };
}

/** New keys for a project, the secret one acting with `maker`'s role; null when there is no such project. */
export function rotateKeys(db: Db, clock: Clock, id: string, maker: KeyMaker): ProjectKeys | null {
  return db.transaction(() => {
    const project = getProject(db, id);
    if (!project) return null;
    const keys = { public: newKey('public'), secret: newKey('secret') };
    replaceKeys(db, id, keys, maker, clock.now());
    return { id, name: project.name, publicKey: keys.public, secretKey: keys.secret };
  })();
}

export function setProjectDisabled(db: Db, clock: Clock, id: string, disabled: boolean): Project | null {
  return setDisabled(db, id, disabled, clock.now()) ? getProject(db, id) : null;
}

export function setProjectTracking(db: Db, clock: Clock, id: string, on: boolean): Project | null {
  return setTrackTransactional(db, id, on, clock.now()) ? getProject(db, id) : null;
}

/** The first start of an empty store creates the `default` project; its keys are shown this once. */
export function ensureDefaultProject(db: Db, clock: Clock): ProjectKeys | null {
  return db.transaction(() => (countProjects(db) === 0 ? createProject(db, clock, 'default') : null))();
}
