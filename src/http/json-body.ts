import type { Middleware } from 'koa';
import { ApiError, validationFailed } from '../errors.js';
import type { FairGate } from '../limits/fair-gate.js';
import { bracketsBalance, tooDeepAt } from './json-depth.js';
import { loneSurrogateAt, mentionsSurrogates } from './json-unicode.js';
import { projectOf, type ApiState } from './state.js';

export const MB = 1024 * 1024;
/** No request body needs more (contact data, the deepest part of any body, nests at most 32 levels). */
export const MAX_BODY_DEPTH = 64;

const tooLarge = (limit: number) =>
  new ApiError(400, 'BAD_REQUEST', `The request body is larger than ${Math.round(limit / MB)} MB`, {
    suggestion: 'Send a smaller body',
  });

/**
 * Of a refused body, this much more is read and thrown away before the answer, for at most this
 * long: a client still sending (fetch, curl) then reads the 400 instead of a connection reset. Past
 * either the connection is closed under the client: nobody is owed the reading of gigabytes, nor a
 * wait for bytes a client declared and never sends.
 */
const DRAIN_BYTES = 8 * MB;
const DRAIN_MS = 2_000;

/** Reads what is left of a refused body, within DRAIN_BYTES and DRAIN_MS, and throws the refusal. */
async function refuseOversized(req: AsyncIterable<Buffer>, limit: number): Promise<never> {
  let discarded = 0;
  // a drain left behind ends with the connection, as an error nobody waits for
  const drained = (async () => {
    for await (const chunk of req) if ((discarded += chunk.length) > DRAIN_BYTES) break;
  })().catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))]).finally(() => clearTimeout(timer));
  throw tooLarge(limit);
}

/** Large bodies of a route that can parse them off the main thread. */
export interface HeavyBodies {
  /** Bodies over this many bytes are heavy. */
  over: number;
  /** Heavy bodies are read only in their project's turn, and left unparsed in `ctx.state.rawBody`. */
  gate: FairGate;
}

/**
 * A body's bytes as they arrive. Given a length they go straight into one buffer of that size: a
 * 40 MB body never exists twice (its chunks, then their concatenation) on the main thread.
 */
class BodyBytes {
  size = 0;
  private whole: Buffer | null;
  private chunks: Buffer[] = [];

  constructor(declared: number) {
    this.whole = declared > 0 ? Buffer.allocUnsafe(declared) : null;
  }

  add(chunk: Buffer): void {
    if (this.whole && this.size + chunk.length > this.whole.length) {
      // more than declared (Node's parser never delivers that): on as a list
      this.chunks = [this.whole.subarray(0, this.size)];
      this.whole = null;
    }
    if (this.whole) chunk.copy(this.whole, this.size);
    else this.chunks.push(chunk);
    this.size += chunk.length;
  }

  bytes(): Buffer {
    return this.whole ? this.whole.subarray(0, this.size) : Buffer.concat(this.chunks, this.size);
  }
}

/**
 * Reads and parses a JSON body up to `limit` bytes; malformed or oversized bodies are 400. With
 * `heavy`, a body past its size waits for a turn before the rest is read (the kernel holds the
 * unread bytes meanwhile) and is handed on as bytes: parsing megabytes would stall the event loop.
 */
export function jsonBody(limit: number, heavy?: HeavyBodies): Middleware<ApiState> {
  return async (ctx, next) => {
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limit) {
      ctx.set('Connection', 'close');
      if (declared - limit > DRAIN_BYTES) throw tooLarge(limit);
      await refuseOversized(ctx.req, limit);
    }
    let release: (() => void) | null = null;
    const takeTurn = async () => {
      release = await heavy!.gate.acquire(projectOf(ctx).id);
    };
    try {
      if (heavy && declared > heavy.over) await takeTurn();
      // only a heavy body, already in its turn, gets its whole declared length at once
      const body = new BodyBytes(heavy && declared > heavy.over ? declared : 0);
      // one iterator over the request: past the limit its chunks are only counted, then dropped
      let over = false;
      let discarded = 0;
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
        if (!over && body.size + chunk.length <= limit) {
          body.add(chunk);
          if (heavy && !release && body.size > heavy.over) await takeTurn();
          continue;
        }
        over = true;
        if ((discarded += chunk.length) > DRAIN_BYTES) break;
      }
      if (over) {
        ctx.set('Connection', 'close');
        throw tooLarge(limit);
      }
      const bytes = body.bytes();
      if (release) ctx.state.rawBody = bytes;
      else ctx.state.body = parseJsonBytes(bytes);
      await next();
    } finally {
      (release as (() => void) | null)?.();
    }
  };
}

const notJson = () => new ApiError(400, 'BAD_REQUEST', 'The request body is not valid JSON', { suggestion: 'Check the JSON syntax of the body' });

/**
 * JSON text to a value; an empty body is undefined. Malformed text is 400 (deep or not); text nested deeper than
 * MAX_BODY_DEPTH is 422 naming the field (found on the bytes, before anything is built), and so are
 * strings that are not well-formed Unicode.
 */
export function parseJsonBytes(bytes: Buffer): unknown {
  const deep = tooDeepAt(bytes, MAX_BODY_DEPTH);
  if (deep !== null && !bracketsBalance(bytes)) throw notJson();
  if (deep !== null) {
    throw validationFailed([{ field: deep, message: `JSON bodies nest at most ${MAX_BODY_DEPTH} levels`, code: 'too_deep' }]);
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // the client's syntax error, answered 400 as such: nothing of ours failed
    throw notJson();
  }
  const broken = mentionsSurrogates(bytes) ? loneSurrogateAt(value) : null;
  if (broken !== null) {
    throw validationFailed([{ field: broken, message: 'Text must be well-formed Unicode (a \\ud800-\\udfff escape must be half of a pair)', code: 'invalid_string' }]);
  }
  return value;
}
