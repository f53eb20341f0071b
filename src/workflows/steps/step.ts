import type { Contact } from '../../contacts/store.js';
import type { Core } from '../../core.js';
import type { Scope } from '../../render/render.js';
import type { Execution } from '../executions-store.js';
import type { Step, WorkflowGraph } from '../store.js';
import type { ComposeOps } from '../../compose/compose-ops.js';
import type { Dns } from '../../dns/resolver.js';
import type { Pools } from '../../threads/pool.js';

/** What steps use beside the core: the compose threads (SEND_EMAIL) and DNS (WEBHOOK's address checks). */
export interface StepTools {
  threads: Pools<ComposeOps>;
  dns: Dns;
}

/** What a step runs with. */
export interface StepInput {
  core: Core;
  tools: StepTools;
  graph: WorkflowGraph;
  execution: Execution;
  step: Step;
  contact: Contact;
  /** The execution's variables: contact, context, trigger event, subscription links. */
  scope: Scope;
  /** Attempts of this step's job so far (1 on the first). */
  attempt: number;
}

/**
 * What a step did. `effect` holds the step's writes: it runs in the transaction that moves the
 * execution on, after the move succeeded, so a step that ran twice takes effect once.
 */
export type StepResult =
  | { kind: 'next'; branch?: string; output?: unknown; effect?: () => void }
  | { kind: 'wait'; until: number | null; eventName?: string; output?: unknown }
  | { kind: 'exit'; output?: unknown }
  | { kind: 'fail'; error: string; output?: unknown };

export type StepHandler = (input: StepInput) => StepResult | Promise<StepResult>;
