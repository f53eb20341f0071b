// The multipart upload of POST /media (field `file`, as the CSV import takes its file), read into
// memory: the size limit holds while the bytes arrive, and nothing is written to disk, since the
// image goes into the store.
import { Writable } from 'node:stream';
import type { Middleware } from 'koa';
import { ApiError, badRequest } from '../errors.js';
import { oneFileReader, theFile } from '../http/one-file-upload.js';
import type { ApiContext, ApiState } from '../http/state.js';
import type { UploadDoc } from '../http/openapi/describe.js';
import { MAX_MEDIA_BYTES, type MediaUpload } from './service.js';

const FIELD = 'file';

export const MEDIA_UPLOAD_DOC: UploadDoc = {
  field: FIELD,
  mediaType: 'image/*',
  description: `The image: PNG, JPEG, GIF or WebP (judged by its content), at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`,
};

/** Reads the upload's one file into memory and hands it to the route's `handle`. */
export function withMediaUpload(handle: (ctx: ApiContext, upload: MediaUpload) => void): Middleware<ApiState> {
  return async (ctx) => {
    const chunks: Buffer[] = [];
    await oneFileReader({
      field: FIELD,
      maxBytes: MAX_MEDIA_BYTES,
      tooLarge: () => new ApiError(413, 'PAYLOAD_TOO_LARGE', `The file is larger than ${MAX_MEDIA_BYTES / 1024 / 1024} MB`, { suggestion: 'Resize or compress the image' }),
      notReadable: () => badRequest('The body is not a readable multipart/form-data upload', 'Send the image as multipart/form-data in the field "file"'),
      into: {
        stream: () =>
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
          }),
      },
    })(ctx);
    const file = theFile(ctx, FIELD, 'the image file');
    handle(ctx, { bytes: Buffer.concat(chunks), name: file.originalFilename, declaredType: file.mimetype });
  };
}
