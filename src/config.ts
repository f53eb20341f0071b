import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname as machineHostname } from 'node:os';
import { isProxyEntry } from './http/client-address.js';

export interface Config {
  dataDir: string;
  http: {
    host: string;
    port: number;
    /** Reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client; empty trusts none. */
    trustProxy: string[];
  };
  publicUrl: string | null;
  smtp: {
    host: string;
    port: number;
    /** Largest message accepted, in bytes (announced with EHLO SIZE). */
    maxSize: number;
    /** PEM files for STARTTLS; without them a self-signed certificate is generated at first start. */
    tlsKey: string | null;
    tlsCert: string | null;
    maxClients: number;
    maxPerClient: number;
  };
  /** null in the file means the machine's host name. */
  hostname: string;
  dns: { servers: string[] };
  delivery: {
    mode: 'mx' | 'relay';
    relay: string | null;
    port: number;
    /** Seconds a deferred email keeps being retried before it ends as a transient bounce. */
    maxAge: number;
    /** Deliveries in progress at once, over all destinations. */
    concurrency: number;
    /** Deliveries in progress at once per recipient domain. */
    perDomainConcurrency: number;
    /** Deliveries started per minute per project; 0 is no throttle. */
    throttlePerMinute: number;
    /** Bulk (campaign) deliveries started per second per project; 0 is no limit. Transactional mail is never held by it. */
    bulkPerSecond: number;
  };
  /** SMTP submission (587) for applications that speak only SMTP; off while `port` is null. */
  submission: {
    host: string;
    port: number | null;
    /** Seconds a session has from connecting to a successful AUTH before it is closed. */
    loginTimeout: number;
  };
  /** The heavy compose thread's old-generation heap, in MB: large sends and submissions are parsed and composed there. */
  threads: { heavyHeapMb: number };
  adminToken: string | null;
  webhooks: { allowPrivate: boolean };
  /** Optional content scanners for received mail: `host:port` or a unix socket path. */
  scanners: { spamd: string | null; clamd: string | null };
  rateLimit: { perMinute: number };
  log: { level: LogLevel };
  /** Enables POST /_test/clock (with adminToken) to move the daemon's clock forward. Tests only. */
  testHooks: boolean;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** An operator's input (a setting, a command's file) that stops the start or a command: one line naming what to change. */
export class ConfigError extends Error {}

/** A setting that is valid in itself but failed in use (a port in use, an unreadable file, ...). */
export const settingFailed = (path: string, why: string) => new ConfigError(`cannot use configuration key "${path}": ${why}`);

type Kind = 'string' | 'host' | 'port' | 'nullablePort' | 'count' | 'boolean' | 'servers' | 'proxies' | 'nullableString';

/** Every key: its path, environment variable, default and kind (`min` for counts). The one source for parsing and docs. */
const KEYS: { path: string; env: string; kind: Kind; def: unknown; oneOf?: string[]; min?: number }[] = [
  { path: 'dataDir', env: 'POSTMILL_DATA_DIR', kind: 'string', def: './data' },
  { path: 'http.host', env: 'POSTMILL_HTTP_HOST', kind: 'host', def: '127.0.0.1' },
  { path: 'http.port', env: 'POSTMILL_HTTP_PORT', kind: 'port', def: 3000 },
  { path: 'http.trustProxy', env: 'POSTMILL_HTTP_TRUST_PROXY', kind: 'proxies', def: [] },
  { path: 'publicUrl', env: 'POSTMILL_PUBLIC_URL', kind: 'nullableString', def: null },
  { path: 'smtp.host', env: 'POSTMILL_SMTP_HOST', kind: 'host', def: '127.0.0.1' },
  { path: 'smtp.port', env: 'POSTMILL_SMTP_PORT', kind: 'port', def: 2525 },
  { path: 'smtp.maxSize', env: 'POSTMILL_SMTP_MAX_SIZE', kind: 'count', def: 40 * 1024 * 1024, min: 1024 },
  { path: 'smtp.tlsKey', env: 'POSTMILL_SMTP_TLS_KEY', kind: 'nullableString', def: null },
  { path: 'smtp.tlsCert', env: 'POSTMILL_SMTP_TLS_CERT', kind: 'nullableString', def: null },
  { path: 'smtp.maxClients', env: 'POSTMILL_SMTP_MAX_CLIENTS', kind: 'count', def: 200, min: 1 },
  { path: 'smtp.maxPerClient', env: 'POSTMILL_SMTP_MAX_PER_CLIENT', kind: 'count', def: 20, min: 1 },
  { path: 'submission.host', env: 'POSTMILL_SUBMISSION_HOST', kind: 'host', def: '127.0.0.1' },
  { path: 'submission.port', env: 'POSTMILL_SUBMISSION_PORT', kind: 'nullablePort', def: null },
  { path: 'submission.loginTimeout', env: 'POSTMILL_SUBMISSION_LOGIN_TIMEOUT', kind: 'count', def: 30, min: 1 },
  { path: 'hostname', env: 'POSTMILL_HOSTNAME', kind: 'nullableString', def: null },
  { path: 'dns.servers', env: 'POSTMILL_DNS_SERVERS', kind: 'servers', def: [] },
  { path: 'delivery.mode', env: 'POSTMILL_DELIVERY_MODE', kind: 'string', def: 'mx', oneOf: ['mx', 'relay'] },
  { path: 'delivery.relay', env: 'POSTMILL_DELIVERY_RELAY', kind: 'nullableString', def: null },
  { path: 'delivery.port', env: 'POSTMILL_DELIVERY_PORT', kind: 'port', def: 25 },
  { path: 'delivery.maxAge', env: 'POSTMILL_DELIVERY_MAX_AGE', kind: 'count', def: 3 * 24 * 3600 },
  { path: 'delivery.concurrency', env: 'POSTMILL_DELIVERY_CONCURRENCY', kind: 'count', def: 100, min: 1 },
  { path: 'delivery.perDomainConcurrency', env: 'POSTMILL_DELIVERY_PER_DOMAIN_CONCURRENCY', kind: 'count', def: 20, min: 1 },
  { path: 'delivery.throttlePerMinute', env: 'POSTMILL_DELIVERY_THROTTLE_PER_MINUTE', kind: 'count', def: 0 },
  { path: 'delivery.bulkPerSecond', env: 'POSTMILL_DELIVERY_BULK_PER_SECOND', kind: 'count', def: 0 },
  { path: 'threads.heavyHeapMb', env: 'POSTMILL_THREADS_HEAVY_HEAP_MB', kind: 'count', def: 256, min: 16 },
  { path: 'adminToken', env: 'POSTMILL_ADMIN_TOKEN', kind: 'nullableString', def: null },
  { path: 'scanners.spamd', env: 'POSTMILL_SCANNERS_SPAMD', kind: 'nullableString', def: null },
  { path: 'scanners.clamd', env: 'POSTMILL_SCANNERS_CLAMD', kind: 'nullableString', def: null },
  { path: 'webhooks.allowPrivate', env: 'POSTMILL_WEBHOOKS_ALLOW_PRIVATE', kind: 'boolean', def: false },
  { path: 'rateLimit.perMinute', env: 'POSTMILL_RATE_LIMIT_PER_MINUTE', kind: 'count', def: 1000 },
  { path: 'log.level', env: 'POSTMILL_LOG_LEVEL', kind: 'string', def: 'info', oneOf: ['debug', 'info', 'warn', 'error'] },
  { path: 'testHooks', env: 'POSTMILL_TEST_HOOKS', kind: 'boolean', def: false },
];

const SERVER = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|[0-9a-fA-F:]+)(:\d{1,5})?$/;
/** A DNS host name (RFC 1123 labels): no spaces, no line breaks, nothing a header or an EHLO could carry. */
const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

export const isHostName = (value: string): boolean => HOST_NAME.test(value);

function coerce(path: string, kind: Kind, raw: unknown, fromEnv: boolean, oneOf?: string[], min = 0): unknown {
  const bad = (why: string): never => {
    throw new ConfigError(`invalid configuration key "${path}": ${why} (got ${JSON.stringify(raw)})`);
  };
  if (kind === 'nullablePort' && (raw === null || raw === '')) return null;
  switch (kind) {
    case 'string':
    case 'nullableString': {
      if (kind === 'nullableString' && (raw === null || raw === '')) return null;
      if (typeof raw !== 'string' || raw === '') return bad('expected a non-empty string');
      if (oneOf && !oneOf.includes(raw)) return bad(`expected one of ${oneOf.join(', ')}`);
      return raw;
    }
    case 'host': {
      if (typeof raw !== 'string' || (!isIP(raw) && !isHostName(raw))) return bad('expected an IP address or a host name');
      return raw;
    }
    case 'nullablePort':
    case 'port':
    case 'count': {
      const n = fromEnv && typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
      const max = kind === 'count' ? Number.MAX_SAFE_INTEGER : 65535;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) return bad(`expected an integer from ${min} to ${max}`);
      return n;
    }
    case 'boolean': {
      if (fromEnv && (raw === 'true' || raw === '1')) return true;
      if (fromEnv && (raw === 'false' || raw === '0')) return false;
      if (typeof raw !== 'boolean') return bad('expected true or false');
      return raw;
    }
    case 'servers': {
      const list = fromEnv && typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw;
      if (!Array.isArray(list) || !list.every((s) => typeof s === 'string' && SERVER.test(s))) {
        return bad('expected a list of "ip" or "ip:port"');
      }
      return list;
    }
    case 'proxies': {
      const list = typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw;
      if (!Array.isArray(list) || !list.every((s) => typeof s === 'string' && isProxyEntry(s))) {
        return bad('expected proxy addresses ("ip" or "ip/prefix"), as a list or comma-separated');
      }
      return list;
    }
  }
}

/** A URL of one of `protocols` on a valid host, printable ASCII only (it ends up in headers and links). */
function isUrlOf(text: string, protocols: string[]): boolean {
  if (!/^[\x21-\x7e]+$/.test(text)) return false;
  try {
    const url = new URL(text);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return protocols.includes(url.protocol) && (isIP(host) !== 0 || isHostName(host));
  } catch {
    return false;
  }
}

function isHostPort(text: string): boolean {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(text);
  return !!match && (isIP(match[1]!) !== 0 || isHostName(match[1]!)) && Number(match[2]) <= 65535;
}

function flatten(obj: Record<string, unknown>, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix + k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [p, inner] of flatten(v as Record<string, unknown>, path + '.')) out.set(p, inner);
    } else out.set(path, v);
  }
  return out;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1]!] = value;
}

/** Reads the file (if any) and the environment; an environment variable wins. Throws ConfigError naming the key. */
export function loadConfig(file: string | null, env: NodeJS.ProcessEnv = process.env): Config {
  let fromFile = new Map<string, unknown>();
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ConfigError(`cannot read configuration file ${file}: ${(err as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ConfigError(`configuration file ${file} must hold a JSON object`);
    }
    fromFile = flatten(parsed as Record<string, unknown>);
    for (const path of fromFile.keys()) {
      const last = path.slice(path.lastIndexOf('.') + 1);
      if (last.startsWith('_') || last.startsWith('$')) continue; // "_comment" keys document the file
      if (!KEYS.some((k) => k.path === path)) throw new ConfigError(`unknown configuration key "${path}" in ${file}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    const envValue = env[key.env];
    const value =
      envValue !== undefined
        ? coerce(key.path, key.kind, envValue, true, key.oneOf, key.min)
        : fromFile.has(key.path)
          ? coerce(key.path, key.kind, fromFile.get(key.path), false, key.oneOf, key.min)
          : key.def;
    setPath(out, key.path, value);
  }
  const config = out as unknown as Config;
  if (config.hostname === null) {
    config.hostname = machineHostname();
    if (!isHostName(config.hostname)) {
      throw new ConfigError(`invalid configuration key "hostname": the machine's host name ${JSON.stringify(config.hostname)} is not a DNS name; set hostname`);
    }
  } else if (!isHostName(config.hostname)) {
    throw new ConfigError(`invalid configuration key "hostname": expected a DNS host name such as mail.example.com (got ${JSON.stringify(config.hostname)})`);
  }
  if (config.adminToken !== null && !/^[\x21-\x7e]{24,}$/.test(config.adminToken)) {
    throw new ConfigError('invalid configuration key "adminToken": expected at least 24 printable characters without spaces (openssl rand -hex 24 makes one)');
  }
  if (config.delivery.mode === 'relay' && !config.delivery.relay) {
    throw new ConfigError('invalid configuration key "delivery.relay": required when delivery.mode is "relay"');
  }
  if (config.delivery.relay && !isUrlOf(config.delivery.relay, ['smtp:', 'smtps:'])) {
    throw new ConfigError('invalid configuration key "delivery.relay": expected smtp://user:pass@host:port or smtps://...');
  }
  if (!config.smtp.tlsKey !== !config.smtp.tlsCert) {
    throw new ConfigError('invalid configuration key "smtp.tlsCert": smtp.tlsKey and smtp.tlsCert go together');
  }
  for (const [name, address] of Object.entries(config.scanners)) {
    if (address && !address.startsWith('/') && !isHostPort(address)) {
      throw new ConfigError(`invalid configuration key "scanners.${name}": expected host:port or a unix socket path`);
    }
  }
  if (config.testHooks && !config.adminToken) {
    throw new ConfigError('invalid configuration key "testHooks": needs adminToken to be set');
  }
  if (config.publicUrl && !isUrlOf(config.publicUrl, ['http:', 'https:'])) {
    throw new ConfigError('invalid configuration key "publicUrl": expected an http:// or https:// URL');
  }
  return config;
}
