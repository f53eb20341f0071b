import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientKey } from '../src/net/client-key.js';

test('IPv4 addresses are their own key; IPv4-mapped IPv6 is the IPv4 address', () => {
  assert.is(clientKey('127.0.0.2'), '127.0.0.2');
  assert.is(clientKey('::ffff:127.0.0.2'), '127.0.0.2');
  assert.is(clientKey('::FFFF:10.1.2.3'), '10.1.2.3');
});

test('an IPv6 address counts as its /64, however it is written', () => {
  const key = '2001:db8:0:1::/64';
  for (const ip of ['2001:db8:0:1::1', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8:0:1:a::', '2001:db8:0:1::1%eth0', '2001:db8:0:1:0:0:1.2.3.4']) {
    assert.is(clientKey(ip), key, ip);
  }
  assert.is(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.is(clientKey('::1'), '0:0:0:0::/64');
  assert.is(clientKey('fe80::1'), 'fe80:0:0:0::/64');
  assert.is.not(clientKey('2001:db8:0:2::1'), key);
});

test.run();
