import { availableParallelism } from 'node:os';
import type { DkimSigning } from '../../domains/signing.js';
import { createThreadPool } from '../../threads/pool.js';
import type { SignOps } from './worker.js';

/** DKIM signing on threads beside the main one: the RSA signature is the costliest step of a delivery. */
export interface MailThreads {
  sign(raw: Buffer, key: DkimSigning): Promise<Buffer>;
  close(): Promise<void>;
}

/** One thread per spare core (at least one); they start with the first signature. */
export function createMailThreads(threads = Math.min(Math.max(availableParallelism() - 1, 1), 4)): MailThreads {
  const pool = createThreadPool<SignOps>('mail', threads);
  return {
    sign: async (raw, key) => Buffer.from(await pool.run('sign', { raw, key })),
    close: () => pool.close(),
  };
}
