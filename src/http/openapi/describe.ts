import type { Middleware } from 'koa';
import type { Role } from '../../projects/roles.js';
import type { KeyKind } from '../../projects/keys.js';

/** A success answer: a response schema of schema/responses/ by its `$id`, a media type, or null for no body. */
export type AnswerDoc = string | { type: string } | null;

/** A multipart/form-data body of one file, which no JSON schema validates. */
export interface UploadDoc {
  /** The form field that carries the file. */
  field: string;
  /** What the file is expected to be (`text/csv`). */
  mediaType: string;
  description: string;
}

/** What the OpenAPI document says of one route, written beside it: `router.get(path, describe({...}), ...)`. */
export interface RouteDoc {
  summary: string;
  description?: string;
  /**
   * Routes behind `guards.key` or `guards.session` are documented with what they take by themselves;
   * others name how they authenticate (default `none`).
   */
  auth?: 'none' | 'admin';
  /**
   * The request schema (schema/<name>.json, the one the route validates with) of its JSON body, or
   * the file of a multipart upload.
   */
  body?: string | UploadDoc;
  /** Names of its query parameters (docs/api.md says what each does). */
  query?: string[];
  /** Success answers by status; without it, any 2xx with a JSON body. */
  answers?: Record<number, AnswerDoc>;
}

const DOC = Symbol('route doc');
const GUARD = Symbol('key guard');

type Described = Middleware & { [DOC]?: RouteDoc };
type Guarded = Middleware & { [GUARD]?: KeyGuard };

/** What a key guard checks, read by the OpenAPI document: the key kind (or a session alone), and the least role of a signed-in user. */
export interface KeyGuard {
  kind: KeyKind | 'session';
  idempotent: boolean;
  /** Secret routes: the least role a session's user needs (a secret key has them all). */
  role: Role | null;
  /** The admin token passes too. */
  adminToken: boolean;
}

/** The route's description, as a middleware that only passes the request on. */
export function describe(doc: RouteDoc): Middleware {
  const passOn: Described = (_ctx, next) => next();
  passOn[DOC] = doc;
  return passOn;
}

/** Marks a key guard so the document names the key kind the route really takes. */
export function markGuard<M extends Middleware>(middleware: M, guard: KeyGuard): M {
  (middleware as Guarded)[GUARD] = guard;
  return middleware;
}

export const docOf = (middleware: unknown): RouteDoc | undefined => (middleware as Described)[DOC];
export const guardOf = (middleware: unknown): KeyGuard | undefined => (middleware as Guarded)[GUARD];
