import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { badRequest, notFound } from '../errors.js';
import { cursorLimit, decodeCursor, encodeCursor, type CursorPosition } from '../http/pagination.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import type { Media } from '../media/store.js';
import { deleteMedia, listMedia, presentMedia, publicMedia, uploadMedia } from '../media/service.js';
import { MEDIA_UPLOAD_DOC, withMediaUpload } from '../media/upload.js';

function afterOf(cursor: CursorPosition | null): { at: number; id: string } | null {
  if (!cursor) return null;
  if (typeof cursor.key !== 'number') throw badRequest('Invalid cursor', 'Pass back the cursor of the previous page unchanged');
  return { at: cursor.key, id: cursor.id };
}

/** The media library (key or session) and the public address of each image (no key: mail points there). */
export function mediaRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  // publicUrl is settled when the listener is up (its address is the default): read it per answer
  const present = (m: Media) => presentMedia(core.config.publicUrl!, m);

  router.get('/media', describe({ summary: 'The media library, newest first', query: ['limit', 'cursor'], answers: { 200: 'MediaPage' } }), guards.key('secret'), (ctx) => {
    const limit = cursorLimit(ctx.query.limit);
    const rows = listMedia(core, projectOf(ctx).id, afterOf(decodeCursor(ctx.query.cursor)), limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    ctx.body = { data: page.map(present), cursor: rows.length > limit && last ? encodeCursor({ key: last.createdAt, id: last.id }) : null, hasMore: rows.length > limit };
  });

  router.post(
    '/media',
    describe({ summary: 'Upload an image to the media library', body: MEDIA_UPLOAD_DOC, answers: { 201: 'Media' } }),
    guards.key('secret', { json: false }),
    withMediaUpload((ctx, upload) => {
      ctx.status = 201;
      ctx.body = present(uploadMedia(core, projectOf(ctx).id, upload));
    }),
  );

  router.delete('/media/:id', describe({ summary: 'Delete an image (its address answers 404 from then on)', answers: { 204: null } }), guards.key('secret'), (ctx) => {
    deleteMedia(core, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  router.get('/media/:file', describe({ summary: 'An image of a media library, at its public address', answers: { 200: { type: 'image/*' } } }), (ctx) => {
    const file = publicMedia(core, ctx.params.file!);
    if (!file) throw notFound('Image');
    ctx.type = file.type;
    // the address names one image for good: a new upload gets a new id
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('Content-Security-Policy', "default-src 'none'");
    ctx.body = file.bytes;
  });

  return router;
}
