// The configuration's one description: every key's type, default, environment variable and meaning.
// ajv validates the file and the environment against it (src/config.ts), and it writes
// config/postmill.example.json (`npm run config-example`; a test keeps the two equal).

/** A leaf key: its JSON Schema, the environment variable that overrides it, and what it means. */
export interface ConfigLeaf {
  /** `object`: a map whose entries the key's own schema (`additionalProperties`) describes. */
  type: 'string' | 'integer' | 'boolean' | 'array' | 'object' | ('string' | 'integer' | 'null')[];
  default: unknown;
  'x-env': string;
  description: string;
  [keyword: string]: unknown;
}

export interface ConfigGroup {
  type: 'object';
  /** A group's keys are listed; a map leaf (type `object` too) has none. */
  properties: Record<string, ConfigLeaf | ConfigGroup>;
}

const leaf = (env: string, type: ConfigLeaf['type'], def: unknown, description: string, rest: Record<string, unknown> = {}): ConfigLeaf => ({
  type,
  default: def,
  'x-env': env,
  description,
  ...rest,
});
const group = (properties: Record<string, ConfigLeaf | ConfigGroup>): ConfigGroup => ({ type: 'object', properties });

/** A group holds keys; a leaf (an object-valued one too) has its environment variable. */
export const isConfigGroup = (node: ConfigLeaf | ConfigGroup): node is ConfigGroup => !('x-env' in node);

const port = { minimum: 0, maximum: 65535 };
const count = (minimum = 0) => ({ minimum });

export const CONFIG_SCHEMA: ConfigGroup = group({
  dataDir: leaf('POSTMILL_DATA_DIR', 'string', './data', 'the SQLite store and anything else kept on disk', { minLength: 1 }),
  database: group({
    url: leaf(
      'POSTMILL_DATABASE_URL',
      ['string', 'null'],
      null,
      'null keeps the store in SQLite in dataDir; postgres://user:pass@host:port/db names a PostgreSQL (15 or newer) database instead. This build does not serve from PostgreSQL yet: set, every command stops with a message',
      { format: 'postgres-url' },
    ),
  }),
  http: group({
    host: leaf('POSTMILL_HTTP_HOST', 'string', '127.0.0.1', 'API and tracking listener address', { format: 'host' }),
    port: leaf('POSTMILL_HTTP_PORT', 'integer', 3000, '0 picks a free port (the ready line names it)', port),
    trustProxy: leaf(
      'POSTMILL_HTTP_TRUST_PROXY',
      'array',
      [],
      'your reverse proxies, as addresses, CIDR ranges or the names loopback, linklocal, uniquelocal ("127.0.0.1", "10.0.0.0/8"); a request from one of them names its client in X-Forwarded-For (used by the per-client limits of the public pages). Empty trusts no header',
      { items: { type: 'string', format: 'proxy' } },
    ),
  }),
  publicUrl: leaf(
    'POSTMILL_PUBLIC_URL',
    ['string', 'null'],
    null,
    'base of tracking, unsubscribe and manage links; null means http://HOST:PORT of the listener',
    { format: 'http-url' },
  ),
  smtp: group({
    host: leaf('POSTMILL_SMTP_HOST', 'string', '127.0.0.1', 'inbound SMTP listener (replies, bounces, complaints)', { format: 'host' }),
    port: leaf('POSTMILL_SMTP_PORT', 'integer', 2525, '0 picks a free port; production uses 25', port),
    maxSize: leaf('POSTMILL_SMTP_MAX_SIZE', 'integer', 40 * 1024 * 1024, 'largest message accepted in bytes, announced in EHLO (SIZE); at least 1024', count(1024)),
    dataBudget: leaf(
      'POSTMILL_SMTP_DATA_BUDGET',
      'integer',
      256 * 1024 * 1024,
      'bytes of messages being received at once over every SMTP session, inbound and submission together (held from their arrival until the message is stored); past it a message is refused with 452 4.3.1 and its sender retries later; at least smtp.maxSize',
      count(1024),
    ),
    tlsKey: leaf(
      'POSTMILL_SMTP_TLS_KEY',
      ['string', 'null'],
      null,
      'PEM private key file for STARTTLS (inbound and submission); with tlsCert. Without both, a self-signed certificate is generated at first start and kept in the store',
    ),
    tlsCert: leaf('POSTMILL_SMTP_TLS_CERT', ['string', 'null'], null, 'PEM certificate (chain) file for STARTTLS'),
    maxClients: leaf('POSTMILL_SMTP_MAX_CLIENTS', 'integer', 200, 'simultaneous SMTP connections (each listener); at least 1', count(1)),
    maxPerClient: leaf('POSTMILL_SMTP_MAX_PER_CLIENT', 'integer', 20, 'simultaneous SMTP connections from one address; at least 1', count(1)),
  }),
  submission: group({
    host: leaf('POSTMILL_SUBMISSION_HOST', 'string', '127.0.0.1', 'SMTP submission listener address', { format: 'host' }),
    port: leaf(
      'POSTMILL_SUBMISSION_PORT',
      ['integer', 'null'],
      null,
      'SMTP submission (STARTTLS, then AUTH as user postmill with a project\'s secret key); null is off, 0 picks a free port; production uses 587',
      port,
    ),
    loginTimeout: leaf(
      'POSTMILL_SUBMISSION_LOGIN_TIMEOUT',
      'integer',
      30,
      'seconds a submission session has from connecting to a successful AUTH before it is closed with 421; at least 1',
      count(1),
    ),
  }),
  hostname: leaf(
    'POSTMILL_HOSTNAME',
    ['string', 'null'],
    null,
    "EHLO name and Message-ID domain, a DNS name whose address has a PTR record naming it back; null means the machine's host name",
    { format: 'hostname' },
  ),
  dns: group({
    servers: leaf(
      'POSTMILL_DNS_SERVERS',
      'array',
      [],
      'resolvers as "ip" or "ip:port" for every lookup (MX, A, AAAA, TXT, NS); empty means the system\'s resolvers',
      { items: { type: 'string', format: 'dns-server' } },
    ),
  }),
  delivery: group({
    mode: leaf('POSTMILL_DELIVERY_MODE', 'string', 'mx', '"mx" delivers straight to each recipient domain\'s MX hosts; "relay" sends everything through delivery.relay; "capture" sends nothing: each message is kept, signed, in the store\'s mailbox (the console\'s Outbox) and takes the path of a delivered one', {
      enum: ['mx', 'relay', 'capture'],
    }),
    relay: leaf('POSTMILL_DELIVERY_RELAY', ['string', 'null'], null, 'smtp://user:pass@host:port or smtps://... (required in relay mode)', { format: 'smtp-url' }),
    port: leaf('POSTMILL_DELIVERY_PORT', 'integer', 25, 'TCP port used to reach MX hosts', port),
    maxAge: leaf(
      'POSTMILL_DELIVERY_MAX_AGE',
      'integer',
      3 * 24 * 3600,
      'seconds a deferred email is retried (1, 5, 15, 30 min, 1, 2, 4, 8 h, then every 8 h) before it ends as a transient bounce',
      count(),
    ),
    concurrency: leaf(
      'POSTMILL_DELIVERY_CONCURRENCY',
      'integer',
      100,
      'deliveries in progress at once, over all destinations (signing included: messages are signed while earlier ones wait for their destination)',
      count(1),
    ),
    perDomainConcurrency: leaf(
      'POSTMILL_DELIVERY_PER_DOMAIN_CONCURRENCY',
      'integer',
      20,
      'the most deliveries in progress at once per recipient domain: each domain starts at 5 and gains places while its servers keep up (connections are pooled and reused per MX host)',
      count(1),
    ),
    throttlePerMinute: leaf(
      'POSTMILL_DELIVERY_THROTTLE_PER_MINUTE',
      'integer',
      0,
      'deliveries started per minute per project; the queue waits, the API does not; 0 is off',
      count(),
    ),
    bulkPerSecond: leaf(
      'POSTMILL_DELIVERY_BULK_PER_SECOND',
      'integer',
      0,
      'bulk (campaign) deliveries started per second per project; transactional mail goes ahead of bulk mail and is never held by this; 0 is no limit',
      count(),
    ),
    providers: leaf(
      'POSTMILL_DELIVERY_PROVIDERS',
      'object',
      {},
      'mailbox providers by MX host suffix, over the built-in ones (google, yahoo, microsoft, apple, gmx, mailru, yandex; docs/operations.md): {"name": {"suffixes": [...], "connections": n, "perConnection": n, "perMinute": n}}, each field optional for a built-in name; the domains a provider hosts share its connections and rate, and its throttling replies suspend its queue. JSON in the environment variable',
      {
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          properties: {
            suffixes: { type: 'array', minItems: 1, items: { type: 'string', format: 'hostname' } },
            connections: { type: 'integer', minimum: 1 },
            perConnection: { type: 'integer', minimum: 1 },
            perMinute: { type: 'integer', minimum: 0 },
          },
        },
      },
    ),
    warmup: group({
      enabled: leaf(
        'POSTMILL_DELIVERY_WARMUP_ENABLED',
        'boolean',
        false,
        "warm-up of new sender domains: from a domain's first send, its deliveries per UTC day follow delivery.warmup.schedule; bulk (campaign, workflow) mail over the day's budget waits for the next day, transactional mail is never held (it counts)",
      ),
      schedule: leaf(
        'POSTMILL_DELIVERY_WARMUP_SCHEDULE',
        'array',
        [50, 100, 200, 400, 800, 1500, 3000, 6000, 12000, 25000, 50000],
        "deliveries per day for a sender domain's first days (day 1, day 2...); after the last day, no limit",
        { minItems: 1, items: { type: 'integer', minimum: 1 } },
      ),
    }),
    tls: group({
      mtaSts: leaf(
        'POSTMILL_DELIVERY_TLS_MTA_STS',
        'boolean',
        true,
        "apply recipient domains' MTA-STS policies (RFC 8461): under enforce, mail goes only to the MX hosts the policy names, over TLS with a certificate valid for the host",
      ),
      dane: leaf(
        'POSTMILL_DELIVERY_TLS_DANE',
        'boolean',
        false,
        'enforce DANE TLSA records of MX hosts (RFC 7672); trusted only when every dns.servers entry is a loopback address (a local validating resolver whose AD bit is believed), else off with a warning',
      ),
      domains: leaf(
        'POSTMILL_DELIVERY_TLS_DOMAINS',
        'object',
        {},
        'per recipient domain TLS overrides, e.g. {"partner.example": "verify"}: "require" (STARTTLS or defer), "verify" (STARTTLS with a certificate valid for the MX host, or defer), "opportunistic" (ignore MTA-STS and DANE for it); JSON in the environment',
        { additionalProperties: { enum: ['require', 'verify', 'opportunistic'] }, propertyNames: { format: 'hostname' } },
      ),
      caFile: leaf(
        'POSTMILL_DELIVERY_TLS_CA_FILE',
        ['string', 'null'],
        null,
        'a PEM file of CA certificates trusted besides the system roots for MTA-STS policy fetches, TLS-RPT reports by HTTPS and verified MX certificates (a private PKI, tests)',
      ),
      reports: leaf(
        'POSTMILL_DELIVERY_TLS_REPORTS',
        'boolean',
        true,
        "send a daily TLS-RPT report (RFC 8460) of the TLS sessions to each policy domain that publishes a _smtp._tls record",
      ),
    }),
  }),
  dkim: group({
    rotationOverlapDays: leaf(
      'POSTMILL_DKIM_ROTATION_OVERLAP_DAYS',
      'integer',
      7,
      "days a domain's old DKIM key stays published after a rotation (mail signed with it may still be on its way or checked again); after them its record is reported safe to remove",
      count(),
    ),
    rotateEveryDays: leaf(
      'POSTMILL_DKIM_ROTATE_EVERY_DAYS',
      ['integer', 'null'],
      null,
      "rotate each verified domain's DKIM key when it has signed this many days (180 is about 6 months): a new key and selector wait for their record in DNS, as after POST /domains/{id}/rotate-key; null is off",
      count(1),
    ),
  }),
  threads: group({
    heavyHeapMb: leaf(
      'POSTMILL_THREADS_HEAVY_HEAP_MB',
      'integer',
      256,
      'heap (old generation, MB) of the thread that parses and composes requests over 1 MB; what the limits accept needs at most 160 (docs/performance.md); at least 16',
      count(16),
    ),
  }),
  doctor: group({
    probeDomain: leaf(
      'POSTMILL_DOCTOR_PROBE_DOMAIN',
      ['string', 'null'],
      'gmail.com',
      "a domain whose mail server the daemon tries on delivery.port at start and daily (the doctor's outbound-smtp check; in relay mode the relay is tried), for the console's alert that port 25 is blocked; null turns the check off",
      { format: 'hostname' },
    ),
  }),
  adminToken: leaf(
    'POSTMILL_ADMIN_TOKEN',
    ['string', 'null'],
    null,
    'bearer token for the /users/... routes on any project and GET /metrics; at least 24 printable characters without spaces (openssl rand -hex 24); null turns it off',
    { pattern: '^[\\x21-\\x7e]{24,}$', 'x-error': 'expected at least 24 printable characters without spaces (openssl rand -hex 24 makes one)' },
  ),
  scanners: group({
    spamd: leaf(
      'POSTMILL_SCANNERS_SPAMD',
      ['string', 'null'],
      null,
      'SpamAssassin spamd as host:port or a unix socket path; received mail then gets spamVerdict PASS or FAIL. null leaves it DISABLED',
      { format: 'service-address' },
    ),
    clamd: leaf(
      'POSTMILL_SCANNERS_CLAMD',
      ['string', 'null'],
      null,
      'ClamAV clamd as host:port or a unix socket path; received mail then gets virusVerdict PASS or FAIL. null leaves it DISABLED',
      { format: 'service-address' },
    ),
  }),
  webhooks: group({
    allowPrivate: leaf('POSTMILL_WEBHOOKS_ALLOW_PRIVATE', 'boolean', false, 'let WEBHOOK steps reach loopback and private addresses'),
  }),
  rateLimit: group({
    perMinute: leaf('POSTMILL_RATE_LIMIT_PER_MINUTE', 'integer', 1000, 'API requests per rolling minute per project; 0 turns the limit off', count()),
  }),
  console: group({
    sessionIdleMinutes: leaf('POSTMILL_CONSOLE_SESSION_IDLE_MINUTES', 'integer', 720, 'a console session ends after this many minutes without a request', count(1)),
    sessionMaxDays: leaf('POSTMILL_CONSOLE_SESSION_MAX_DAYS', 'integer', 14, 'a console session ends this many days after sign-in, whatever happens', count(1)),
  }),
  reads: group({
    threads: leaf(
      'POSTMILL_READS_THREADS',
      'integer',
      2,
      "threads for reads whose cost grows with a project's data (segment pages and counts, campaign audiences, compute); one read of a project at a time, waiting projects take turns; at least 1",
      count(1),
    ),
    requestBudgetMs: leaf(
      'POSTMILL_READS_REQUEST_BUDGET_MS',
      'integer',
      5000,
      'the longest such a read may run for an API request; past it the request ends with 422 QUERY_TIMEOUT; at least 10',
      count(10),
    ),
    jobBudgetMs: leaf(
      'POSTMILL_READS_JOB_BUDGET_MS',
      'integer',
      60_000,
      'the same for background jobs (segment counts, campaign fan-out); the job fails with that reason and is retried; at least 10',
      count(10),
    ),
  }),
  log: group({
    level: leaf('POSTMILL_LOG_LEVEL', 'string', 'info', 'debug, info, warn or error (JSON lines on stderr)', { enum: ['debug', 'info', 'warn', 'error'] }),
  }),
  testHooks: leaf(
    'POSTMILL_TEST_HOOKS',
    'boolean',
    false,
    "tests only; enables POST /_test/clock {advanceMs} (admin token) to move the daemon's clock forward. Needs adminToken.",
  ),
});
