// The multipart upload of POST /contacts/import, read straight to a file in the data directory:
// the 5 MB limit holds while the bytes arrive, and memory stays flat.
import type { Middleware } from 'koa';
import { ApiError, badRequest } from '../../errors.js';
import { MB } from '../../http/json-body.js';
import { filesOf, oneFileReader, theFile } from '../../http/one-file-upload.js';
import type { ApiContext, ApiState } from '../../http/state.js';
import type { UploadDoc } from '../../http/openapi/describe.js';
import { ensureImportDirs, incomingDir, removeFile } from './files.js';

export const MAX_IMPORT_BYTES = 5 * MB;
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

/** Reads the upload into `imports/incoming/`; whatever the route did not take is removed afterwards. */
export function csvUpload(dataDir: string): Middleware<ApiState> {
  ensureImportDirs(dataDir);
  const read = oneFileReader({
    field: FIELD,
    maxBytes: MAX_IMPORT_BYTES,
    tooLarge: () => new ApiError(400, 'BAD_REQUEST', `The file is larger than ${MAX_IMPORT_BYTES / MB} MB`, { suggestion: 'Split the CSV into files of at most 5 MB' }),
    notReadable: () => badRequest('The body is not a readable multipart/form-data upload', 'Send the CSV as multipart/form-data with the file in the field "file"'),
    into: { uploadDir: incomingDir(dataDir) },
  });
  return async (ctx, next) => {
    await read(ctx);
    try {
      await next();
    } finally {
      for (const file of filesOf(ctx)) await removeFile(file.filepath);
    }
  };
}

/** The one file of the upload. */
export function uploadedFile(ctx: ApiContext): Upload {
  const file = theFile(ctx, FIELD, 'the CSV file');
  return { path: file.filepath, name: file.originalFilename, type: file.mimetype, size: file.size };
}
