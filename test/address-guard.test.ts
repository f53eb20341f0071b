// The webhook address guard against a table: the IANA special-purpose ranges (their edges too), the
// forms that carry an IPv4 address, and the machine's own addresses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostAddresses, refusedAddress } from '../src/webhooks/address-guard.js';

const REFUSED: [string, string][] = [
  // IPv4 special-purpose registry, not globally reachable
  ['0.0.0.0', 'this network'],
  ['0.255.255.255', 'this network'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'shared address space'],
  ['100.127.255.254', 'shared address space'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.1', 'IETF protocol assignments'],
  ['192.0.0.170', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4 relay'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  // IPv6 special-purpose registry
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::7f00:1', 'IPv4-compatible'],
  ['::127.0.0.1', 'IPv4-compatible'],
  ['::8.8.8.8', 'IPv4-compatible'],
  ['64:ff9b:1::1', 'local-use IPv4/IPv6 translation'],
  ['64:ff9b:1::8.8.8.8', 'local-use IPv4/IPv6 translation'],
  ['100::1', 'discard-only'],
  ['2001::1', 'IETF protocol assignments'],
  ['2001:2::1', 'IETF protocol assignments'],
  ['2001:1ff:ffff::1', 'IETF protocol assignments'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['2002:7f00:1::1', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'segment routing'],
  ['fc00::1', 'unique local'],
  ['fd00:ec2::254', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['1::1', 'outside 2000::/3'],
  ['4000::1', 'outside 2000::/3'],
  // forms that carry an IPv4 address are judged by it
  ['::ffff:127.0.0.1', 'IPv4-mapped 127.0.0.1'],
  ['::ffff:7f00:1', 'IPv4-mapped 127.0.0.1'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:192.0.2.1', 'documentation'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['64:ff9b::7f00:1', 'NAT64 127.0.0.1'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::c000:201', 'documentation'],
  // not addresses at all
  ['localhost', 'not an IP address'],
  ['', 'not an IP address'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.1',
  '192.0.1.255',
  '192.0.3.0',
  '192.31.196.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.255',
  '2606:2800:220:1:248:1893:25c8:1946',
  '2001:4860:4860::8888',
  '2001:200::1',
  '2620:4f:8000::1',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
];

test('every special-purpose range is refused, with the range named; edges just outside are allowed', () => {
  for (const [address, why] of REFUSED) {
    const refused = refusedAddress(address, false, []);
    assert.type(refused, 'string', address);
    assert.match(refused!, why, address);
  }
  for (const address of ALLOWED) assert.is(refusedAddress(address, false, []), null, address);
});

test("the machine's own addresses are refused, in every spelling; the interfaces are read at each check", () => {
  const own = ['93.184.216.34', '2606:2800:220:1::7'];
  for (const address of ['93.184.216.34', '::ffff:93.184.216.34', '::ffff:5db8:d822', '64:ff9b::93.184.216.34', '2606:2800:220:1::7', '2606:2800:220:1:0:0:0:7']) {
    assert.match(refusedAddress(address, false, own) ?? 'allowed', 'address of this machine', address);
  }
  assert.is(refusedAddress('93.184.216.35', false, own), null);
  // by default the interfaces of this machine, whatever they hold
  const mine = hostAddresses();
  assert.ok(mine.length > 0);
  for (const address of mine) assert.type(refusedAddress(address, false), 'string', address);
});

test('webhooks.allowPrivate lets every address through', () => {
  for (const [address] of REFUSED.filter(([, why]) => why !== 'not an IP address')) assert.is(refusedAddress(address, true), null, address);
});

test.run();
