// The multipart upload of POST /contacts/import, read by koa-body (formidable) straight to a file in
// the data directory: the 5 MB limit holds while the bytes arrive, and memory stays flat.
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { File } from 'formidable';
import { ApiError, badRequest, validationFailed } from '../../errors.js';
import { MB } from '../../http/json-body.js';
import type { ApiContext, ApiState } from '../../http/state.js';
import type { UploadDoc } from '../../http/openapi/describe.js';
import { ensureImportDirs, incomingDir, removeFile } from './files.js';

export const MAX_IMPORT_BYTES = 5 * MB;
/** Room for the multipart framing around the file when judging a declared Content-Length. */
const FRAMING_BYTES = 64 * 1024;
const FIELD = 'file';

/** The upload as the OpenAPI document shows it. */
export const CSV_UPLOAD_DOC: UploadDoc = {
  field: FIELD,
  mediaType: 'text/csv',
  description: `The CSV file (a .csv name or a CSV media type), at most ${MAX_IMPORT_BYTES / MB} MB, with a header row that has an "email" column`,
};

/** The uploaded file as the import service takes it. */
export interface Upload {
  path: string;
  name: string | null;
  type: string | null;
  size: number;
}

const tooLarge = () =>
  new ApiError(400, 'BAD_REQUEST', `The file is larger than ${MAX_IMPORT_BYTES / MB} MB`, { suggestion: 'Split the CSV into files of at most 5 MB' });

/** formidable's codes (FormidableError.js): sizes over the limit, more than one file; the rest is a malformed body. */
const TOO_LARGE_CODES = new Set([1009, 1016]);
const TOO_MANY_FILES = 1015;

function uploadError(err: Error & { code?: unknown }): ApiError {
  if (TOO_LARGE_CODES.has(err.code as number)) return tooLarge();
  if (err.code === TOO_MANY_FILES) return validationFailed([{ field: FIELD, message: 'Send one file', code: 'too_big' }]);
  return badRequest('The body is not a readable multipart/form-data upload', 'Send the CSV as multipart/form-data with the file in the field "file"');
}

/** Reads the upload into `imports/incoming/`; whatever the route did not take is removed afterwards. */
export function csvUpload(dataDir: string): Middleware<ApiState> {
  ensureImportDirs(dataDir);
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      uploadDir: incomingDir(dataDir),
      maxFiles: 1,
      maxFileSize: MAX_IMPORT_BYTES,
      maxTotalFileSize: MAX_IMPORT_BYTES,
      maxFields: 20,
      maxFieldsSize: 64 * 1024,
      allowEmptyFiles: true,
      minFileSize: 0,
      // other file fields are not even written to disk
      filter: ({ name }) => name === FIELD,
    },
    onError: (err) => {
      throw uploadError(err);
    },
  }) as unknown as Middleware<ApiState>;
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) {
      throw badRequest('The body is not a multipart/form-data upload', 'Send the CSV as multipart/form-data with the file in the field "file"');
    }
    if (Number(ctx.get('Content-Length') || 0) > MAX_IMPORT_BYTES + FRAMING_BYTES) {
      ctx.set('Connection', 'close');
      throw tooLarge();
    }
    try {
      await parse(ctx, async () => undefined);
    } catch (err) {
      // the client may still be sending: do not read the rest (formidable removes what it wrote)
      ctx.set('Connection', 'close');
      throw err;
    }
    try {
      await next();
    } finally {
      for (const file of filesOf(ctx)) await removeFile(file.filepath);
    }
  };
}

function filesOf(ctx: ApiContext): File[] {
  const files = ctx.request.files ?? {};
  return Object.values(files).flat();
}

/** The one file of the upload; its absence is a field error like any missing field. */
export function uploadedFile(ctx: ApiContext): Upload {
  const file = ctx.request.files?.[FIELD];
  if (!file || Array.isArray(file)) throw validationFailed([{ field: FIELD, message: 'Required: the CSV file', code: 'invalid_type' }]);
  return { path: file.filepath, name: file.originalFilename, type: file.mimetype, size: file.size };
}
