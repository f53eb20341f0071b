// The media library's rules: what an upload must be (an image of a known type, by its bytes), its
// name, its public address. No HTTP here: the routes in src/api/media.ts call these.
import { randomBytes } from 'node:crypto';
import type { Core } from '../core.js';
import { ApiError, notFound } from '../errors.js';
import { iso } from '../clock.js';
import { EXTENSIONS, sniffImage, type ImageType } from './image-type.js';
import { deleteMediaRow, insertMedia, mediaFile, pageMedia, type Media } from './store.js';

export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
const MAX_NAME = 200;

export interface MediaUpload {
  bytes: Buffer;
  /** The file name the client gave, if any. */
  name: string | null;
  /** The media type the client declared for the file, if any. */
  declaredType: string | null;
}

const unsupported = (message: string) =>
  new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', message, { suggestion: `Upload a PNG, JPEG, GIF or WebP image of at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB` });

/** Types a client may declare for any file: they say nothing, so the bytes alone decide. */
const UNDECLARED = new Set(['', 'application/octet-stream']);

/** The image the upload is, checked by its bytes; a declared image type must agree with them. */
function imageOf(upload: MediaUpload) {
  const info = sniffImage(upload.bytes);
  if (!info) throw unsupported('The file is not a PNG, JPEG, GIF or WebP image (judged by its content, not its name or declared type)');
  const declared = (upload.declaredType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!UNDECLARED.has(declared) && declared !== info.type) throw unsupported(`The file was declared ${declared} but its content is ${info.type}`);
  return info;
}

/** The name shown in the library: the client's, without folders or control characters, cut to MAX_NAME. */
function nameOf(given: string | null, type: ImageType): string {
  const base = (given ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base === '' ? `image.${EXTENSIONS[type]}` : base.slice(0, MAX_NAME);
}

export function uploadMedia(core: Core, projectId: string, upload: MediaUpload): Media {
  const info = imageOf(upload);
  const media: Media = {
    // 128 random bits: the public address cannot be guessed
    id: randomBytes(16).toString('base64url'),
    projectId,
    name: nameOf(upload.name, info.type),
    type: info.type,
    size: upload.bytes.length,
    width: info.width,
    height: info.height,
    createdAt: core.clock.now(),
  };
  insertMedia(core.db, media, upload.bytes);
  return media;
}

export const listMedia = (core: Core, projectId: string, after: { at: number; id: string } | null, limit: number): Media[] =>
  pageMedia(core.db, projectId, after, limit);

/** Removes the image: its address answers 404 from then on, in mail already sent too. */
export function deleteMedia(core: Core, projectId: string, id: string): void {
  if (!deleteMediaRow(core.db, projectId, id)) throw notFound('Media');
}

/** The path of the public address: `/media/<id>.<ext>`. */
export const mediaPath = (m: Pick<Media, 'id' | 'type'>) => `/media/${m.id}.${EXTENSIONS[m.type]}`;

const PUBLIC_NAME = /^([A-Za-z0-9_-]{22})\.([a-z]+)$/;

/** The file a public path names (`<id>.<ext>`, the extension its type's), or null. */
export function publicMedia(core: Core, file: string): { type: ImageType; bytes: Buffer } | null {
  const [, id, ext] = PUBLIC_NAME.exec(file) ?? [];
  if (!id) return null;
  const found = mediaFile(core.db, id);
  return found && EXTENSIONS[found.type] === ext ? found : null;
}

/** The Media resource as the API answers it; `url` is the public address, on publicUrl. */
export const presentMedia = (publicUrl: string, m: Media) => ({
  id: m.id,
  name: m.name,
  type: m.type,
  size: m.size,
  width: m.width,
  height: m.height,
  url: `${publicUrl}${mediaPath(m)}`,
  createdAt: iso(m.createdAt),
});
