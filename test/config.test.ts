import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configLeaves, loadConfig } from '../src/config.js';
import { exampleConfig } from '../src/config-example.js';

const dir = mkdtempSync(join(tmpdir(), 'postmill-config-'));
const file = (content: unknown) => {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

test('config/postmill.example.json is what the schema writes (npm run config-example), and it loads as the defaults', () => {
  const committed = readFileSync(new URL('../../config/postmill.example.json', import.meta.url), 'utf8');
  assert.fixture(committed, exampleConfig(), 'regenerate with npm run config-example');
  const fromExample = loadConfig(new URL('../../config/postmill.example.json', import.meta.url).pathname, {});
  assert.equal(fromExample, loadConfig(null, {}));
});

test('defaults of every key, and the environment read by type', () => {
  const config = loadConfig(null, {});
  assert.is(config.http.port, 3000);
  assert.is(config.delivery.perDomainConcurrency, 20);
  assert.equal(config.dns.servers, []);
  assert.equal(config.delivery.providers, {});
  assert.equal(config.delivery.warmup, { enabled: false, schedule: [50, 100, 200, 400, 800, 1500, 3000, 6000, 12000, 25000, 50000] });
  assert.equal(loadConfig(null, { POSTMILL_DELIVERY_WARMUP_SCHEDULE: '10, 20', POSTMILL_DELIVERY_PROVIDERS: '{"google":{"perMinute":60}}' }).delivery, {
    ...config.delivery,
    providers: { google: { perMinute: 60 } },
    warmup: { enabled: false, schedule: [10, 20] },
  });
  const env = loadConfig(null, {
    POSTMILL_HTTP_PORT: '0',
    POSTMILL_DNS_SERVERS: '127.0.0.1:5353, ::1',
    POSTMILL_WEBHOOKS_ALLOW_PRIVATE: '1',
    POSTMILL_SUBMISSION_PORT: '',
    POSTMILL_PUBLIC_URL: 'https://mail.example.com',
    POSTMILL_DELIVERY_TLS_DOMAINS: '{"partner.example": "verify", "legacy.example": "opportunistic"}',
  });
  assert.equal(env.delivery.tls.domains, { 'partner.example': 'verify', 'legacy.example': 'opportunistic' });
  assert.equal(config.delivery.tls, { mtaSts: true, dane: false, domains: {}, caFile: null, reports: true });
  assert.is(env.http.port, 0);
  assert.equal(env.dns.servers, ['127.0.0.1:5353', '::1']);
  assert.is(env.webhooks.allowPrivate, true);
  assert.is(env.submission.port, null);
  assert.is(env.publicUrl, 'https://mail.example.com');
  for (const [path, leaf] of configLeaves()) assert.match(leaf['x-env'], /^POSTMILL_[A-Z_]+$/, path);
});

test('the environment wins over the file; the file keeps what the environment does not name', () => {
  const path = file({ http: { port: 4000, host: '127.0.0.2' }, _comment: 'ignored', delivery: { _why: 'also ignored' } });
  const config = loadConfig(path, { POSTMILL_HTTP_PORT: '5000' });
  assert.is(config.http.port, 5000);
  assert.is(config.http.host, '127.0.0.2');
});

test('invalid values and unknown keys stop the start with one line naming the key', () => {
  const refusals: [Record<string, string>, unknown, RegExp][] = [
    [{ POSTMILL_HTTP_PORT: '99999' }, null, /"http\.port": expected an integer from 0 to 65535 \(got 99999\)/],
    [{ POSTMILL_HTTP_PORT: 'abc' }, null, /"http\.port": expected an integer \(got "abc"\)/],
    [{ POSTMILL_DELIVERY_MODE: 'smarthost' }, null, /"delivery\.mode": expected one of mx, relay/],
    [{ POSTMILL_ADMIN_TOKEN: 'short' }, null, /"adminToken": expected at least 24 printable/],
    [{ POSTMILL_DNS_SERVERS: '1.2.3.4,dns.example' }, null, /"dns\.servers"/],
    [{ POSTMILL_TEST_HOOKS: 'yes' }, null, /"testHooks": expected true or false/],
    [{ POSTMILL_HOSTNAME: 'two words' }, null, /"hostname": expected a DNS host name/],
    [{ POSTMILL_PUBLIC_URL: 'ftp://x.example' }, null, /"publicUrl": expected an http:\/\/ or https:\/\/ URL/],
    [{ POSTMILL_SCANNERS_SPAMD: 'nowhere' }, null, /"scanners\.spamd": expected host:port or a unix socket path/],
    [{ POSTMILL_DELIVERY_MODE: 'relay' }, null, /"delivery\.relay": required when delivery\.mode is "relay"/],
    [{ POSTMILL_DELIVERY_RELAY: 'http://relay.example' }, null, /"delivery\.relay": expected smtp:\/\//],
    [{ POSTMILL_SMTP_TLS_KEY: '/k.pem' }, null, /smtp\.tlsKey and smtp\.tlsCert go together/],
    [{ POSTMILL_TEST_HOOKS: 'true' }, null, /"testHooks": needs adminToken/],
    [{}, { http: { port: 1, prot: 2 } }, /unknown configuration key "http\.prot" in /],
    [{}, { smtp: { maxSize: 10 } }, /"smtp\.maxSize": expected an integer from 1024/],
    [{}, { http: 'x' }, /"http"/],
    [{}, { delivery: { providers: { google: { connections: 0 } } } }, /"delivery\.providers\.google\.connections": must be >= 1 \(got 0\)/],
    [{}, { delivery: { providers: { acme: { suffixes: ['not a host'] } } } }, /"delivery\.providers\.acme\.suffixes": expected a DNS host name/],
    [{}, { delivery: { providers: { google: { burst: 2 } } } }, /unknown configuration key "delivery\.providers\.google\.burst"/],
    [{ POSTMILL_DELIVERY_PROVIDERS: '{google' }, null, /"delivery\.providers": expected a JSON object/],
    [{ POSTMILL_DELIVERY_WARMUP_SCHEDULE: '50,x' }, null, /"delivery\.warmup\.schedule": expected a list/],
    [{}, '[1]', /must hold a JSON object/],
    [{}, '{', /cannot read configuration file/],
    [{ POSTMILL_DELIVERY_TLS_DOMAINS: '{"partner.example": "always"}' }, null, /"delivery\.tls\.domains\.partner\.example": expected one of require, verify, opportunistic/],
    [{ POSTMILL_DELIVERY_TLS_DOMAINS: 'partner.example=require' }, null, /"delivery\.tls\.domains": expected a JSON object/],
    [{}, { delivery: { tls: { domains: { 'not a domain': 'require' } } } }, /"delivery\.tls\.domains": expected a DNS host name/],
  ];
  for (const [env, content, message] of refusals) {
    assert.throws(() => loadConfig(content === null ? null : file(content), env), message, JSON.stringify([env, content]));
  }
});

test.run();
