// The multipart upload of POST /media (field `file`, as the CSV import takes its file), read by
// koa-body (formidable) into memory: the size limit holds while the bytes arrive, and nothing is
// written to disk, since the image goes into the store.
import { Writable } from 'node:stream';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { ApiError, badRequest, validationFailed } from '../errors.js';
import type { ApiContext, ApiState } from '../http/state.js';
import type { UploadDoc } from '../http/openapi/describe.js';
import { MAX_MEDIA_BYTES, type MediaUpload } from './service.js';

const FIELD = 'file';
/** Room for the multipart framing around the file when judging a declared Content-Length. */
const FRAMING_BYTES = 64 * 1024;

export const MEDIA_UPLOAD_DOC: UploadDoc = {
  field: FIELD,
  mediaType: 'image/*',
  description: `The image: PNG, JPEG, GIF or WebP (judged by its content), at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`,
};

const tooLarge = () =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `The file is larger than ${MAX_MEDIA_BYTES / 1024 / 1024} MB`, { suggestion: 'Resize or compress the image' });
const notMultipart = () => badRequest('The body is not a readable multipart/form-data upload', 'Send the image as multipart/form-data in the field "file"');

/** formidable's codes (FormidableError.js): sizes over the limit, more than one file. */
const TOO_LARGE_CODES = new Set([1009, 1016]);
const TOO_MANY_FILES = 1015;

function uploadError(err: Error & { code?: unknown }): ApiError {
  if (TOO_LARGE_CODES.has(err.code as number)) return tooLarge();
  if (err.code === TOO_MANY_FILES) return validationFailed([{ field: FIELD, message: 'Send one file', code: 'too_big' }]);
  return notMultipart();
}

/** Reads the upload's one file into memory and hands it to the route's `handle`. */
export function withMediaUpload(handle: (ctx: ApiContext, upload: MediaUpload) => void): Middleware<ApiState> {
  return async (ctx) => {
    if (!ctx.is('multipart/form-data')) throw notMultipart();
    if (Number(ctx.get('Content-Length') || 0) > MAX_MEDIA_BYTES + FRAMING_BYTES) {
      ctx.set('Connection', 'close');
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    const parse = koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable: {
        maxFiles: 1,
        maxFileSize: MAX_MEDIA_BYTES,
        maxTotalFileSize: MAX_MEDIA_BYTES,
        maxFields: 20,
        maxFieldsSize: 64 * 1024,
        allowEmptyFiles: true,
        minFileSize: 0,
        filter: ({ name }) => name === FIELD,
        fileWriteStreamHandler: () =>
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
          }),
      },
      onError: (err) => {
        throw uploadError(err);
      },
    }) as unknown as Middleware<ApiState>;
    try {
      await parse(ctx, async () => undefined);
    } catch (err) {
      // the client may still be sending: do not read the rest
      ctx.set('Connection', 'close');
      throw err;
    }
    const file = ctx.request.files?.[FIELD];
    if (!file || Array.isArray(file)) throw validationFailed([{ field: FIELD, message: 'Required: the image file', code: 'invalid_type' }]);
    handle(ctx, { bytes: Buffer.concat(chunks), name: file.originalFilename, declaredType: file.mimetype });
  };
}
