import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import nodemailer from 'nodemailer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDns, type Dns } from '../src/dns/resolver.js';
import { createDelivery, type Delivery, type DeliveryOptions, type OutboundMessage } from '../src/outbound/engine/deliver.js';
import { createKeyedLimiter, type Feedback, type KeyedLimiter } from '../src/outbound/engine/keyed-limiter.js';
import { resolveRoute } from '../src/outbound/engine/route.js';
import { verifyDkim } from './helpers/dkim-verify.js';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';

const EHLO = 'postmill.test';
const RETURN_PATH = 'b-0001@bounces.sender.test';
const TIMEOUTS = { connectMs: 1000, greetingMs: 1000, socketMs: 2000 };

let dnsServer: TestDnsServer;
let dns: Dns;
let sink: SmtpSink;

function message(to: string, body = 'hello'): OutboundMessage {
  const raw = Buffer.from(
    `From: news@sender.test\r\nTo: ${to}\r\nSubject: test\r\nMessage-ID: <${randomUUID()}@postmill.test>\r\n\r\n${body}\r\n`,
  );
  return { emailId: randomUUID(), from: RETURN_PATH, to, raw };
}

/** Runs `fn` with a delivery to the sink's port, closing it afterwards. */
async function withDelivery<T>(fn: (delivery: Delivery) => Promise<T>, options: Partial<DeliveryOptions> = {}): Promise<T> {
  const delivery = createDelivery({ dns, hostname: EHLO, port: sink.port, mode: 'mx', timeouts: TIMEOUTS, ...options });
  try {
    return await fn(delivery);
  } finally {
    await delivery.close();
  }
}

test.before(async () => {
  dnsServer = await startDnsServer();
  dns = createDns([dnsServer.address], 1000);
  sink = await startSmtpSink();
  dnsServer.set('example.test', 'MX', [{ exchange: 'mx.example.test', priority: 10 }]);
  dnsServer.set('mx.example.test', 'A', ['127.0.0.1']);
});

test.before.each(() => {
  sink.messages.length = 0;
  sink.onRecipient(() => null);
});

test.after(async () => {
  await sink.close();
  await dnsServer.close();
});

test('delivers to the MX host, as is, with our EHLO name and the VERP return path', async () => {
  const sent = message('ann@example.test');
  const result = await withDelivery((delivery) => delivery.deliver(sent));
  assert.is(result.status, 'delivered');
  assert.equal(result.status === 'delivered' && result.host, 'mx.example.test[127.0.0.1]');
  assert.match(result.status === 'delivered' ? result.response : '', /^250/);
  const [received] = await sink.waitFor(1, 1000);
  assert.is(received.mailFrom, RETURN_PATH);
  assert.equal(received.rcptTo, ['ann@example.test']);
  assert.is(received.helo, EHLO);
  assert.is(received.raw.toString(), sent.raw.toString());
});

test('MX hosts are tried by preference: a refused connection moves on to the next host', async () => {
  dnsServer.set('pref.test', 'MX', [
    { exchange: 'backup.pref.test', priority: 20 },
    { exchange: 'down.pref.test', priority: 5 },
  ]);
  dnsServer.set('down.pref.test', 'A', ['127.0.0.2']); // nothing listens there
  dnsServer.set('backup.pref.test', 'A', ['127.0.0.1']);
  const result = await withDelivery((delivery) => delivery.deliver(message('bob@pref.test')));
  assert.is(result.status, 'delivered');
  assert.is(result.host, 'backup.pref.test[127.0.0.1]');
  assert.is(sink.messages.length, 1);
});

test('every host refusing defers, naming the last host tried', async () => {
  dnsServer.set('down.test', 'MX', [{ exchange: 'down.pref.test', priority: 10 }]);
  const result = await withDelivery((delivery) => delivery.deliver(message('x@down.test')));
  assert.is(result.status, 'deferred');
  assert.is(result.status === 'deferred' && result.code, null);
  assert.is(result.host, 'down.pref.test[127.0.0.2]');
  assert.match(result.status === 'deferred' ? result.response : '', /ECONNREFUSED/);
});

test('route: preference order, equal preferences shuffled, addresses IPv4 first and listed once', async () => {
  dnsServer.set('order.test', 'MX', [
    { exchange: 'c.order.test', priority: 30 },
    { exchange: 'a.order.test', priority: 10 },
    { exchange: 'b.order.test', priority: 10 },
  ]);
  dnsServer.set('a.order.test', 'A', ['127.0.0.11']);
  dnsServer.set('b.order.test', 'A', ['127.0.0.12']);
  dnsServer.set('c.order.test', 'A', ['127.0.0.11', '127.0.0.13']);
  dnsServer.set('c.order.test', 'AAAA', ['::1']);
  const firsts = new Set<string>();
  for (let i = 0; i < 30; i++) {
    const route = await resolveRoute(dns, 'order.test');
    assert.ok(route.ok);
    if (!route.ok) return;
    const names = route.hosts.map((host) => host.name);
    assert.equal([...names].slice(0, 2).sort(), ['a.order.test', 'b.order.test']);
    assert.equal(route.hosts[2], { name: 'c.order.test', addresses: ['127.0.0.13', '::1'] });
    firsts.add(names[0]);
  }
  assert.is(firsts.size, 2, 'both hosts of preference 10 came first at least once in 30 lookups');
});

test('a domain without MX is reached through its own A record (implicit MX)', async () => {
  dnsServer.set('implicit.test', 'A', ['127.0.0.1']);
  const result = await withDelivery((delivery) => delivery.deliver(message('carl@implicit.test')));
  assert.is(result.status, 'delivered');
  assert.is(result.host, 'implicit.test[127.0.0.1]');
});

test('null MX is a permanent failure without any connection', async () => {
  dnsServer.set('nullmx.test', 'MX', [{ exchange: '.', priority: 0 }]);
  const before = sink.connections;
  const result = await withDelivery((delivery) => delivery.deliver(message('dan@nullmx.test')));
  assert.equal(result, {
    status: 'bounced',
    code: null,
    enhancedCode: '5.1.10',
    response: 'nullmx.test accepts no mail (null MX)',
    host: null,
    tls: null,
  });
  assert.is(sink.connections, before);
});

test('a domain that does not exist is a permanent failure', async () => {
  const result = await withDelivery((delivery) => delivery.deliver(message('eve@nowhere.test')));
  assert.equal(result, {
    status: 'bounced',
    code: null,
    enhancedCode: '5.1.2',
    response: 'nowhere.test has no MX or A records',
    host: null,
    tls: null,
  });
});

test('an MX whose hosts have no address is a permanent failure', async () => {
  dnsServer.set('dangling.test', 'MX', [{ exchange: 'missing.dangling.test', priority: 10 }]);
  const result = await withDelivery((delivery) => delivery.deliver(message('f@dangling.test')));
  assert.is(result.status, 'bounced');
  assert.is(result.status === 'bounced' && result.enhancedCode, '5.4.4');
});

test('an invalid recipient address bounces', async () => {
  const result = await withDelivery((delivery) => delivery.deliver(message('no-at-sign')));
  assert.is(result.status, 'bounced');
  assert.is(result.status === 'bounced' && result.enhancedCode, '5.1.3');
});

test('DNS failures defer', async () => {
  const failing: Dns = {
    ...dns,
    mx: () => Promise.reject(Object.assign(new Error('queryMx ESERVFAIL example.test'), { code: 'ESERVFAIL' })),
  };
  const route = await resolveRoute(failing, 'example.test');
  assert.equal(route, {
    ok: false,
    permanent: false,
    reason: 'MX lookup for example.test failed: queryMx ESERVFAIL example.test',
    enhancedCode: '4.4.3',
  });
  const result = await withDelivery((delivery) => delivery.deliver(message('g@example.test')), { dns: failing });
  assert.is(result.status, 'deferred');
  assert.is(result.host, null);

  const failingHosts: Dns = { ...dns, a: () => Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })) };
  const hostRoute = await resolveRoute(failingHosts, 'example.test');
  assert.is(!hostRoute.ok && hostRoute.permanent, false, 'an unresolvable MX host after a DNS failure is temporary');
});

test('a 5xx answer bounces with its codes', async () => {
  sink.onRecipient((rcpt) => (rcpt === 'gone@example.test' ? { code: 550, message: '5.1.1 No such user' } : null));
  const result = await withDelivery((delivery) => delivery.deliver(message('gone@example.test')));
  assert.equal(result, {
    status: 'bounced',
    code: 550,
    enhancedCode: '5.1.1',
    response: '550 5.1.1 No such user',
    host: 'mx.example.test[127.0.0.1]',
    tls: null,
  });
  assert.is(sink.messages.length, 0);
});

test('a 4xx answer defers', async () => {
  sink.onRecipient(() => ({ code: 451, message: '4.7.1 Try again later' }));
  const result = await withDelivery((delivery) => delivery.deliver(message('busy@example.test')));
  assert.equal(result, {
    status: 'deferred',
    code: 451,
    response: '451 4.7.1 Try again later',
    host: 'mx.example.test[127.0.0.1]',
    tls: null,
  });
});

test('STARTTLS is used when the MX host offers it', async () => {
  const tlsSink = await startSmtpSink({ tls: true });
  try {
    const result = await withDelivery((delivery) => delivery.deliver(message('tls@example.test')), { port: tlsSink.port });
    assert.is(result.status, 'delivered');
    assert.match(result.status === 'delivered' ? String(result.tls) : '', /^TLSv1\.[23]$/, 'the result names the session\'s TLS protocol');
    const [received] = await tlsSink.waitFor(1, 1000);
    assert.is(received.secure, true);
  } finally {
    await tlsSink.close();
  }
});

test('relay mode sends everything through the relay with its credentials', async () => {
  const relay = await startSmtpSink({ auth: { user: 'relayuser', pass: 's3cret' } });
  try {
    const url = `smtp://relayuser:s3cret@127.0.0.1:${relay.port}`;
    const result = await withDelivery((delivery) => delivery.deliver(message('far@unresolvable.test')), { mode: 'relay', relay: url });
    assert.is(result.status, 'delivered');
    assert.is(result.host, `127.0.0.1:${relay.port}`);
    const [received] = await relay.waitFor(1, 1000);
    assert.equal(received.rcptTo, ['far@unresolvable.test']);
    assert.is(received.mailFrom, RETURN_PATH);

    relay.onRecipient(() => ({ code: 554, message: '5.7.1 Rejected by policy' }));
    const rejected = await withDelivery((delivery) => delivery.deliver(message('far@unresolvable.test')), { mode: 'relay', relay: url });
    assert.is(rejected.status, 'bounced');
    assert.is(rejected.status === 'bounced' && rejected.code, 554);

    const badLogin = `smtp://relayuser:wrong@127.0.0.1:${relay.port}`;
    const refused = await withDelivery((delivery) => delivery.deliver(message('far@unresolvable.test')), { mode: 'relay', relay: badLogin });
    assert.is(refused.status, 'deferred', 'a failed login is our configuration, retried rather than bounced');
    assert.is(refused.status === 'deferred' && refused.code, 535);
  } finally {
    await relay.close();
  }
});

test('relay mode without a relay URL is refused', () => {
  assert.throws(() => createDelivery({ dns, hostname: EHLO, port: 25, mode: 'relay' }), /delivery.relay is required/);
});

test('connections are reused: 20 messages to one host open only a few', async () => {
  const before = sink.connections;
  const started = performance.now();
  const results = await withDelivery((delivery) =>
    Promise.all(Array.from({ length: 20 }, (_, i) => delivery.deliver(message(`user${i}@example.test`)))),
  );
  const elapsed = performance.now() - started;
  assert.ok(results.every((result) => result.status === 'delivered'));
  assert.is(sink.messages.length, 20);
  const opened = sink.connections - before;
  assert.ok(opened >= 1 && opened <= 3, `opened ${opened} connections`);
  console.log(`  20 deliveries over ${opened} connection(s) in ${elapsed.toFixed(0)} ms`);
});

/** Runs `count` tasks of one key and answers the most that ran at once, before and after `switchAt`. */
async function peaks(limiter: KeyedLimiter, count: number, feedback: (i: number) => Feedback, switchAt = count): Promise<[number, number]> {
  let running = 0;
  const peak = [0, 0];
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      limiter.run(
        'a.test',
        async () => {
          running++;
          peak[i < switchAt ? 0 : 1] = Math.max(peak[i < switchAt ? 0 : 1]!, running);
          // holds its place for a turn of the event loop: the tasks started meanwhile run beside it
          await new Promise((resolve) => setImmediate(resolve));
          running--;
          return i;
        },
        0,
        feedback,
      ),
    ),
  );
  return [peak[0]!, peak[1]!];
}

test('per-domain concurrency is bounded, other domains are not held up', async () => {
  const limiter = createKeyedLimiter({ initial: 2, limit: 2 });
  let running = 0;
  let peak = 0;
  let release!: () => void;
  const busy = new Promise<void>((resolve) => (release = resolve));
  const task = async () => {
    running++;
    peak = Math.max(peak, running);
    await busy;
    running--;
  };
  const slow = Array.from({ length: 8 }, () => limiter.run('a.test', task, 0, () => 'served' as const));
  let otherDone = false;
  await limiter.run('b.test', async () => {
    otherDone = true;
  });
  assert.ok(otherDone);
  assert.is(running, 2, 'b.test ran while a.test held both its places');
  release();
  await Promise.all(slow);
  assert.is(peak, 2);
});

test('a destination that answers gets more at once, up to the limit; one that refuses gets fewer', async () => {
  // 5 to start; one step up per window's worth of answers while tasks wait: 5+6+...+9 = 35 answers reach 10
  const [grown] = await peaks(createKeyedLimiter({ initial: 5, limit: 10 }), 300, () => 'served');
  assert.is(grown, 10);
  // served at first, then every task refused: the window falls back to 1
  const [served, refused] = await peaks(createKeyedLimiter({ initial: 5, limit: 10 }), 300, (i) => (i < 100 ? 'served' : 'refused'), 200);
  assert.is(served, 10);
  assert.is(refused, 1);
  // no feedback: the initial window holds
  assert.equal(await peaks(createKeyedLimiter({ initial: 5, limit: 20 }), 100, () => 'none'), [5, 0]);
});

test('TXT values over 255 bytes are answered as several strings and joined by createDns', async () => {
  const value = `v=spf1 ${'include:_spf.example.test '.repeat(24)}-all`;
  dnsServer.set('long.test', 'TXT', [value]);
  assert.equal(await dns.txt('long.test'), [value]);
  const resolver = new Resolver();
  resolver.setServers([dnsServer.address]);
  const [parts] = await resolver.resolveTxt('LONG.test.');
  assert.equal(
    parts.map((part) => part.length),
    [255, 255, value.length - 510],
  );
});

test('unknown names are NXDOMAIN, known names without the type are empty', async () => {
  const resolver = new Resolver();
  resolver.setServers([dnsServer.address]);
  const codeOf = (lookup: Promise<unknown>) => lookup.then(() => 'answered', (err: { code?: string }) => err.code);
  assert.is(await codeOf(resolver.resolveMx('unknown.test')), 'ENOTFOUND');
  assert.is(await codeOf(resolver.resolveMx('mx.example.test')), 'ENODATA');
  dnsServer.set('alias.test', 'CNAME', ['mx.example.test']);
  assert.equal(await dns.a('alias.test'), ['127.0.0.1']);
  dnsServer.clear('alias.test');
  assert.equal(await dns.a('alias.test'), []);
});

test('a message DKIM-signed by nodemailer verifies after delivery; a changed one does not', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  dnsServer.set('sel._domainkey.example.test', 'TXT', [`v=DKIM1; k=rsa; p=${p}`]);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const signed = await composer.sendMail({
    from: 'news@example.test',
    to: 'dkim@example.test',
    subject: 'Signed',
    text: 'A signed message.',
    dkim: { domainName: 'example.test', keySelector: 'sel', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
  });
  const raw = signed.message as Buffer;
  const result = await withDelivery((delivery) => delivery.deliver({ emailId: randomUUID(), from: RETURN_PATH, to: 'dkim@example.test', raw }));
  assert.is(result.status, 'delivered');
  const [received] = await sink.waitFor(1, 1000);

  const verdict = await verifyDkim(received.raw, dnsServer.address);
  assert.ok(verdict.pass, JSON.stringify(verdict.results));
  const tampered = Buffer.from(received.raw.toString().replace('A signed message.', 'A changed message.'));
  assert.is((await verifyDkim(tampered, dnsServer.address)).pass, false);
});

test.run();
