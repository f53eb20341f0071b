import { domainToASCII } from 'node:url';
import { systemClock, type Clock } from '../../clock.js';
import type { Dns } from '../../dns/resolver.js';
import { Pacer } from '../pacer.js';
import { providerOf, type ProviderRule } from '../shaping/providers.js';
import { Suspensions } from '../shaping/suspensions.js';
import { isThrottling } from '../shaping/throttling.js';
import type { Attempt } from './attempt.js';
import { createKeyedLimiter, type Feedback } from './keyed-limiter.js';
import { createSmtpConnections, type WireMessage } from './connections.js';
import { resolveRoute } from './route.js';
import type { PlannedHost, TlsPolicies } from './tls.js';
import { mxTarget, relayTarget, type SmtpTarget, type SmtpTimeouts } from './transport.js';

export interface DeliveryTimeouts extends SmtpTimeouts {
  /** A host's pooled connections are closed after this long without a message. */
  idleMs: number;
}

export interface DeliveryOptions {
  dns: Dns;
  /** Our host name, sent with EHLO. */
  hostname: string;
  /** `delivery.port`: the TCP port of MX hosts (25 in production). */
  port: number;
  mode: 'mx' | 'relay';
  /** `delivery.relay`, required in relay mode: `smtp://user:pass@host:port` or `smtps://...`. */
  relay?: string;
  /**
   * Deliveries in progress at once per recipient domain, at most: each domain starts at 5 (fewer
   * if this is lower) and moves with its answers (keyed-limiter.ts); 20 unless set.
   */
  perDomainConcurrency?: number;
  /** SMTP sessions open at once per MX host (or to the relay); 3 unless set. */
  sessionsPerHost?: number;
  timeouts?: Partial<DeliveryTimeouts>;
  /**
   * Mailbox providers by MX host (src/outbound/shaping/providers.ts): the domains one hosts share
   * its connections and rate, and its throttling replies suspend its queue. None unless given.
   */
  providers?: readonly ProviderRule[];
  /** Times a provider's rate and suspensions (the daemon's clock, which tests move). */
  clock?: Clock;
  /** Recipient domains' TLS policies (MTA-STS, DANE, overrides) in MX mode; without, STARTTLS is opportunistic everywhere. */
  tls?: TlsPolicies;
}

export interface OutboundMessage {
  /** The email record this delivers (capture mode keeps the message under it; the simulator reads its attempts). */
  emailId: string;
  /** Envelope MAIL FROM: the VERP return path. */
  from: string;
  /** The one recipient of this delivery. */
  to: string;
  /** Sent in front of `raw` when given: the DKIM-Signature header kept apart, so a large message is never copied to put it in front. */
  head?: Buffer | null;
  /** The finished message (its signature in `head`, or in it); sent as is. */
  raw: Buffer;
  /** Bulk (campaign) mail waits behind transactional mail for a place at its destination. */
  bulk?: boolean;
  /**
   * Asked once the delivery has its place, just before it starts: false withdraws it (a campaign
   * cancelled while the message waited behind others for its destination).
   */
  stillWanted?: () => boolean;
  /**
   * False: the recipient domain's TLS policy is not applied, STARTTLS stays opportunistic. For TLS-RPT
   * reports, which RFC 8460 5.3 wants delivered despite TLS failures (they are what reports them).
   */
  tlsPolicy?: boolean;
}

/**
 * What became of one delivery. `host` names the server that answered, `name[ip]` in MX
 * mode and `host:port` of the relay; it is null when no server was reached.
 */
export type DeliveryResult =
  | { status: 'delivered'; response: string; host: string; tls: string | null }
  /** Permanent: a 5xx reply, a null MX, a domain without mail hosts. */
  | { status: 'bounced'; code: number | null; enhancedCode: string | null; response: string; host: string | null; tls: string | null }
  /**
   * Temporary, retry later: 4xx replies, timeouts, refused connections, DNS failures. `resumeAt`:
   * the reply was a provider's throttling, whose queue waits until then.
   */
  | { status: 'deferred'; code: number | null; response: string; host: string | null; tls: string | null; resumeAt?: number }
  /** Not attempted: the recipient's provider is suspended or over its rate until `until`. */
  | { status: 'held'; until: number; reason: string; host: null }
  /** Not attempted: `stillWanted` said no. */
  | { status: 'withdrawn'; host: null };

export interface Delivery {
  /** Never rejects for a failed delivery: the result says what happened. */
  deliver(message: OutboundMessage): Promise<DeliveryResult>;
  /** Closes the pooled connections; deliveries still waiting for one end deferred. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUTS: DeliveryTimeouts = { connectMs: 30_000, greetingMs: 60_000, socketMs: 300_000, idleMs: 30_000 };
/** Postfix's default_destination_concurrency_limit and initial_destination_concurrency. */
const DEFAULT_PER_DOMAIN_CONCURRENCY = 20;
const INITIAL_PER_DOMAIN_CONCURRENCY = 5;
/** Kept small: receiving servers throttle clients that open many sessions. */
const DEFAULT_SESSIONS_PER_HOST = 3;
const MESSAGES_PER_SESSION = 100;
const TRANSACTIONAL_PRIORITY = 1;
const BULK_PRIORITY = 0;
/**
 * A domain's resolved route is reused this long: a drain to one domain resolves it (and builds its
 * targets) a few times a second instead of once per message; DNS changes still show within a second.
 * Failures are not kept.
 */
const ROUTE_REUSE_MS = 1000;
const MAX_ROUTES = 10_000;
/** Addresses tried per delivery, over all MX hosts (Postfix's smtp_mx_address_limit). */
const MAX_ADDRESSES = 5;

/** The recipient's domain in ASCII (IDNA), or null when it is not a valid domain. */
function recipientDomain(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain = at < 0 ? '' : domainToASCII(address.slice(at + 1).toLowerCase());
  return domain === '' ? null : domain;
}

function fromAttempt(attempt: Attempt, host: string): DeliveryResult {
  const { response, tls } = attempt;
  if (attempt.ok) return { status: 'delivered', response, host, tls };
  const { code } = attempt;
  if (attempt.permanent) return { status: 'bounced', code, enhancedCode: attempt.enhancedCode, response, host, tls };
  return { status: 'deferred', code, response, host, tls };
}

/**
 * What a result says of its destination's capacity: any answer of its servers is room to grow;
 * none at all (refused, timed out) or a 421 (too busy, too many sessions) asks for fewer at once.
 * A DNS failure or a withdrawn delivery says nothing of the servers.
 */
function feedbackOf(result: DeliveryResult): Feedback {
  if (result.status === 'held') return 'none';
  if (result.host === null) return 'none';
  if (result.status === 'deferred') return result.code === null || result.code === 421 ? 'refused' : 'served';
  return 'served';
}

/**
 * Tries the targets in order. A 2xx or 5xx answer is final; a 4xx answer or a failed
 * connection moves on to the next target.
 */
async function tryInOrder(targets: SmtpTarget[], send: (target: SmtpTarget) => Promise<Attempt>): Promise<DeliveryResult> {
  let failure: Extract<DeliveryResult, { status: 'deferred' }> | null = null;
  for (const target of targets) {
    const result = fromAttempt(await send(target), target.label);
    if (result.status !== 'deferred') return result;
    // An SMTP reply tells the sender more than a later refused connection does.
    if (!failure || failure.code === null || result.code !== null) failure = result;
  }
  return failure ?? { status: 'deferred', code: null, response: 'no SMTP server to try', host: null, tls: null };
}

/** Where a domain's mail goes, and the mailbox provider that runs those servers (null for others, and the relay). */
interface Routed {
  targets: SmtpTarget[];
  provider: ProviderRule | null;
}

export function createDelivery(options: DeliveryOptions): Delivery {
  const { dns, hostname, port, mode, relay } = options;
  if (mode === 'relay' && !relay) throw new Error('delivery.relay is required in relay mode');
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const relayTargets = mode === 'relay' && relay ? [relayTarget(relay, hostname, timeouts)] : null;
  const connections = createSmtpConnections({ perHost: options.sessionsPerHost ?? DEFAULT_SESSIONS_PER_HOST, messagesPerSession: MESSAGES_PER_SESSION, idleMs: timeouts.idleMs });
  const clock = options.clock ?? systemClock;
  const rules = options.providers ?? [];
  // A provider's key cannot be a domain's: domains have no spaces.
  const providerKey = (rule: ProviderRule) => `provider ${rule.name}`;
  const providerWindows = new Map(rules.map((rule) => [providerKey(rule), { initial: Math.min(INITIAL_PER_DOMAIN_CONCURRENCY, rule.connections), limit: rule.connections }]));
  const providerRates = new Map(rules.map((rule) => [rule.name, new Pacer(clock, rule.perMinute / 60)]));
  const suspensions = new Suspensions(clock);
  const limiter = createKeyedLimiter({ initial: INITIAL_PER_DOMAIN_CONCURRENCY, limit: options.perDomainConcurrency ?? DEFAULT_PER_DOMAIN_CONCURRENCY }, (key) => providerWindows.get(key));

  const routes = new Map<string, { route: Routed; until: number }>();

  async function routeFor(domain: string, tlsPolicy: boolean): Promise<Routed | DeliveryResult> {
    if (relayTargets) return { targets: relayTargets, provider: null };
    const routeKey = tlsPolicy ? domain : `${domain} without TLS policy`;
    const reused = routes.get(routeKey);
    if (reused && reused.until > performance.now()) return reused.route;
    const route = await resolveRoute(dns, domain);
    if (!route.ok) {
      const { reason: response, enhancedCode } = route;
      return route.permanent
        ? { status: 'bounced', code: null, enhancedCode, response, host: null, tls: null }
        : { status: 'deferred', code: null, response, host: null, tls: null };
    }
    let planned: PlannedHost[] = route.hosts.map((host) => ({ ...host, check: null }));
    if (options.tls && tlsPolicy) {
      const plan = await options.tls.plan(domain, route.hosts, port);
      if (!plan.ok) return { status: 'deferred', code: null, response: plan.reason, host: null, tls: null };
      planned = plan.hosts;
    }
    const provider = providerOf(rules, route.hosts.map((host) => host.name));
    const hosts = planned.flatMap((host) => host.addresses.map((address) => ({ name: host.name, address, check: host.check })));
    const targets = hosts.slice(0, MAX_ADDRESSES).map((host) => ({
      ...mxTarget(host, port, hostname, timeouts, host.check),
      ...(provider ? { messagesPerSession: provider.perConnection } : {}),
    }));
    const routed = { targets, provider };
    if (routes.size >= MAX_ROUTES) routes.clear();
    routes.set(routeKey, { route: routed, until: performance.now() + ROUTE_REUSE_MS });
    return routed;
  }

  /** A provider suspended, or over its rate, holds the delivery (asked once it has its place: a queue waiting meanwhile learns of a suspension). */
  function heldBy(provider: ProviderRule): DeliveryResult | null {
    const suspended = suspensions.until(provider.name);
    if (suspended !== null) return { status: 'held', until: suspended, reason: `${provider.name} throttled our mail; its queue waits`, host: null };
    const slot = providerRates.get(provider.name)!.take(provider.name);
    return slot === null ? null : { status: 'held', until: slot, reason: `${provider.name} rate (delivery.providers.${provider.name}.perMinute)`, host: null };
  }

  function send(targets: SmtpTarget[], message: OutboundMessage): Promise<DeliveryResult> {
    const wire: WireMessage = { envelope: { from: message.from, to: [message.to] }, head: message.head ?? null, raw: message.raw };
    return tryInOrder(targets, (target) => connections.send(target, wire));
  }

  /** A provider's throttling reply suspends its queue (the result says until when); any other answer ends its run of suspensions. */
  function heard(provider: ProviderRule, result: DeliveryResult): DeliveryResult {
    if (result.status === 'deferred' && isThrottling(result.code, result.response)) return { ...result, resumeAt: suspensions.throttled(provider.name) };
    if (result.host !== null) suspensions.served(provider.name);
    return result;
  }

  let closed = false;
  return {
    async deliver(message) {
      if (closed) throw new Error('delivery is closed');
      const domain = recipientDomain(message.to);
      if (!domain) {
        return { status: 'bounced', code: null, enhancedCode: '5.1.3', response: `invalid recipient address ${message.to}`, host: null, tls: null };
      }
      const routed = await routeFor(domain, message.tlsPolicy !== false);
      if (!('targets' in routed)) return routed;
      const { targets, provider } = routed;
      const attempt = async (): Promise<DeliveryResult> => {
        if (message.stillWanted?.() === false) return { status: 'withdrawn', host: null };
        if (!provider) return send(targets, message);
        return heldBy(provider) ?? heard(provider, await send(targets, message));
      };
      return limiter.run(provider ? providerKey(provider) : domain, attempt, message.bulk ? BULK_PRIORITY : TRANSACTIONAL_PRIORITY, feedbackOf);
    },
    async close() {
      closed = true;
      connections.close();
    },
  };
}
