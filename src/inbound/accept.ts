import { randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import { INBOUND_JOB } from './process.js';
import { insertInbound } from './store.js';

/** A message received for a project, as its envelope and bytes came in. */
export interface Received {
  projectId: string;
  mailFrom: string;
  rcptTo: string[];
  remoteIp: string;
  helo: string;
  raw: Buffer;
}

/**
 * Stores a received message with its processing job, in one transaction: what the SMTP listener
 * does before it answers 250 (and the simulator with the reports it sends back). `runAt` holds the
 * processing back until then. Answers the message's id.
 */
export function acceptInbound(core: Core, received: Received, runAt = core.clock.now()): string {
  const id = randomUUID();
  core.bus.tx(() => {
    insertInbound(core.db, { id, ...received, createdAt: core.clock.now(), processedAt: null });
    core.jobs.enqueue(INBOUND_JOB, { id }, { projectId: received.projectId, uniqueKey: `inbound:${id}`, runAt });
  });
  return id;
}
