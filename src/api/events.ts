import { Router } from '@koa/router';
import { iso } from '../clock.js';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { timeBound } from '../http/query.js';
import { projectOf, type ApiContext, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { presentEventPage } from '../events/present.js';
import { deleteEventName, eventsOfContact, eventStats, trackEvent, type TrackInput } from '../events/service.js';
import { eventNames, listEvents, type EventCursor } from '../events/store.js';
import { badRequest } from '../errors.js';
import { decodeCursor } from '../http/pagination.js';
import { eventUsage } from '../events/usage.js';
import type { Usages } from '../usage/usages.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

/** `limit` of the event lists: 1..500, default 50, out-of-range values clamped. */
function eventLimit(raw: unknown): number {
  const n = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : DEFAULT_LIMIT;
  return Math.min(Math.max(n, 1), MAX_LIMIT);
}

/** `cursor` of the event lists: the position after which the page starts, as the last page gave it (400 otherwise). */
function eventCursor(raw: unknown): EventCursor | null {
  const position = decodeCursor(raw);
  if (!position) return null;
  const key = Number(position.id);
  if (typeof position.key !== 'number' || !Number.isSafeInteger(position.key) || !Number.isSafeInteger(key)) {
    throw badRequest('Invalid cursor', 'Pass back the cursor of the previous page unchanged');
  }
  return { at: position.key, key };
}

function track(core: Core) {
  return async (ctx: ApiContext) => {
    const input = validate<TrackInput>('track', ctx.state.body);
    const { contact, event } = await trackEvent(core, projectOf(ctx).id, input, ctx.state.keyKind ?? 'public');
    ctx.body = { success: true, data: { contact: contact.id, event: event.id, timestamp: iso(event.createdAt) } };
  };
}

/** POST /v1/track: the public key only (a secret key is refused there, as the spec says). */
export function trackRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  router.post(
    '/v1/track',
    describe({ summary: 'Track an event', body: 'track', answers: { 200: 'TrackResult' } }),
    guards.key('public', { idempotent: true }),
    track(core),
  );
  return router;
}

/** The dashboard's event routes, secret key. */
export function eventRoutes(core: Core, usage: Usages, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.post('/events/track', describe({ summary: 'Track an event', body: 'track', answers: { 200: 'TrackResult' } }), secret, track(core));

  router.get('/events', describe({ summary: 'Events, newest first', query: ['name', 'limit', 'cursor'], answers: { 200: 'EventList' } }), secret, (ctx) => {
    const name = typeof ctx.query.name === 'string' && ctx.query.name !== '' ? ctx.query.name : null;
    ctx.body = presentEventPage(listEvents(core.db, projectOf(ctx).id, name, eventLimit(ctx.query.limit), eventCursor(ctx.query.cursor)));
  });

  router.get('/events/stats', describe({ summary: 'Event counts by name', query: ['from', 'to'], answers: { 200: 'EventStats' } }), secret, async (ctx) => {
    const from = timeBound(ctx.query.from, 'from', 0);
    const to = timeBound(ctx.query.to, 'to', Number.MAX_SAFE_INTEGER);
    ctx.body = { data: await eventStats(core, projectOf(ctx).id, from, to) };
  });

  router.get('/events/names', describe({ summary: 'Event names', answers: { 200: 'EventNames' } }), secret, (ctx) => {
    ctx.body = { data: eventNames(core.db, projectOf(ctx).id) };
  });

  router.get('/events/contact/:contactId', describe({ summary: 'Events of a contact', query: ['limit', 'cursor'], answers: { 200: 'EventList' } }), secret, (ctx) => {
    ctx.body = presentEventPage(eventsOfContact(core, projectOf(ctx).id, ctx.params.contactId!, eventLimit(ctx.query.limit), eventCursor(ctx.query.cursor)));
  });

  router.get('/events/:eventName/usage', describe({ summary: 'Where an event name is used', answers: { 200: 'EventUsage' } }), secret, (ctx) => {
    ctx.body = eventUsage(core, usage, projectOf(ctx).id, ctx.params.eventName!);
  });

  router.delete('/events/:eventName', describe({ summary: 'Delete the events of a name', answers: { 200: 'EventsDeleted' } }), secret, async (ctx) => {
    ctx.body = await deleteEventName(core, projectOf(ctx).id, ctx.params.eventName!);
  });

  return router;
}
