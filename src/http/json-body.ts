import type { Middleware } from 'koa';
import { ApiError, validationFailed } from '../errors.js';
import { tooDeepAt } from './json-depth.js';
import { loneSurrogateAt, mentionsSurrogates } from './json-unicode.js';
import type { ApiState } from './state.js';

export const MB = 1024 * 1024;
/** No request body needs more (contact data, the deepest part of any body, nests at most 32 levels). */
export const MAX_BODY_DEPTH = 64;

const tooLarge = (limit: number) =>
  new ApiError(400, 'BAD_REQUEST', `The request body is larger than ${Math.round(limit / MB)} MB`, {
    suggestion: 'Send a smaller body',
  });

/** Reads a JSON body up to `limit` bytes (oversized: 400) and parses it with parseJsonBytes. */
export function jsonBody(limit: number): Middleware<ApiState> {
  return async (ctx, next) => {
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limit) {
      ctx.set('Connection', 'close');
      throw tooLarge(limit);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        ctx.set('Connection', 'close');
        throw tooLarge(limit);
      }
      chunks.push(chunk);
    }
    ctx.state.body = parseJsonBytes(Buffer.concat(chunks, size));
    await next();
  };
}

/**
 * JSON text to a value; an empty body is undefined. Malformed text is 400; text nested deeper than
 * MAX_BODY_DEPTH is 422 naming the field (found on the bytes, before anything is built), and so are
 * strings that are not well-formed Unicode.
 */
export function parseJsonBytes(bytes: Buffer): unknown {
  const deep = tooDeepAt(bytes, MAX_BODY_DEPTH);
  if (deep !== null) {
    throw validationFailed([{ field: deep, message: `JSON bodies nest at most ${MAX_BODY_DEPTH} levels`, code: 'too_deep' }]);
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'BAD_REQUEST', 'The request body is not valid JSON', { suggestion: 'Check the JSON syntax of the body' });
  }
  const broken = mentionsSurrogates(bytes) ? loneSurrogateAt(value) : null;
  if (broken !== null) {
    throw validationFailed([{ field: broken, message: 'Text must be well-formed Unicode (a \\ud800-\\udfff escape must be half of a pair)', code: 'invalid_string' }]);
  }
  return value;
}
