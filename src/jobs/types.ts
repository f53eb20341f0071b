// What the job queue, its store and its runner speak of.

/** Delivery lanes: transactional jobs of a kind are claimed before its bulk (campaign) jobs. */
export const LANES = ['transactional', 'bulk'] as const;
export type Lane = (typeof LANES)[number];

export interface Job<P = unknown> {
  id: number;
  kind: string;
  /** Absent means transactional. */
  lane?: Lane;
  projectId: string | null;
  payload: P;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  createdAt: number;
}

export interface EnqueueOptions {
  projectId?: string | null;
  runAt?: number;
  maxAttempts?: number;
  /** A second enqueue with the same key is ignored: what makes re-running a producer safe. */
  uniqueKey?: string;
  /** A second enqueue with the same key is ignored while the first waits and has not started: coalesces bursts. */
  coalesceKey?: string;
  /** Transactional unless said otherwise. */
  lane?: Lane;
}
