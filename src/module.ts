import type { Router } from '@koa/router';
import type { ActivitySources } from './activity/sources.js';
import type { Reactor } from './bus/reactor.js';
import type { Guards } from './api/guards/guards.js';
import type { ApiState } from './http/state.js';
import type { JobRunner } from './jobs/runner.js';
import type { Usages } from './usage/usages.js';

/**
 * What a resource brings to the daemon. The composition root (src/modules.ts) makes each one with
 * exactly what it uses (the core, and the capabilities it needs), and lists them all.
 */
export interface Module {
  /** Its HTTP routes. */
  routes?(guards: Guards): Router<ApiState>;
  /** Registers its job kinds (each kind constant lives beside its handler) and schedules recurring ones. */
  jobs?(runner: JobRunner): void;
  /** Reports where it references fields, event names, templates or segments. */
  usage?(usages: Usages): void;
  /** Its reactors: work recorded in the transaction of an event or a contact write (src/bus/reactor.ts). */
  reactors?(): Reactor[];
  /** Registers its entries of the activity feed (GET /activity). */
  activity?(sources: ActivitySources): void;
  /** Stops what it started (the outbound engine's sessions), after the job runner stopped. */
  close?(): Promise<void>;
}
