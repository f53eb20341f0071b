// A multipart/form-data body that carries one file in one field, read by koa-body (formidable): the
// size limit holds while the bytes arrive (a declared Content-Length past it is refused before any
// is read), other file fields are never written, and a refused body closes the connection rather
// than reading the rest. Where the file goes is the caller's: a folder, or a stream of its own.
import type { Writable } from 'node:stream';
import type { File } from 'formidable';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { ApiError, validationFailed } from '../errors.js';
import type { ApiContext, ApiState } from './state.js';

/** Room for the multipart framing around the file when judging a declared Content-Length. */
const FRAMING_BYTES = 64 * 1024;
/** formidable's codes (FormidableError.js): sizes over the limit, more than one file; the rest is a malformed body. */
const TOO_LARGE_CODES = new Set([1009, 1016]);
const TOO_MANY_FILES = 1015;

export interface OneFileUpload {
  field: string;
  maxBytes: number;
  /** The answer to a file past `maxBytes`. */
  tooLarge(): ApiError;
  /** The answer to a body that is not a readable multipart upload. */
  notReadable(): ApiError;
  /** Where the file's bytes go: a folder (formidable names the file), or a stream made per file. */
  into: { uploadDir: string } | { stream(): Writable };
}

/** Reads the body of `ctx` as `upload` says, or throws its refusal. */
export function oneFileReader(upload: OneFileUpload): (ctx: ApiContext) => Promise<void> {
  const { field, maxBytes } = upload;
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      ...('uploadDir' in upload.into ? { uploadDir: upload.into.uploadDir } : { fileWriteStreamHandler: upload.into.stream }),
      maxFiles: 1,
      maxFileSize: maxBytes,
      maxTotalFileSize: maxBytes,
      maxFields: 20,
      maxFieldsSize: 64 * 1024,
      allowEmptyFiles: true,
      minFileSize: 0,
      filter: ({ name }) => name === field,
    },
    onError: (err: Error & { code?: unknown }) => {
      if (TOO_LARGE_CODES.has(err.code as number)) throw upload.tooLarge();
      if (err.code === TOO_MANY_FILES) throw validationFailed([{ field, message: 'Send one file', code: 'too_big' }]);
      throw upload.notReadable();
    },
  }) as unknown as Middleware<ApiState>;
  return async (ctx) => {
    if (!ctx.is('multipart/form-data')) throw upload.notReadable();
    if (Number(ctx.get('Content-Length') || 0) > maxBytes + FRAMING_BYTES) {
      ctx.set('Connection', 'close');
      throw upload.tooLarge();
    }
    try {
      await parse(ctx, async () => undefined);
    } catch (err) {
      // the client may still be sending: do not read the rest
      ctx.set('Connection', 'close');
      throw err;
    }
  };
}

/** The upload's one file; its absence is a field error like any missing field (`what` names it). */
export function theFile(ctx: ApiContext, field: string, what: string): File {
  const file = ctx.request.files?.[field];
  if (!file || Array.isArray(file)) throw validationFailed([{ field, message: `Required: ${what}`, code: 'invalid_type' }]);
  return file;
}

/** Every file the body carried (what a route that keeps none removes afterwards). */
export function filesOf(ctx: ApiContext): File[] {
  return Object.values(ctx.request.files ?? {}).flat();
}
