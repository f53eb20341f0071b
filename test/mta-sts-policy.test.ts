// The MTA-STS record and policy parsers and MX pattern matching (RFC 8461 3.1, 3.2, 4.1).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mxMatches, parseStsPolicy, stsRecordId } from '../src/outbound/tls-policy/mta-sts-policy.js';

test('the TXT record: exactly one v=STSv1 record with a valid id', () => {
  assert.is(stsRecordId(['v=STSv1; id=20160831085700Z;']), '20160831085700Z');
  assert.is(stsRecordId(['v=STSv1;id=abc', 'v=spf1 -all']), 'abc');
  assert.is(stsRecordId(['v=STSv1; id=abc', 'v=STSv1; id=def']), null, 'two records are none');
  assert.is(stsRecordId(['v=STSv1; id=']), null);
  assert.is(stsRecordId(['v=STSv1; id=with-dash']), null);
  assert.is(stsRecordId([`v=STSv1; id=${'a'.repeat(33)}`]), null);
  assert.is(stsRecordId(['v=STSv2; id=abc']), null);
  assert.is(stsRecordId(['v=STSv10; id=abc']), null);
  assert.is(stsRecordId([]), null);
});

test('a policy: version, mode, mx patterns (lower case, repeated), max_age; CRLF or LF', () => {
  assert.equal(parseStsPolicy('version: STSv1\r\nmode: enforce\r\nmx: MX1.Example.com\r\nmx: *.example.net\r\nmax_age: 86400\r\n'), {
    mode: 'enforce',
    mx: ['mx1.example.com', '*.example.net'],
    maxAge: 86400,
  });
  assert.equal(parseStsPolicy('version: STSv1\nmode: testing\nmx: mx.example.com\nmax_age: 999999999\nextension: ignored\n'), {
    mode: 'testing',
    mx: ['mx.example.com'],
    maxAge: 31557600,
  });
  assert.equal(parseStsPolicy('version: STSv1\nmode: none\nmax_age: 0\n'), { mode: 'none', mx: [], maxAge: 0 });
});

test('invalid policies are refused with the reason', () => {
  const cases: [string, RegExp][] = [
    ['mode: enforce\nmx: a.example\nmax_age: 1', /no version/],
    ['version: STSv2\nmode: enforce\nmx: a.example\nmax_age: 1', /not STSv1/],
    ['version: STSv1\nmode: strict\nmx: a.example\nmax_age: 1', /not enforce, testing or none/],
    ['version: STSv1\nmode: enforce\nmax_age: 1', /names no mx/],
    ['version: STSv1\nmode: enforce\nmx: a.example\nmax_age: -1', /max_age/],
    ['version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 1 day', /max_age/],
    ['version: STSv1\nmode: enforce\nmx: a.example', /no max_age/],
    ['version: STSv1\nmode: enforce\nmx: *.*.example\nmax_age: 1', /not a host name/],
    ['version: STSv1\nmode: enforce\nmx: under_score.example\nmax_age: 1', /not a host name/],
    ['version: STSv1\nmode: enforce\nmx: localhost\nmax_age: 1', /not a host name/],
    ['<html>not found</html>', /line without a key/],
  ];
  for (const [text, reason] of cases) assert.throws(() => parseStsPolicy(text), reason, text);
});

test('mx patterns: exact names, and a wildcard for exactly one leftmost label', () => {
  assert.ok(mxMatches('mx.example.com', 'MX.example.com.'));
  assert.not.ok(mxMatches('mx.example.com', 'mx2.example.com'));
  assert.ok(mxMatches('*.example.com', 'mx.example.com'));
  assert.not.ok(mxMatches('*.example.com', 'example.com'));
  assert.not.ok(mxMatches('*.example.com', 'a.b.example.com'));
  assert.not.ok(mxMatches('*.example.com', 'mxexample.com'));
  assert.not.ok(mxMatches('*.example.com', 'mx.example.com.evil.test'));
});

test.run();
