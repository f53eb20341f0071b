import { createSocket } from 'node:dgram';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { cachingDns } from '../src/dns/cache.js';
import { createDns, type Dns } from '../src/dns/resolver.js';
import { startDnsServer } from './helpers/dns-server.js';

/** The real resolver, counting the lookups that reach the (loopback) DNS server. */
function counted(dns: Dns): { dns: Dns; lookups: () => number } {
  let lookups = 0;
  const count =
    <T>(lookup: (name: string) => Promise<T>) =>
    (name: string) => {
      lookups++;
      return lookup(name);
    };
  return { dns: { ...dns, mx: count(dns.mx), a: count(dns.a), aaaa: count(dns.aaaa) }, lookups: () => lookups };
}

test('answers are kept for a minute and lookups in flight are shared; an empty answer is kept too', async () => {
  const server = await startDnsServer();
  try {
    server.set('shop.test', 'MX', [{ exchange: 'mx.shop.test', priority: 10 }]);
    const clock = new ShiftableClock();
    const real = counted(createDns([server.address]));
    const dns = cachingDns(real.dns, clock);
    const answers = await Promise.all(Array.from({ length: 20 }, () => dns.mx('shop.test')));
    assert.equal(answers[19], [{ exchange: 'mx.shop.test', priority: 10 }]);
    assert.is(real.lookups(), 1, 'twenty deliveries at once ask once');
    assert.equal(await dns.mx('SHOP.test'), answers[0], 'names are case-insensitive');
    assert.equal(await dns.a('nothing.test'), []);
    assert.equal(await dns.a('nothing.test'), []);
    assert.is(real.lookups(), 2);
    server.set('shop.test', 'MX', [{ exchange: 'mx2.shop.test', priority: 5 }]);
    clock.advance(61_000);
    assert.equal(await dns.mx('shop.test'), [{ exchange: 'mx2.shop.test', priority: 5 }], 'asked again after a minute');
    assert.is(real.lookups(), 3);
  } finally {
    await server.close();
  }
});

test('a failed lookup is not kept: the next delivery attempt asks again', async () => {
  const silent = createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  try {
    const real = counted(createDns([`127.0.0.1:${silent.address().port}`], 100));
    const dns = cachingDns(real.dns, new ShiftableClock());
    for (let attempt = 0; attempt < 2; attempt++) {
      const failure = await dns.mx('slow.test').catch((err: unknown) => err);
      assert.instance(failure, Error, 'the timeout reaches the caller');
    }
    assert.is(real.lookups(), 2);
  } finally {
    silent.close();
  }
});

test.run();
