import type { ParameterizedContext } from 'koa';
import type { KeyKind } from '../projects/keys.js';
import type { Project } from '../projects/store.js';

export interface ApiState {
  requestId: string;
  /** Set by the key middleware on authenticated routes. */
  project?: Project;
  keyKind?: KeyKind;
  /** Set by the body middleware: the parsed JSON body, `undefined` when the request had none. */
  body?: unknown;
  /** Set instead of `body` for a heavy body (see HeavyBodies): the bytes, for a thread to parse. */
  rawBody?: Buffer;
}

export type ApiContext = ParameterizedContext<ApiState>;

/** The project of the key that authenticated this request. */
export function projectOf(ctx: ApiContext): Project {
  const project = ctx.state.project;
  if (!project) throw new Error('route reached without the key middleware');
  return project;
}
