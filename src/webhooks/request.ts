// One webhook request, following redirects: every hop's host is resolved through the daemon's DNS,
// its address checked by the guard and then pinned for the connection, so no answer can swap in
// an address that was not checked.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Dns } from '../dns/resolver.js';
import { refusedAddress } from './address-guard.js';

export interface WebhookRequest {
  url: string;
  method: string;
  /** Ours (signature, delivery id, content type): sent on every hop. */
  headers: Record<string, string>;
  /** The step's own (credentials, often): sent to the URL's origin only, never to another one a redirect names. */
  originHeaders: Record<string, string>;
  body: string | Buffer | null;
}

export interface WebhookResponse {
  status: number;
  /** The start of the answer (at most 4 KB, or all of it under `maxBodyBytes`), kept with the step's output. */
  body: string;
  /** The answer's Content-Type, '' when it named none. */
  contentType: string;
  url: string;
}

export interface WebhookOptions {
  dns: Dns;
  allowPrivate: boolean;
  /** Bounds the whole exchange, the answer's body included. */
  timeoutMs: number;
  maxRedirects: number;
  /** The whole body is wanted and a longer one is a failure (MTA-STS policies), instead of keeping its first 4 KB. */
  maxBodyBytes?: number;
  /** CA certificates (PEM) trusted for https: instead of Node's roots; a caller adds the roots it still wants. */
  ca?: string[];
}

/** A failure; `retryable` ones (network errors, timeouts) may succeed on another attempt. */
export class WebhookError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

const KEEP_BODY = 4096;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The address to connect to: the first of the host's addresses the guard accepts. Also asked when a
 * WEBHOOK step is saved, so that a target refused now is refused there rather than at run time.
 */
export async function guardedAddress(host: string, opts: Pick<WebhookOptions, 'dns' | 'allowPrivate'>): Promise<{ address: string; family: 4 | 6 }> {
  const literal = host.replace(/^\[|\]$/g, '');
  const found = isIP(literal) ? [literal] : await Promise.all([opts.dns.a(literal), opts.dns.aaaa(literal)]).then(([v4, v6]) => [...v4, ...v6]);
  if (found.length === 0) throw new WebhookError(`${host} has no address`, true);
  const reasons: string[] = [];
  for (const address of found) {
    const refused = refusedAddress(address, opts.allowPrivate);
    if (!refused) return { address, family: isIP(address) === 6 ? 6 : 4 };
    reasons.push(refused);
  }
  throw new WebhookError(`${host} refused: ${reasons[0]} (set webhooks.allowPrivate to reach private addresses)`, false);
}

function attempt(url: URL, req: WebhookRequest, headers: Record<string, string>, pinned: { address: string; family: 4 | 6 }, opts: WebhookOptions): Promise<{ res: IncomingMessage; body: string }> {
  const { timeoutMs, maxBodyBytes } = opts;
  const keep = maxBodyBytes ?? KEEP_BODY;
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as unknown as (e: null, all: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let handle: ClientRequest | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      handle = send(url, { method: req.method, headers, lookup, ...(opts.ca ? { ca: opts.ca } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < keep) chunks.push(chunk.subarray(0, keep - kept));
          kept += chunk.length;
          if (maxBodyBytes !== undefined && kept > maxBodyBytes) res.destroy(new WebhookError(`the answer is longer than ${maxBodyBytes} bytes`, false));
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ res, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
      const started = handle;
      timer = setTimeout(() => started.destroy(new WebhookError(`no answer within ${timeoutMs / 1000} s`, true)), timeoutMs);
      handle.on('error', (err) => {
        clearTimeout(timer);
        reject(err instanceof WebhookError ? err : new WebhookError(err.message, true));
      });
      handle.end(req.body ?? undefined);
    } catch (err) {
      // Node refuses some requests before sending anything (a header it cannot write): another attempt would be refused alike
      clearTimeout(timer);
      handle?.destroy();
      reject(new WebhookError(`the request could not be made: ${err instanceof Error ? err.message : String(err)}`, false));
    }
  });
}

const withoutContentHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(type|length)$/i.test(name)));

function redirectTarget(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    // the parser's message adds nothing: ours names the Location
    throw new WebhookError(`redirected to ${location.slice(0, 300)}, which is not a URL`, false);
  }
}

/** Sends the request, following at most `maxRedirects` redirects; answers the final response whatever its status. */
export async function sendWebhook(req: WebhookRequest, opts: WebhookOptions): Promise<WebhookResponse> {
  let url = new URL(req.url);
  const { origin } = url;
  let current = req;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookError(`${url.protocol} URLs cannot be called`, false);
    const pinned = await guardedAddress(url.hostname, opts);
    const headers = url.origin === origin ? { ...current.originHeaders, ...current.headers } : current.headers;
    const { res, body } = await attempt(url, current, headers, pinned, opts);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!REDIRECTS.has(status) || !location) return { status, body, contentType: res.headers['content-type'] ?? '', url: url.toString() };
    if (hop >= opts.maxRedirects) throw new WebhookError(`more than ${opts.maxRedirects} redirects`, false);
    url = redirectTarget(location, url);
    // 303, and 301/302 after a POST, continue as a GET without a body (what browsers and curl do)
    if (status === 303 || ((status === 301 || status === 302) && current.method === 'POST')) {
      current = { ...current, method: 'GET', body: null, headers: withoutContentHeaders(current.headers), originHeaders: withoutContentHeaders(current.originHeaders) };
    }
  }
}
