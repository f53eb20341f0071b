import { Router } from '@koa/router';
import { iso } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Guards } from '../http/guards.js';
import { timeBound } from '../http/query.js';
import { projectOf, type ApiContext, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { presentEvent } from './present.js';
import { deleteEventName, eventsOfContact, trackEvent, type TrackInput } from './service.js';
import { countEventsByName, eventNames, listEvents } from './store.js';
import { eventUsage } from './usage.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

/** `limit` of the event lists: 1..500, default 50, out-of-range values clamped. */
function eventLimit(raw: unknown): number {
  const n = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : DEFAULT_LIMIT;
  return Math.min(Math.max(n, 1), MAX_LIMIT);
}

function track(app: Ctx) {
  return async (ctx: ApiContext) => {
    const input = validate<TrackInput>('track', ctx.state.body);
    const { contact, event } = await trackEvent(app, projectOf(ctx).id, input);
    ctx.body = { success: true, data: { contact: contact.id, event: event.id, timestamp: iso(event.createdAt) } };
  };
}

/** POST /v1/track: the public key only (a secret key is refused there, as the spec says). */
export function trackRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  router.post('/v1/track', guards.key('public', { idempotent: true }), track(app));
  return router;
}

/** The dashboard's event routes, secret key. */
export function eventRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.post('/events/track', secret, track(app));

  router.get('/events', secret, (ctx) => {
    const name = typeof ctx.query.name === 'string' && ctx.query.name !== '' ? ctx.query.name : null;
    ctx.body = { data: listEvents(app.db, projectOf(ctx).id, name, eventLimit(ctx.query.limit)).map(presentEvent) };
  });

  router.get('/events/stats', secret, (ctx) => {
    const from = timeBound(ctx.query.from, 'from', 0);
    const to = timeBound(ctx.query.to, 'to', Number.MAX_SAFE_INTEGER);
    ctx.body = { data: countEventsByName(app.db, projectOf(ctx).id, from, to) };
  });

  router.get('/events/names', secret, (ctx) => {
    ctx.body = { data: eventNames(app.db, projectOf(ctx).id) };
  });

  router.get('/events/contact/:contactId', secret, (ctx) => {
    ctx.body = { data: eventsOfContact(app, projectOf(ctx).id, ctx.params.contactId!, eventLimit(ctx.query.limit)).map(presentEvent) };
  });

  router.get('/events/:eventName/usage', secret, (ctx) => {
    ctx.body = eventUsage(app, projectOf(ctx).id, ctx.params.eventName!);
  });

  router.delete('/events/:eventName', secret, (ctx) => {
    ctx.body = deleteEventName(app, projectOf(ctx).id, ctx.params.eventName!);
  });

  return router;
}
