import type { ParameterizedContext } from 'koa';
import type { Role } from '../projects/roles.js';
import type { KeyKind } from '../projects/keys.js';
import type { Project } from '../projects/store.js';

export interface ApiState {
  requestId: string;
  /** Set by the key or session middleware on authenticated routes. */
  project?: Project;
  /** The key kind; a session acts with a secret key's rights (within its role). */
  keyKind?: KeyKind;
  /** What the caller may do in the project: a secret key has the role of whoever made it, a session its user's role. */
  role?: Role;
  /** A secret key's maker: the user it acts for (null: the operator's key). */
  keyMadeBy?: string | null;
  /** The signed-in user of a session request. */
  user?: { id: string; email: string };
  /** The session of a session request: the hash that names it, and its CSRF token. */
  session?: { hash: string; csrfToken: string };
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
