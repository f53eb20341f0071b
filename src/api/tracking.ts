import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { Core } from '../core.js';
import { clientAddressOf } from '../http/client-address.js';
import { limitHeaders, RATE_WINDOW_MS } from '../limits/rate-limit.js';
import { SlidingWindow } from '../limits/sliding-window.js';
import type { ApiContext, ApiState } from '../http/state.js';
import {
  confirmSubscribePage,
  confirmUnsubscribePage,
  invalidLinkPage,
  managePage,
  subscribedPage,
  tooManyRequestsPage,
  unsubscribedPage,
} from '../tracking/pages.js';
import { describe, type AnswerDoc } from '../http/openapi/describe.js';
import { changeSubscription, linkOfToken, recordClick, recordOpen, senderOfLink, type SubscriptionLink } from '../tracking/service.js';
import { signToken, type ContactTokenKind } from '../tracking/tokens.js';

/** The 1x1 transparent GIF of the open pixel. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/**
 * Page views and requests with an invalid token are limited per client address, generously for
 * people, tightly for scripts guessing tokens. What a genuine token does (one-click unsubscribe,
 * the confirmation forms, opens, clicks) is never refused: mailbox providers and reverse proxies
 * send many people's requests from few addresses.
 */
const PUBLIC_PER_MINUTE = 300;
const FORM_LIMIT = 4096;

function html(ctx: ApiContext, body: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
  ctx.body = body;
}

/** Reads a small urlencoded form (the manage page, RFC 8058's `List-Unsubscribe=One-Click`); bigger bodies are cut. */
async function formOf(ctx: ApiContext): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    text += chunk.toString('latin1');
    if (text.length > FORM_LIMIT) break;
  }
  return new URLSearchParams(text.slice(0, FORM_LIMIT));
}

const PAGE: AnswerDoc = { type: 'text/html' };

/** Routes that mail links point to: no key, limited per client (see PUBLIC_PER_MINUTE), revealing nothing about other contacts. */
export function trackingRoutes(core: Core): Router<ApiState> {
  const router = new Router<ApiState>();
  const limiter = new SlidingWindow(core.clock, PUBLIC_PER_MINUTE, RATE_WINDOW_MS);
  const clientOf = clientAddressOf(core.config.http.trustProxy);
  /** Counts the request against its client's limit; over it, answers the 429 page and false. */
  const withinLimit = (ctx: ApiContext): boolean => {
    const verdict = limiter.take(clientOf(ctx.req));
    const headers = limitHeaders(verdict, core.clock.now());
    ctx.set(headers);
    if (!verdict.allowed) html(ctx, tooManyRequestsPage(Number(headers['Retry-After'])), 429);
    return verdict.allowed;
  };
  const url = (path: string) => `${core.config.publicUrl}${path}`;
  /** A link of the same email (so its pages name the same sender). */
  const tokenFor = (kind: ContactTokenKind, { contact, emailId }: SubscriptionLink) =>
    signToken(core, { kind, projectId: contact.projectId, contactId: contact.id, ...(emailId ? { emailId } : {}) });

  /** Resolves the token's link or answers the invalid-link page; page views and invalid tokens count against the limit. */
  const withLink =
    (kinds: ContactTokenKind[], view: 'page' | 'action', handle: (ctx: ApiContext, link: SubscriptionLink, sender: string) => Promise<void> | void): Middleware<ApiState> =>
    async (ctx) => {
      const link = linkOfToken(core, ctx.params.token ?? '', kinds);
      if ((!link || view === 'page') && !withinLimit(ctx)) return;
      if (!link) return html(ctx, invalidLinkPage(), 404);
      await handle(ctx, link, senderOfLink(core, link));
    };

  router.get('/t/o/:token', describe({ summary: 'Open pixel: records an open', answers: { 200: { type: 'image/gif' } } }), (ctx) => {
    if (!recordOpen(core, ctx.params.token!) && !withinLimit(ctx)) return;
    ctx.type = 'image/gif';
    ctx.set('Cache-Control', 'no-store, no-cache, must-revalidate, private');
    ctx.body = PIXEL;
  });

  router.get('/t/c/:token', describe({ summary: 'Click: records it, redirects to the signed URL', answers: { 302: null, 404: PAGE } }), (ctx) => {
    const target = recordClick(core, ctx.params.token!);
    // Only http(s) URLs are ever signed; checking again keeps a future signing bug from becoming an open redirect.
    if (!target || !/^https?:\/\//i.test(target)) {
      if (withinLimit(ctx)) html(ctx, invalidLinkPage(), 404);
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 302;
    ctx.set('Location', target);
    ctx.body = '';
  });

  /**
   * A subscription link: GET only shows a confirmation, since link scanners that prefetch must not
   * change anyone's subscription; POST (the confirmation form, and RFC 8058 one-click for /u) does it.
   */
  const subscriptionLink = (
    path: string,
    kind: ContactTokenKind,
    subscribed: boolean,
    confirmPage: (email: string, sender: string, action: string) => string,
    donePage: (link: SubscriptionLink, sender: string) => string,
  ) => {
    const doc = (summary: string) => describe({ summary: `${subscribed ? 'Subscribe' : 'Unsubscribe'} link: ${summary}`, answers: { 200: PAGE, 404: PAGE, 429: PAGE } });
    router.get(`/${path}/:token`, doc('confirmation page'), withLink([kind], 'page', (ctx, link, sender) => html(ctx, confirmPage(link.contact.email, sender, ctx.path))));
    router.post(
      `/${path}/:token`,
      doc(subscribed ? 'subscribes' : 'unsubscribes (also RFC 8058 one-click)'),
      withLink([kind], 'action', async (ctx, link, sender) => {
        await formOf(ctx);
        changeSubscription(core, link, subscribed);
        html(ctx, donePage(link, sender));
      }),
    );
  };
  subscriptionLink('u', 'unsubscribe', false, confirmUnsubscribePage, (link, sender) =>
    unsubscribedPage(link.contact.email, sender, url(`/s/${tokenFor('subscribe', link)}`)),
  );
  subscriptionLink('s', 'subscribe', true, confirmSubscribePage, (link, sender) => subscribedPage(link.contact.email, sender));

  router.get(
    '/m/:token',
    describe({ summary: 'Manage page', answers: { 200: PAGE, 404: PAGE, 429: PAGE } }),
    withLink(['manage'], 'page', (ctx, { contact }, sender) => html(ctx, managePage(contact.email, sender, contact.subscribed, ctx.path, false))),
  );
  router.post(
    '/m/:token',
    describe({ summary: 'Manage page: change the subscription', answers: { 200: PAGE, 404: PAGE, 429: PAGE } }),
    withLink(['manage'], 'action', async (ctx, link, sender) => {
      const wanted = (await formOf(ctx)).get('subscribed');
      const updated = wanted === 'true' || wanted === 'false' ? changeSubscription(core, link, wanted === 'true') : link.contact;
      html(ctx, managePage(updated.email, sender, updated.subscribed, ctx.path, true));
    }),
  );

  return router;
}
