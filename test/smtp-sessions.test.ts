import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDns } from '../src/dns/resolver.js';
import { createDelivery, type Delivery } from '../src/outbound/engine/deliver.js';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server.js';
import { eventually } from './helpers/eventually.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';

let dnsServer: TestDnsServer;
let sink: SmtpSink;
let delivery: Delivery;

const message = (to: string) => ({
  emailId: randomUUID(),
  from: 'b-1@bounces.sender.test',
  to,
  raw: Buffer.from(`From: news@sender.test\r\nTo: ${to}\r\nSubject: t\r\nMessage-ID: <${randomUUID()}@postmill.test>\r\n\r\nhello\r\n`),
});

const deliveryTo = (port: number) => createDelivery({ dns: createDns([dnsServer.address], 1000), hostname: 'postmill.test', port, mode: 'mx' });

test.before(async () => {
  dnsServer = await startDnsServer();
  sink = await startSmtpSink();
  dnsServer.set('example.test', 'MX', [{ exchange: 'mx.example.test', priority: 10 }]);
  dnsServer.set('mx.example.test', 'A', ['127.0.0.1']);
  delivery = deliveryTo(sink.port);
});

test.after(async () => {
  await delivery.close();
  await sink.close();
  await dnsServer.close();
});

test('a session the server ended while idle is replaced, the message is not deferred', async () => {
  // this MX ends sessions left idle for 200 ms, as busy servers do
  const strict = await startSmtpSink({ idleTimeoutMs: 200 });
  const toStrict = deliveryTo(strict.port);
  try {
    assert.is((await toStrict.deliver(message('one@example.test'))).status, 'delivered');
    await eventually(() => strict.closed >= 1, 10_000, 'the MX to end the idle session');
    assert.is((await toStrict.deliver(message('two@example.test'))).status, 'delivered');
    assert.is(strict.connections, 2, 'a new session for the second message');
  } finally {
    await toStrict.close();
    await strict.close();
  }
});

test('a refused recipient leaves the session usable: the next message goes over it', async () => {
  sink.onRecipient((rcpt) => (rcpt.startsWith('gone@') ? { code: 550, message: '5.1.1 No such user' } : null));
  assert.is((await delivery.deliver(message('first@example.test'))).status, 'delivered');
  const opened = sink.connections;
  const refused = await delivery.deliver(message('gone@example.test'));
  assert.is(refused.status, 'bounced');
  assert.is((await delivery.deliver(message('after@example.test'))).status, 'delivered');
  assert.is(sink.connections, opened, 'the same session, reset after the refusal');
  sink.onRecipient(() => null);
});

test('messages queued beyond the sessions of a host wait for one, and all arrive', async () => {
  const before = sink.messages.length;
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => delivery.deliver(message(`many${i}@example.test`))));
  assert.ok(results.every((r) => r.status === 'delivered'));
  assert.is(sink.messages.length, before + 12);
});

test.run();
