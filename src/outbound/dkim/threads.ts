import { availableParallelism } from 'node:os';
import type { DkimSigning } from './sign.js';
import type { PackedMessage } from '../../emails/packing.js';
import type { SignedParts } from './sign.js';
import { createThreadPool } from '../../threads/pool.js';
import { handedOver } from '../../threads/serve.js';
import type { SignOps } from './worker.js';

/** DKIM signing on threads beside the main one: the RSA signature is the costliest step of a delivery. */
export interface MailThreads {
  /**
   * Unpacks a stored message and signs it, `now` being the signature time: its DKIM-Signature
   * header and the message it goes in front of. The stored bytes are handed over (transferred, not
   * copied): the caller must not use them afterwards.
   */
  sign(stored: PackedMessage, key: DkimSigning, now: number): Promise<SignedParts>;
  close(): Promise<void>;
}

/**
 * A signature leaves a few KB of garbage and nothing alive: a small young generation is collected
 * often and cheaply, and keeps each thread's share of the daemon's memory small while it drains a
 * queue (V8 would grow it to tens of MB). 2 MB instead of 8 took ~20 MB off the daemon's RSS in a
 * drain at an unchanged rate (test/bench/delivery-memory.bench.ts).
 */
const SIGNING_HEAP = { maxYoungGenerationSizeMb: 2 };

/**
 * One thread per core (up to 4), started with the first signature. The main thread needs well
 * under a core for the I/O around the signatures, so on two cores two signing threads keep both
 * cores busy during a drain.
 */
export function createMailThreads(threads = Math.min(availableParallelism(), 4)): MailThreads {
  const pool = createThreadPool<SignOps>('mail', threads, { resourceLimits: SIGNING_HEAP });
  return {
    sign: async (stored, key, now) => {
      const { bytes, transfer } = handedOver(stored.bytes);
      const signed = await pool.run('sign', { stored: { bytes, deflated: stored.deflated }, key, now }, transfer);
      return { header: Buffer.from(signed.header), message: Buffer.from(signed.message) };
    },
    close: () => pool.close(),
  };
}
