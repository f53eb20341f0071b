import { Ajv, type ErrorObject } from 'ajv';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname as machineHostname } from 'node:os';
import { CONFIG_SCHEMA, isConfigGroup, type ConfigGroup, type ConfigLeaf } from './config-schema.js';
import proxyAddr from 'proxy-addr';

export interface Config {
  dataDir: string;
  /** Where the store is: null is SQLite in dataDir, a postgres:// URL a PostgreSQL database. */
  database: { url: string | null };
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
    /** Bytes of messages being received at once over every SMTP session (inbound and submission); at least maxSize. */
    dataBudget: number;
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
    mode: 'mx' | 'relay' | 'capture';
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
    /** Mailbox providers over the built-in ones, by name (src/outbound/shaping/providers.ts). */
    providers: Record<string, { suffixes?: string[]; connections?: number; perConnection?: number; perMinute?: number }>;
    /** A new sender domain's daily deliveries, from its first send: bulk mail over the day's budget waits for the next day. */
    warmup: { enabled: boolean; schedule: number[] };
    /** Outbound TLS policy: MTA-STS, DANE, per-domain overrides, TLS-RPT (src/outbound/tls-policy/). */
    tls: {
      mtaSts: boolean;
      dane: boolean;
      domains: Record<string, TlsOverride>;
      caFile: string | null;
      reports: boolean;
    };
  };
  /** DKIM key rotation: days an old key stays published after a rotation, and the schedule of rotations (null is off). */
  dkim: { rotationOverlapDays: number; rotateEveryDays: number | null };
  /** The outbound check the daemon runs by itself (start and daily): the domain whose MX it tries; null is off. */
  doctor: { probeDomain: string | null };
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
  /** Sessions of the console: ended after this long without a request, and this long after sign-in whatever happens. */
  console: { sessionIdleMinutes: number; sessionMaxDays: number };
  /** Reads whose cost grows with a project's data (filter pages and counts, audience walks): threads, and how long one statement may run. */
  reads: { threads: number; requestBudgetMs: number; jobBudgetMs: number };
  log: { level: LogLevel };
  /** Enables POST /_test/clock (with adminToken) to move the daemon's clock forward. Tests only. */
  testHooks: boolean;
}

/** A recipient domain's TLS override: STARTTLS required, a verified certificate required, or MTA-STS and DANE ignored. */
export type TlsOverride = 'require' | 'verify' | 'opportunistic';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** An operator's input (a setting, a command's file) that stops the start or a command: one line naming what to change. */
export class ConfigError extends Error {}

/** A setting that is valid in itself but failed in use (a port in use, an unreadable file, ...). */
export const settingFailed = (path: string, why: string) => new ConfigError(`cannot use configuration key "${path}": ${why}`);

/** A URL of one of `protocols` on a valid host, printable ASCII only (it ends up in headers and links). */
function isUrlOf(text: string, protocols: string[]): boolean {
  if (!/^[\x21-\x7e]+$/.test(text)) return false;
  try {
    const url = new URL(text);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return protocols.includes(url.protocol) && (isIP(host) !== 0 || isHostName(host));
  } catch {
    // not a URL: the caller names the key and what it expected
    return false;
  }
}

function isHostPort(text: string): boolean {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(text);
  return !!match && (isIP(match[1]!) !== 0 || isHostName(match[1]!)) && Number(match[2]) <= 65535;
}


const SERVER = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|[0-9a-fA-F:]+)(:\d{1,5})?$/;
/** A DNS host name (RFC 1123 labels): no spaces, no line breaks, nothing a header or an EHLO could carry. */
const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

export const isHostName = (value: string): boolean => HOST_NAME.test(value);

/** The formats of the configuration's schema, each with the wording of its refusal. */
const FORMATS: Record<string, { test: (value: string) => boolean; expected: string }> = {
  host: { test: (v) => isIP(v) !== 0 || isHostName(v), expected: 'an IP address or a host name' },
  hostname: { test: isHostName, expected: 'a DNS host name such as mail.example.com' },
  'dns-server': { test: (v) => SERVER.test(v), expected: 'a list of "ip" or "ip:port"' },
  'http-url': { test: (v) => isUrlOf(v, ['http:', 'https:']), expected: 'an http:// or https:// URL' },
  'smtp-url': { test: (v) => isUrlOf(v, ['smtp:', 'smtps:']), expected: 'smtp://user:pass@host:port or smtps://...' },
  'postgres-url': { test: (v) => isUrlOf(v, ['postgres:', 'postgresql:']) && /^\/[^/]+$/.test(new URL(v).pathname), expected: 'postgres://user:pass@host:port/database (or postgresql://...)' },
  'service-address': { test: (v) => v.startsWith('/') || isHostPort(v), expected: 'host:port or a unix socket path' },
  proxy: {
    test: (v) => {
      try {
        proxyAddr.compile([v]);
        return true;
      } catch {
        // not a proxy address: the caller names the key and what it expected
        return false;
      }
    },
    expected: 'proxy addresses ("ip", "ip/prefix" or loopback, linklocal, uniquelocal)',
  },
};

/** The schema ajv checks: groups closed to unknown keys and filled with their leaves' defaults. */
function ajvSchemaOf(node: ConfigGroup): object {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.entries(node.properties).map(([name, child]) => {
        if (isConfigGroup(child)) return [name, { ...ajvSchemaOf(child), default: {} }];
        const { 'x-env': _env, description: _description, ...schema } = child;
        return [name, schema];
      }),
    ),
  };
}

const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: true, allowUnionTypes: true });
ajv.addKeyword({ keyword: 'x-error', schemaType: 'string' });
for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format.test);
const validateConfig = ajv.compile(ajvSchemaOf(CONFIG_SCHEMA));

/** Every leaf of the schema with its dotted path. */
export function configLeaves(node: ConfigGroup = CONFIG_SCHEMA, prefix = ''): [string, ConfigLeaf][] {
  return Object.entries(node.properties).flatMap(([name, child]) =>
    isConfigGroup(child) ? configLeaves(child, `${prefix}${name}.`) : [[`${prefix}${name}`, child] as [string, ConfigLeaf]],
  );
}

/** The environment variable that sets a key (`http.port`: POSTMILL_HTTP_PORT). */
export function environmentVariableOf(path: string): string {
  const leaf = configLeaves().find(([p]) => p === path)?.[1];
  if (!leaf) throw new Error(`no configuration key "${path}"`);
  return leaf['x-env'];
}

/** An environment variable's text as the value its key takes: numbers, booleans and lists are read, '' is null where null is allowed. */
function fromEnvironment(leaf: ConfigLeaf, text: string): unknown {
  const types: string[] = Array.isArray(leaf.type) ? leaf.type : [leaf.type];
  if (types.includes('array')) {
    const items = text.split(',').map((s) => s.trim()).filter(Boolean);
    return (leaf.items as { type?: string } | undefined)?.type === 'integer' ? items.map((item) => (/^\d+$/.test(item) ? Number(item) : item)) : items;
  }
  if (types.includes('object')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // left as text: the schema then names the key and expects an object
      return text;
    }
  }
  if (text === '' && types.includes('null')) return null;
  if (types.includes('integer') && /^\d+$/.test(text)) return Number(text);
  if (types.includes('boolean')) return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
  return text;
}

/** The file without its `_comment` (and `$schema`) keys, at every level. */
function withoutComments(node: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !key.startsWith('_') && !key.startsWith('$'))
      .map(([key, value]) => [key, value !== null && typeof value === 'object' && !Array.isArray(value) ? withoutComments(value as Record<string, unknown>) : value]),
  );
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = (next !== null && typeof next === 'object' && !Array.isArray(next) ? next : (node[part] = {})) as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}

function valueAt(root: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), root);
}

const TYPE_WORDS: Record<string, string> = { integer: 'an integer', boolean: 'true or false', string: 'a string', array: 'a list', object: 'a JSON object', null: 'null' };

function typeWording(leaf: ConfigLeaf | undefined): string {
  const types: string[] = leaf ? (Array.isArray(leaf.type) ? leaf.type : [leaf.type]) : ['an object'];
  return types.map((type) => TYPE_WORDS[type] ?? type).join(' or ');
}

/** A refused value as an error quotes it: the password of a URL (database.url, delivery.relay) left out. */
const shownValue = (value: unknown): string => JSON.stringify(value)?.replace(/(\/\/[^/@\s:"]*:)[^/@\s"]*@/g, '$1***@') ?? String(value);

/** ajv's first complaint as one line that names the key and what it expects. */
function describeError(error: ErrorObject, input: unknown, file: string | null): ConfigError {
  const parts = error.instancePath.split('/').slice(1);
  if (error.keyword === 'additionalProperties') {
    const key = [...parts, String(error.params.additionalProperty)].join('.');
    return new ConfigError(`unknown configuration key "${key}"${file ? ` in ${file}` : ''}`);
  }
  // an item of a list is reported as its list
  const leafPath = /^\d+$/.test(parts[parts.length - 1] ?? '') ? parts.slice(0, -1) : parts;
  const leaf = configLeaves().find(([path]) => path === leafPath.join('.'))?.[1];
  // inside an object-valued key (delivery.providers.NAME.FIELD): ajv's own words, but for a choice or a format, said as for keys
  if (!leaf && error.keyword !== 'enum' && error.keyword !== 'format' && configLeaves().some(([path]) => leafPath.join('.').startsWith(`${path}.`))) {
    return new ConfigError(`invalid configuration key "${leafPath.join('.')}": ${error.message ?? 'invalid'} (got ${shownValue(valueAt(input, leafPath))})`);
  }
  const expected =
    error.keyword === 'format'
      ? FORMATS[String(error.params.format)]?.expected
      : error.keyword === 'enum'
        ? `one of ${(error.params.allowedValues as string[]).join(', ')}`
        : error.keyword === 'pattern' && leaf && typeof leaf['x-error'] === 'string'
          ? String(leaf['x-error']).replace(/^expected /, '')
          : error.keyword === 'minimum' || error.keyword === 'maximum'
            ? `an integer from ${String(leaf?.minimum ?? 0)} to ${String(leaf?.maximum ?? Number.MAX_SAFE_INTEGER)}`
            : error.keyword === 'minLength'
              ? 'a non-empty string'
              : typeWording(leaf);
  return new ConfigError(`invalid configuration key "${leafPath.join('.')}": expected ${expected} (got ${shownValue(valueAt(input, leafPath))})`);
}

/** Reads the file (if any) and the environment; an environment variable wins. Throws ConfigError naming the key. */
export function loadConfig(file: string | null, env: NodeJS.ProcessEnv = process.env): Config {
  let input: Record<string, unknown> = {};
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
    input = withoutComments(parsed as Record<string, unknown>);
  }
  for (const [path, leaf] of configLeaves()) {
    const text = env[leaf['x-env']];
    if (text !== undefined) setPath(input, path, fromEnvironment(leaf, text));
  }
  const snapshot = structuredClone(input);
  if (!validateConfig(input)) throw describeError(validateConfig.errors![0]!, snapshot, file);
  const config = input as unknown as Config;
  if (config.hostname === null) {
    config.hostname = machineHostname();
    if (!isHostName(config.hostname)) {
      throw new ConfigError(`invalid configuration key "hostname": the machine's host name ${JSON.stringify(config.hostname)} is not a DNS name; set hostname`);
    }
  }
  if (config.delivery.mode === 'relay' && !config.delivery.relay) {
    throw new ConfigError('invalid configuration key "delivery.relay": required when delivery.mode is "relay"');
  }
  if (config.smtp.dataBudget < config.smtp.maxSize) {
    // a message of the largest size would never fit: its sender would retry for ever
    throw new ConfigError(`invalid configuration key "smtp.dataBudget": at least smtp.maxSize (${config.smtp.maxSize})`);
  }
  if (!config.smtp.tlsKey !== !config.smtp.tlsCert) {
    throw new ConfigError('invalid configuration key "smtp.tlsCert": smtp.tlsKey and smtp.tlsCert go together');
  }
  if (config.testHooks && !config.adminToken) {
    throw new ConfigError('invalid configuration key "testHooks": needs adminToken to be set');
  }
  return config;
}
