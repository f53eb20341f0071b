import type { Middleware } from 'koa';
import { ApiError } from '../errors.js';
import type { ApiState } from './state.js';

export const MB = 1024 * 1024;

const tooLarge = (limit: number) =>
  new ApiError(400, 'BAD_REQUEST', `The request body is larger than ${Math.round(limit / MB)} MB`, {
    suggestion: 'Send a smaller body',
  });

/** Reads and parses a JSON body up to `limit` bytes; malformed or oversized bodies are 400. */
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
    const text = Buffer.concat(chunks, size).toString('utf8');
    if (text.trim() !== '') {
      try {
        ctx.state.body = JSON.parse(text);
      } catch {
        throw new ApiError(400, 'BAD_REQUEST', 'The request body is not valid JSON', { suggestion: 'Check the JSON syntax of the body' });
      }
    }
    await next();
  };
}
