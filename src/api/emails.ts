import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Dns } from '../dns/resolver.js';
import type { Guards } from './guards/guards.js';
import { cursorLimit, decodeCursor } from '../http/pagination.js';
import { projectOf, type ApiContext, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { badRequest, foundOr404, notFound } from '../errors.js';
import { emailTimeline, listEmails } from '../messages/log.js';
import { EMAIL_STATUSES, findEmailById, type EmailStatus } from '../emails/store.js';
import type { MailThreads } from '../outbound/dkim/threads.js';
import { messageAsSent } from '../messages/as-sent.js';
import { checkAsSent } from '../messages/checks.js';

const SEARCH_MAX = 200;

/** A query parameter given once, as text; null when absent or empty. */
function text(ctx: ApiContext, name: string): string | null {
  const raw = ctx.query[name];
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string') throw badRequest(`"${name}" may be given once`);
  if (raw.length > SEARCH_MAX) throw badRequest(`"${name}" is longer than ${SEARCH_MAX} characters`);
  return raw;
}

function time(ctx: ApiContext, name: string): number | null {
  const raw = text(ctx, name);
  if (raw === null) return null;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badRequest(`"${name}" must be a date-time`, 'Use ISO 8601, e.g. 2026-11-25T10:00:00Z');
  return ms;
}

function status(ctx: ApiContext): EmailStatus | null {
  const raw = text(ctx, 'status');
  if (raw === null || (EMAIL_STATUSES as readonly string[]).includes(raw)) return raw as EmailStatus | null;
  throw badRequest(`"status" must be one of ${EMAIL_STATUSES.join(', ')}`);
}

export interface EmailRouteTools {
  /** The DKIM signing threads: an outbound email not kept signed is signed as its delivery would sign it. */
  signer: MailThreads;
  dns: Dns;
}

export function emailRoutes(core: Core, tools: EmailRouteTools, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');
  // The message as sent carries every link of the email (an account invitation's among them).
  const admin = guards.key('secret', { role: 'ADMIN' });
  const emailOf = (ctx: ApiContext) => foundOr404(findEmailById(core.db, projectOf(ctx).id, ctx.params.id!), 'Email');
  const asSent = async (ctx: ApiContext) => {
    const email = emailOf(ctx);
    const raw = await messageAsSent(core, tools.signer, email);
    if (!raw) throw notFound('Message');
    return { email, raw };
  };

  router.get(
    '/emails',
    describe({ summary: "The project's emails, newest first", query: ['limit', 'cursor', 'to', 'status', 'campaignId', 'since', 'until', 'search'], answers: { 200: 'EmailPage' } }),
    secret,
    async (ctx) => {
      ctx.body = await listEmails(
        core,
        projectOf(ctx).id,
        { to: text(ctx, 'to'), status: status(ctx), campaignId: text(ctx, 'campaignId'), since: time(ctx, 'since'), until: time(ctx, 'until'), search: text(ctx, 'search') },
        { limit: cursorLimit(ctx.query.limit), cursor: decodeCursor(ctx.query.cursor) },
      );
    },
  );

  router.get('/emails/:id', describe({ summary: 'One email with its delivery attempts and events', answers: { 200: 'EmailTimeline' } }), secret, (ctx) => {
    ctx.body = emailTimeline(core, emailOf(ctx));
  });

  router.get('/emails/:id/raw', describe({ summary: 'The message as it was (or would have been) sent; a received one as it came in', answers: { 200: { type: 'message/rfc822' } } }), admin, async (ctx) => {
    const { raw } = await asSent(ctx);
    ctx.type = 'message/rfc822';
    ctx.set('Content-Disposition', `inline; filename="${ctx.params.id}.eml"`);
    ctx.body = raw;
  });

  router.get('/emails/:id/checks', describe({ summary: 'DKIM verification and the SpamAssassin score of the message as sent', answers: { 200: 'EmailChecks' } }), admin, async (ctx) => {
    const { email, raw } = await asSent(ctx);
    ctx.body = await checkAsSent(core, tools.dns, email, raw);
  });

  return router;
}
